/* SPDX-License-Identifier: MIT */
/*
 * The running kernel's build options, read where distributions and containers
 * leave them: the config file beside the kernel (Debian, Ubuntu, Fedora and
 * RHEL in /boot; Arch and openSUSE in the modules folder; a source or headers
 * tree), /proc/config.gz (CONFIG_IKCONFIG_PROC), and last /proc/kallsyms, which
 * a container usually still shows: an option whose code exports a known symbol
 * is on when the symbol is there (kconfig.h).
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include "doctor.h"
#include "kconfig.h"
#include "sysfs.h"

/* Config files named by the release (before it, after it), in the order tried, below the sysroot.
 */
static const char *const files[][2] = {
    {"/boot/config-", ""},
    {"/usr/lib/modules/", "/config"},
    {"/lib/modules/", "/config"},
    {"/lib/modules/", "/build/.config"},
    {"/usr/src/linux-", "/.config"},
    {"/usr/src/linux-headers-", "/.config"},
    {"/usr/src/kernels/", "/.config"},
};

/* Each option's value from the config lines in f: 1 "=y" or "=m", 0 otherwise. */
static void scan(FILE *f, struct kconfig_opt *opt, int n)
{
	char line[512];

	for (int i = 0; i < n; i++)
		opt[i].on = 0;
	while (fgets(line, sizeof(line), f))
		for (int i = 0; i < n; i++) {
			size_t k = strlen(opt[i].name);

			if (!strncmp(line, opt[i].name, k) &&
			    (!strncmp(line + k, "=y", 2) || !strncmp(line + k, "=m", 2)))
				opt[i].on = 1;
		}
}

/* /proc/config.gz through gzip; 0 read, -1 not there or not readable. */
static int config_gz(const char *path, struct kconfig_opt *opt, int n)
{
	char cmd[PATH_MAX + 64];
	FILE *f = fopen(path, "rb");
	int rc;

	if (!f)
		return -1;
	fclose(f);
	if (strchr(path, '\''))
		return -1;
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s' 2>/dev/null", path);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	scan(f, opt, n);
	rc = pclose(f);
	return rc == 0 ? 0 : -1;
}

/* /proc/kallsyms: the options with a symbol get 1 or 0; 0 read, -1 not readable. */
static int kallsyms(const char *path, struct kconfig_opt *opt, int n)
{
	char line[512], sym[256];
	FILE *f = fopen(path, "r");
	int any = 0;

	if (!f)
		return -1;
	for (int i = 0; i < n; i++)
		opt[i].on = opt[i].symbol ? 0 : -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %*s %255s", sym) != 1)
			continue;
		any = 1;
		for (int i = 0; i < n; i++)
			if (opt[i].symbol && !strcmp(sym, opt[i].symbol))
				opt[i].on = 1;
	}
	fclose(f);
	if (!any)
		for (int i = 0; i < n; i++)
			opt[i].on = -1;
	return any ? 0 : -1;
}

enum kconfig_src kconfig_read(const struct doctor *d, const char *rel, struct kconfig_opt *opt,
			      int n, char *where, size_t wn)
{
	char path[PATH_MAX], name[PATH_MAX];
	FILE *f;

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(name, sizeof(name), "%s%s%s", files[i][0], rel, files[i][1]);
		f = fopen(fs_path(path, sizeof(path), d->sysroot, "%s", name), "r");
		if (!f)
			continue;
		scan(f, opt, n);
		fclose(f);
		snprintf(where, wn, "%s", name);
		return KCONFIG_FILE;
	}
	if (!config_gz(fs_path(path, sizeof(path), d->procroot, "/proc/config.gz"), opt, n)) {
		snprintf(where, wn, "/proc/config.gz");
		return KCONFIG_FILE;
	}
	if (!kallsyms(fs_path(path, sizeof(path), d->procroot, "/proc/kallsyms"), opt, n)) {
		snprintf(where, wn, "/proc/kallsyms");
		return KCONFIG_SYMBOLS;
	}
	for (int i = 0; i < n; i++)
		opt[i].on = -1;
	snprintf(where, wn,
		 "no kernel config in /boot, /lib/modules, /usr/src or /proc/config.gz, and no "
		 "/proc/kallsyms");
	return KCONFIG_NONE;
}
