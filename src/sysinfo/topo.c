/* SPDX-License-Identifier: MIT */
/* PCIe relation of two devices (nvidia-smi's words) from the sysfs device hierarchy. */
#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "sysfs.h"
#include "topo.h"

static const char *hex_run(const char *s, int min, int max)
{
	int n = 0;

	while (isxdigit((unsigned char)*s) && !isupper((unsigned char)*s) && n < max) {
		s++;
		n++;
	}
	return n >= min ? s : NULL;
}

int topo_is_bdf(const char *s)
{
	s = hex_run(s, 4, 8);
	if (!s || *s++ != ':')
		return 0;
	s = hex_run(s, 2, 2);
	if (!s || *s++ != ':')
		return 0;
	s = hex_run(s, 2, 2);
	if (!s || *s++ != '.')
		return 0;
	return *s >= '0' && *s <= '7' && s[1] == '\0';
}

/* "pci0000:00" -> root complex "0000:00" */
static int is_root_complex(const char *s)
{
	if (strncmp(s, "pci", 3))
		return 0;
	s = hex_run(s + 3, 4, 8);
	if (!s || *s++ != ':')
		return 0;
	s = hex_run(s, 2, 2);
	return s && *s == '\0';
}

int topo_locate(const char *sysroot, const char *bdf, struct topo_loc *loc)
{
	char path[PATH_MAX], real[PATH_MAX], *comp, *save = NULL;
	char chain[TOPO_MAX_DEPTH + 1][TOPO_BDF_LEN];
	int n = 0, have_rc = 0;
	long numa;

	memset(loc, 0, sizeof(*loc));
	loc->numa = -1;
	if (!topo_is_bdf(bdf) || strlen(bdf) >= TOPO_BDF_LEN)
		return -1;
	if (!fs_path(path, sizeof(path), sysroot, "/sys/bus/pci/devices/%s", bdf) ||
	    !realpath(path, real))
		return -1;
	for (comp = strtok_r(real, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
		if (is_root_complex(comp)) {
			/* The last root complex on the path wins (nested fixtures). */
			strcpy(loc->rc, comp + 3);
			have_rc = 1;
			n = 0;
		} else if (have_rc && topo_is_bdf(comp) && strlen(comp) < TOPO_BDF_LEN) {
			if (n > TOPO_MAX_DEPTH)
				return -1;
			strcpy(chain[n++], comp);
		} else if (have_rc) {
			/* Something other than a PCI function: not a PCI path. */
			return -1;
		}
	}
	if (!have_rc || n == 0 || strcmp(chain[n - 1], bdf))
		return -1;
	strcpy(loc->bdf, bdf);
	loc->depth = n - 1;
	for (int i = 0; i < n - 1; i++)
		strcpy(loc->bridge[i], chain[i]);
	if (fs_path(path, sizeof(path), sysroot, "/sys/bus/pci/devices/%s/numa_node", bdf) &&
	    !fs_read_long(path, &numa) && numa >= 0 && numa < INT_MAX)
		loc->numa = (int)numa;
	return 0;
}

static int common_bridges(const struct topo_loc *a, const struct topo_loc *b)
{
	int c = 0;

	while (c < a->depth && c < b->depth && !strcmp(a->bridge[c], b->bridge[c]))
		c++;
	return c;
}

enum topo_rel topo_relation(const struct topo_loc *a, const struct topo_loc *b)
{
	int c;

	if (!a->bdf[0] || !b->bdf[0])
		return TOPO_UNKNOWN;
	if (!strcmp(a->bdf, b->bdf))
		return TOPO_X;
	if (strcmp(a->rc, b->rc)) {
		if (a->numa >= 0 && b->numa >= 0 && a->numa != b->numa)
			return TOPO_SYS;
		return TOPO_NODE;
	}
	c = common_bridges(a, b);
	if (c == 0)
		return TOPO_PHB;
	/*
	 * Below the last shared bridge each side climbs its own bridges. A
	 * switch shows as an upstream port with one downstream port per device:
	 * one bridge on each side means both hang off the same switch.
	 */
	if (a->depth - c <= 1 && b->depth - c <= 1)
		return TOPO_PIX;
	return TOPO_PXB;
}

const char *topo_rel_name(enum topo_rel rel)
{
	static const char *const names[] = {"X", "PIX", "PXB", "PHB", "NODE", "SYS", "?"};

	if ((unsigned)rel > TOPO_UNKNOWN)
		rel = TOPO_UNKNOWN;
	return names[rel];
}

int topo_path_bridges(const struct topo_loc *a, const struct topo_loc *b, char out[][TOPO_BDF_LEN],
		      int max)
{
	enum topo_rel rel = topo_relation(a, b);
	int c, n = 0;

	if (rel != TOPO_PIX && rel != TOPO_PXB)
		return 0;
	c = common_bridges(a, b);
	for (int i = c - 1; i < a->depth && n < max; i++)
		strcpy(out[n++], a->bridge[i]);
	for (int i = c; i < b->depth && n < max; i++)
		strcpy(out[n++], b->bridge[i]);
	return n;
}
