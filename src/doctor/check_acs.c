/* SPDX-License-Identifier: MIT */
/* PCIe ACS on the bridges that GPU <-> NIC peer traffic crosses below the root complex. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "acs.h"
#include "doctor.h"
#include "sysfs.h"

#define MAX_BRIDGES 64

struct bridge {
	char bdf[TOPO_BDF_LEN];
	int gpu, nic; /* the first pair found crossing it */
};

static int collect(struct doctor *d, struct bridge *br, int max)
{
	char path[TOPO_MAX_DEPTH * 2][TOPO_BDF_LEN];
	int nb = 0;

	for (int g = 0; g < d->ngpu; g++) {
		for (int n = 0; n < d->nnic; n++) {
			int k;

			if (!d->gpu[g].have_loc || !d->nic[n].have_loc)
				continue;
			k = topo_path_bridges(&d->gpu[g].loc, &d->nic[n].loc, path,
					      TOPO_MAX_DEPTH * 2);
			for (int i = 0; i < k; i++) {
				int seen = 0;

				for (int j = 0; j < nb && !seen; j++)
					seen = !strcmp(br[j].bdf, path[i]);
				if (seen || nb == max)
					continue;
				strcpy(br[nb].bdf, path[i]);
				br[nb].gpu = g;
				br[nb].nic = n;
				nb++;
			}
		}
	}
	return nb;
}

void check_acs(struct doctor *d)
{
	struct bridge br[MAX_BRIDGES];
	char path[PATH_MAX], flags[64], next[512], why[160];
	uint8_t cfg[4096];
	int nb, unreadable = 0, absent = 0;

	out_group(&d->out, "PCIe ACS");
	nb = collect(d, br, MAX_BRIDGES);
	if (nb == 0) {
		if (doc_no_pairs(d, why, sizeof(why)))
			out_add(&d->out, OUT_INFO, "acs.bridges", NULL, "%s: no bridge to check",
				why);
		else
			out_add(&d->out, OUT_INFO, "acs.bridges", NULL,
				"no GPU-NIC pair shares a PCIe switch (%d GPU(s) x %d RDMA "
				"device(s) checked): no bridge to check",
				d->ngpu, d->nnic);
		return;
	}
	for (int i = 0; i < nb; i++) {
		const struct doc_gpu *g = &d->gpu[br[i].gpu];
		ssize_t len = fs_read_bin(fs_path(path, sizeof(path), d->sysroot,
						  "/sys/bus/pci/devices/%s/config", br[i].bdf),
					  cfg, sizeof(cfg));
		int ctrl = acs_control(cfg, len > 0 ? (size_t)len : 0);

		if (ctrl == ACS_UNREADABLE) {
			unreadable++;
			continue;
		}
		if (ctrl == ACS_ABSENT) {
			absent++;
			continue;
		}
		acs_flags_str(ctrl, flags, sizeof(flags));
		if (ctrl & (ACS_RR | ACS_CR)) {
			snprintf(next, sizeof(next),
				 "turn ACS off in the BIOS, or until reboot: `setpci -s %.23s "
				 "ECAP_ACS+0x6.w=0000` (as root)",
				 br[i].bdf);
			out_add(&d->out, OUT_FAIL, "acs.bridge", next,
				"bridge %s between GPU %s and %s: ACS %s: peer traffic is "
				"redirected to the root complex (slow, may hang)",
				br[i].bdf, g->bdf, d->nic[br[i].nic].name, flags);
		} else {
			out_add(&d->out, OUT_OK, "acs.bridge", NULL,
				"bridge %s between GPU %s and %s: ACS flags %s, no redirect",
				br[i].bdf, g->bdf, d->nic[br[i].nic].name, flags);
		}
	}
	if (absent)
		out_add(&d->out, OUT_OK, "acs.bridge", NULL,
			"%d bridge(s) on GPU-NIC paths have no ACS capability", absent);
	if (unreadable)
		out_add(&d->out, OUT_WARN, "acs.unreadable",
			"run gdr_doctor as root to read the bridges' extended config space",
			"cannot read the ACS registers of %d bridge(s) on GPU-NIC paths",
			unreadable);
}
