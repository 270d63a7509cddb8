/* SPDX-License-Identifier: MIT */
/* PCIe distance between two devices from their sysfs paths, to pick the GPU nearest a NIC. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "cuda_topo.h"

/* Length of the component starting at p (up to '/' or the end). */
static size_t comp_len(const char *p)
{
	size_t n = 0;

	while (p[n] && p[n] != '/')
		n++;
	return n;
}

size_t gdr_path_common(const char *a, const char *b)
{
	size_t n = 0;

	for (;;) {
		size_t la, lb;

		while (*a == '/')
			a++;
		while (*b == '/')
			b++;
		la = comp_len(a);
		lb = comp_len(b);
		if (!la || la != lb || memcmp(a, b, la))
			return n;
		n++;
		a += la;
		b += lb;
	}
}

enum gdr_pci_affinity gdr_pci_affinity(const char *a, const char *b)
{
	size_t c;

	if (!a || !b || !*a || !*b)
		return GDR_PCI_UNKNOWN;
	c = gdr_path_common(a, b);
	/* /sys/devices/pciDDDD:BB is 3 components: the root complex. */
	if (c < 3 || strncmp(a, "/sys/devices/pci", 16))
		return GDR_PCI_OTHER_ROOT;
	if (c == 3)
		return GDR_PCI_SAME_ROOT;
	/* They share at least one bridge below the root complex. */
	return GDR_PCI_SAME_SWITCH;
}

const char *gdr_pci_affinity_str(enum gdr_pci_affinity a)
{
	switch (a) {
	case GDR_PCI_SAME_SWITCH:
		return "under the same PCIe switch";
	case GDR_PCI_SAME_ROOT:
		return "on the same PCIe root complex";
	case GDR_PCI_OTHER_ROOT:
		return "on a different PCIe root complex";
	default:
		return "PCIe position unknown";
	}
}

int gdr_pci_normalize(const char *in, char *out, size_t n)
{
	unsigned int dom = 0, bus, dev, fn;
	char extra;

	if (!in || !*in || strspn(in, "0123456789abcdefABCDEF:.") != strlen(in))
		return -1;
	if (sscanf(in, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &extra) != 4) {
		dom = 0;
		if (sscanf(in, "%x:%x.%x%c", &bus, &dev, &fn, &extra) != 3)
			return -1;
	}
	if (dom > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
		return -1;
	if ((size_t)snprintf(out, n, "%04x:%02x:%02x.%x", dom, bus, dev, fn) >= n)
		return -1;
	return 0;
}
