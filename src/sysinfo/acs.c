/* SPDX-License-Identifier: MIT */
/* PCIe ACS: finding the ACS capability in config space and naming its control bits. */
#include <stdio.h>
#include <string.h>
#include "acs.h"

#define ECAP_START 0x100
#define ECAP_ACS   0x000d

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int acs_control(const uint8_t *cfg, size_t len)
{
	size_t off = ECAP_START;

	if (len < ECAP_START + 4)
		return ACS_UNREADABLE;
	/* At most 1024 capabilities fit in 4 KiB: bounds the walk on a looped list. */
	for (int hops = 0; hops < 1024; hops++) {
		uint32_t hdr;

		if (off + 8 > len)
			return ACS_ABSENT;
		hdr = le32(cfg + off);
		if (hdr == 0 || hdr == 0xffffffffu)
			return ACS_ABSENT;
		if ((hdr & 0xffff) == ECAP_ACS)
			return cfg[off + 6] | cfg[off + 7] << 8;
		off = (hdr >> 20) & 0xffc;
		if (off < ECAP_START)
			return ACS_ABSENT;
	}
	return ACS_ABSENT;
}

const char *acs_flags_str(int ctrl, char *buf, size_t n)
{
	static const struct {
		int bit;
		const char *name;
	} flags[] = {{ACS_SV, "SrcValid"}, {ACS_RR, "ReqRedir"}, {ACS_CR, "CmpltRedir"}};
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < sizeof(flags) / sizeof(flags[0]); i++)
		if ((ctrl & flags[i].bit) && len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s", len ? " " : "",
						flags[i].name);
	if (!buf[0])
		snprintf(buf, n, "none");
	return buf;
}
