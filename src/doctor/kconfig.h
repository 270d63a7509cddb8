/* SPDX-License-Identifier: MIT */
/* The running kernel's build options (kconfig.c): config files, /proc/config.gz, kallsyms. */
#ifndef GDR_DOCTOR_KCONFIG_H
#define GDR_DOCTOR_KCONFIG_H

#include <stddef.h>

struct doctor;

struct kconfig_opt {
	const char *name;   /* "CONFIG_PCI_P2PDMA" */
	const char *symbol; /* a symbol only that option's code exports, or NULL */
	int on;		    /* out: 1 set (y or m), 0 not set, -1 unknown */
};

enum kconfig_src {
	KCONFIG_NONE,	 /* nothing readable: every on is -1 */
	KCONFIG_FILE,	 /* a config file: every on is 0 or 1 */
	KCONFIG_SYMBOLS, /* /proc/kallsyms: on is 0 or 1 where a symbol is named, else -1 */
};

/*
 * The options opt[n] of Linux release rel (under d's sysroot and procroot), from the
 * first of: /boot/config-REL, /usr/lib/modules/REL/config, /lib/modules/REL/config,
 * /lib/modules/REL/build/.config, /usr/src/linux-REL/.config,
 * /usr/src/linux-headers-REL/.config, /usr/src/kernels/REL/.config, /proc/config.gz,
 * /proc/kallsyms. where: the one read (or, for KCONFIG_NONE, what was looked at).
 */
enum kconfig_src kconfig_read(const struct doctor *d, const char *rel, struct kconfig_opt *opt,
			      int n, char *where, size_t wn);

#endif
