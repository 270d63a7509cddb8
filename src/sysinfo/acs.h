/* SPDX-License-Identifier: MIT */
/* PCIe Access Control Services: reading the ACS control register from config space. */
#ifndef GDR_SYSINFO_ACS_H
#define GDR_SYSINFO_ACS_H

#include <stddef.h>
#include <stdint.h>

#define ACS_SV 0x0001 /* source validation */
#define ACS_TB 0x0002 /* translation blocking */
#define ACS_RR 0x0004 /* P2P request redirect */
#define ACS_CR 0x0008 /* P2P completion redirect */
#define ACS_UF 0x0010 /* upstream forwarding */

enum acs_state { ACS_UNREADABLE = -2, ACS_ABSENT = -1 };

/*
 * The ACS control register found in a config space image of len bytes, or
 * ACS_ABSENT (no ACS capability) or ACS_UNREADABLE (image too short: only
 * root may read the extended config space).
 */
int acs_control(const uint8_t *cfg, size_t len);

/* "SrcValid ReqRedir" for the flags that matter, "none" if none. */
const char *acs_flags_str(int ctrl, char *buf, size_t n);

#endif
