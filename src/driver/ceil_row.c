/* SPDX-License-Identifier: MIT */
/* Each bandwidth row's ceiling from this side's facts: see ceil_row.h. */
#include "config.h"
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "affinity.h"
#include "ceil_row.h"
#include "verdict.h"

void gdr_ceil_rows_setup(struct gdr_ceil_rows *cr, const char *dev, int port, double port_gbps,
			 bool gpu_mem, const char *gpu_pci, bool bidir)
{
	char root[PATH_MAX];

	gdr_host_root(root, sizeof(root));
	memset(cr, 0, sizeof(*cr));
	ceiling_facts(root, dev ? dev : "", port, NULL, &cr->host);
	if (gpu_mem && gpu_pci && *gpu_pci) {
		ceiling_facts(root, dev ? dev : "", port, gpu_pci, &cr->gpu);
	} else if (gpu_mem) { /* GPU memory at no known address: its link and path unknown */
		cr->gpu = cr->host;
		cr->gpu.gpu_mem = true;
	}
	if (port_gbps > 0) /* the verbs' word over sysfs's */
		cr->host.port_gbps = cr->gpu.port_gbps = port_gbps;
	cr->scale = bidir ? 2 : 1;
	cr->copy_both = bidir; /* -b: the probe times both directions of a side at once */
	cr->copier = gpu_mem ? "copy engine" : "staging copy";
}

void gdr_ceil_rows_init(struct gdr_ceil_rows *cr, const struct gdr_conn *c)
{
	bool gpu = gdr_mem_on_device(&c->data);

	gdr_ceil_rows_setup(cr, c->dev_name, c->port, c->link.rate_gbps, gpu, c->data.gpu_pci,
			    c->o->bidir);
}

const char *gdr_ceil_copier_name(const char *stage_copy)
{
	return stage_copy && !strcmp(stage_copy, "ce") ? "copy engine" : stage_copy;
}

void gdr_ceil_row(const struct gdr_ceil_rows *cr, bool gpu_mem, bool staged, double copy_Bps,
		  struct gdr_result *r)
{
	gdr_ceil_row_copier(cr, gpu_mem, staged, copy_Bps, NULL, r);
}

void gdr_ceil_row_copier(const struct gdr_ceil_rows *cr, bool gpu_mem, bool staged, double copy_Bps,
			 const char *copier, struct gdr_result *r)
{
	struct ceil_in in = gpu_mem && cr->gpu.gpu_mem && !staged ? cr->gpu : cr->host;
	struct ceil_out out;
	size_t k;

	if (r->has_lat)
		return;
	if (!staged && r->gp_kernel_rate > 0) { /* the kernel's rate, x the size: a bound too */
		in.kernel_rate = r->gp_kernel_rate;
		in.msg_bytes = (double)r->bytes;
	}
	if (staged && copy_Bps > 0) {
		in.copy_Bps = copy_Bps;
		in.copier = copier && *copier ? copier : cr->copier;
		in.copy_both = cr->copy_both; /* x scale below: the rate itself, not twice it */
	}
	ceiling_compute(&in, &out);
	r->ceiling_Bps = out.gbps * 1e9 / 8 * cr->scale;
	snprintf(r->ceil_limit, sizeof(r->ceil_limit), "%s", out.limit);
	snprintf(r->ceil_note, sizeof(r->ceil_note), "%s", out.note);
	k = strlen(r->ceil_note);
	if (staged && copy_Bps <= 0 && k + 2 < sizeof(r->ceil_note))
		snprintf(r->ceil_note + k, sizeof(r->ceil_note) - k, "%scopy rate not measured",
			 k ? "; " : "");
}
