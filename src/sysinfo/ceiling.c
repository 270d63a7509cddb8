/* SPDX-License-Identifier: MIT */
/* A bandwidth row's ceiling from the host's facts: see ceiling.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "ceiling.h"

static void note(struct ceil_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct ceil_out *o, const char *fmt, ...)
{
	size_t k = strlen(o->note);
	va_list ap;

	if (k && k + 2 < sizeof(o->note)) {
		memcpy(o->note + k, "; ", 3);
		k += 2;
	}
	va_start(ap, fmt);
	vsnprintf(o->note + k, sizeof(o->note) - k, fmt, ap);
	va_end(ap);
}

/* Take gbps as the ceiling if it is known and below the one so far. */
static void consider(struct ceil_out *o, double gbps, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void consider(struct ceil_out *o, double gbps, const char *fmt, ...)
{
	va_list ap;

	if (!(gbps > 0) || (o->gbps > 0 && gbps >= o->gbps))
		return;
	o->gbps = gbps;
	va_start(ap, fmt);
	vsnprintf(o->limit, sizeof(o->limit), fmt, ap);
	va_end(ap);
}

double pcie_speed_taken(const struct pcie_link *l, bool gpu)
{
	double cap = pcie_link_cap_gts(l);

	/* only an idle GPU's Gen1: a link above it is what the load trained */
	if (gpu && pcie_gen(l->gts) == 1 && cap > l->gts && pcie_gen(cap))
		return cap;
	return l->gts;
}

/* A PCIe link's share; false (and a note) when it is not readable. */

static bool link(struct ceil_out *o, const struct pcie_link *l, const char *who, bool gpu,
		 bool *assumed)
{
	double gts = pcie_speed_taken(l, gpu), bps;

	if (gts > l->gts)
		note(o, "%s link idle at Gen%d: Gen%d taken%s", who, pcie_gen(l->gts),
		     pcie_gen(gts), gts < l->max_gts ? " (its slot's maximum)" : "");
	bps = pcie_payload_Bps(gts, l->width, l->mps);
	if (bps <= 0) {
		note(o, "%s PCIe link not readable", who);
		return false;
	}
	consider(o, bps * 8 / 1e9, "%s PCIe Gen%d x%d", who, pcie_gen(gts), l->width);
	if (l->mps <= 0)
		*assumed = true;
	return true;
}

/* A bridge's link on the path, at the device's MPS, when narrower than what is taken. */
static void hop(struct ceil_out *o, const struct pcie_hop *h, const char *who, int mps)
{
	double bps = pcie_payload_Bps(h->gts, h->width, mps);

	if (bps > 0)
		consider(o, bps * 8 / 1e9, "PCIe Gen%d x%d above the %s (%s)", pcie_gen(h->gts),
			 h->width, who, h->at);
}

static void p2p(struct ceil_out *o, enum topo_rel path)
{
	switch (path) {
	case TOPO_X:
	case TOPO_PIX:
	case TOPO_PXB:
		return; /* below a PCIe switch: the links' rate */
	case TOPO_PHB:
	case TOPO_NODE:
	case TOPO_SYS:
		note(o, "P2P through %s: may be far below", topo_rel_name(path));
		return;
	default:
		note(o, "P2P path unknown");
	}
}

double ceiling_compute(const struct ceil_in *in, struct ceil_out *out)
{
	bool assumed = false, staged = in->copy_Bps > 0;

	memset(out, 0, sizeof(*out));
	if (in->port_gbps > 0)
		consider(out, in->port_gbps, "NIC port %g Gb/s", in->port_gbps);
	else
		note(out, "port rate unknown");
	if (in->nic_virtual)
		note(out, "no PCIe link (virtual device)");
	else if (link(out, &in->nic, "NIC", false, &assumed))
		hop(out, &in->nic_up, "NIC", in->nic.mps);
	if (staged) {
		/* the NIC moves host memory; the copier's measured rate covers the GPU's link */
		/* named, not rated: the figure is the row's ceiling, in the output's unit */
		consider(out, in->copy_Bps * 8 / 1e9 / (in->copy_both ? 2 : 1), "%s%s",
			 in->copier && *in->copier ? in->copier : "copy",
			 in->copy_both ? " both ways" : "");
	} else if (in->gpu_mem) {
		if (link(out, &in->gpu, "GPU", true, &assumed))
			hop(out, &in->gpu_up, "GPU", in->gpu.mps);
		if (!in->nic_virtual) /* a software NIC's CPU copies: no peer-to-peer */
			p2p(out, in->path);
	}
	if (in->kernel_rate > 0 && in->msg_bytes > 0)
		consider(out, in->kernel_rate * in->msg_bytes * 8 / 1e9,
			 "gpu-proxy kernel %.3g M msg/s", in->kernel_rate / 1e6);
	if (assumed)
		note(out, "MPS assumed %d B", CEIL_MPS_ASSUMED);
	if (!(out->gbps > 0))
		snprintf(out->limit, sizeof(out->limit), "unknown");
	return out->gbps;
}
