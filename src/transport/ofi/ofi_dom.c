/* SPDX-License-Identifier: MIT */
/* The libfabric transport's domain: the provider by name, its CQs and AV, the link's facts. */
#include "config.h"
#include "ofi_xp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>
#include "log.h"
#include "opts.h"

#define OFI_CAPS (FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE | FI_MSG)
#define OFI_MR_MODES                                                                               \
	(FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY | FI_MR_HMEM |           \
	 FI_MR_ENDPOINT)

/* Providers whose RMA is host software, not a NIC's: what their numbers measure. */
static const struct {
	const char *prov;
	const char *how;
} soft[] = {
    {"tcp", "RMA by host software over TCP"},
    {"sockets", "RMA by host software over sockets"},
    {"udp", "RMA by host software over UDP"},
    {"net", "RMA by host software over the network stack"},
    {"shm", "RMA by host copies (shared memory, same node)"},
};

/* The core provider of a layered name ("tcp;ofi_rxm" -> "tcp"). */
static void core_of(const char *prov, char *out, size_t n)
{
	size_t k = strcspn(prov, ";");

	snprintf(out, n, "%.*s", (int)k, prov);
}

/*
 * gcc 12's -fanalyzer reports the strdup'd names as leaked: they are stored in
 * the hints fi_dupinfo made, which fi_freeinfo frees with them (both called
 * through libfabric's loaded table, which the analyzer cannot follow).
 */
#ifndef __clang__
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
#endif
static struct fi_info *hints_for(const struct gdr_ofi_api *api, const struct gdr_xdom_cfg *cfg,
				 bool hmem)
{
	struct fi_info *h = api->fi_dupinfo(NULL);
	const char *prov = cfg->provider;

	if (!h)
		return NULL;
	h->caps = OFI_CAPS | (hmem ? FI_HMEM : 0);
	h->mode = FI_CONTEXT | FI_CONTEXT2 | FI_RX_CQ_DATA;
	h->ep_attr->type = FI_EP_RDM;
	h->domain_attr->mr_mode = OFI_MR_MODES;
	h->domain_attr->threading = FI_THREAD_SAFE;
	h->tx_attr->msg_order = FI_ORDER_SAW | FI_ORDER_SAS;
	/* efa-direct is a fabric of the efa provider (libfabric >= 2.0): RMA on the device only */
	if (prov && !strcmp(prov, "efa-direct")) {
		h->fabric_attr->name = strdup("efa-direct");
		prov = "efa";
	}
	if (prov)
		h->fabric_attr->prov_name = strdup(prov);
	if (cfg->dev)
		h->domain_attr->name = strdup(cfg->dev);
	return h;
}
#ifndef __clang__
#pragma GCC diagnostic pop
#endif

/*
 * Keep the first answer on domain dev (layered providers such as ofi_rxm in
 * libfabric 1.17 do not filter by the domain name asked): 0, or -1 naming
 * the domains there are.
 */
static int pick(struct gdr_xdom *d, const char *dev)
{
	struct fi_info *i, *one = NULL;
	char names[160] = "";

	for (i = d->info; i && !one; i = i->next)
		if (!strcmp(i->domain_attr->name, dev))
			one = d->api->fi_dupinfo(i);
	if (one) {
		one->next = NULL;
		d->api->fi_freeinfo(d->info);
		d->info = one;
		return 0;
	}
	for (i = d->info; i; i = i->next)
		if (!strstr(names, i->domain_attr->name) &&
		    strlen(names) + strlen(i->domain_attr->name) + 3 < sizeof(names))
			snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
				 names[0] ? ", " : "", i->domain_attr->name);
	gdr_err("ofi: provider %s has no domain %s (-d); it has: %s",
		d->info->fabric_attr->prov_name, dev, names);
	return -1;
}

static int find(struct gdr_xdom *d, const struct gdr_xdom_cfg *cfg)
{
	const struct gdr_ofi_api *api = d->api;
	uint32_t v = FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION);
	struct fi_info *h;
	int rc = -FI_ENODATA;

	/* GPU memory needs FI_HMEM; a provider without it still serves host memory. */
	for (int hmem = 1; hmem >= 0 && !d->info; hmem--) {
		h = hints_for(api, cfg, hmem);
		if (!h) {
			gdr_err("ofi: out of memory");
			return -1;
		}
		rc = api->fi_getinfo(v, NULL, NULL, 0, h, &d->info);
		api->fi_freeinfo(h);
		if (rc)
			d->info = NULL;
		d->hmem = hmem;
	}
	if (!d->info) {
		uint32_t rv = api->fi_version();

		gdr_err(
		    "ofi: libfabric %u.%u has no FI_EP_RDM endpoint with RMA and messages%s%s%s%s "
		    "(fi_getinfo: %s); `fi_info -l` lists this host's providers",
		    FI_MAJOR(rv), FI_MINOR(rv), cfg->provider ? " from provider " : "",
		    cfg->provider ? cfg->provider : "", cfg->dev ? " on domain " : "",
		    cfg->dev ? cfg->dev : "", api->fi_strerror(-rc));
		return rc == -FI_ENODATA ? -GDR_XNODEV : -1;
	}
	if (cfg->dev && pick(d, cfg->dev))
		return -1;
	d->mr_mode = d->info->domain_attr->mr_mode;
	d->rx_cq_data = (d->info->mode & FI_RX_CQ_DATA) != 0;
	d->cq_data_size = d->info->domain_attr->cq_data_size;
	d->inject_size = d->info->tx_attr->inject_size;
	return 0;
}

static const char *p2p_name(int v)
{
	switch (v) {
	case FI_HMEM_P2P_ENABLED:
		return "P2P enabled";
	case FI_HMEM_P2P_REQUIRED:
		return "P2P required";
	case FI_HMEM_P2P_PREFERRED:
		return "P2P preferred";
	case FI_HMEM_P2P_DISABLED:
		return "P2P disabled";
	}
	return "P2P unknown";
}

/* Ask an endpoint what the provider does with GPU memory (and, for efa, whether RMA is emulated).
 */
static void probe(struct gdr_xdom *d, char *out, size_t n)
{
	struct fid_ep *ep;
	int v = -1;
	size_t len = sizeof(v);

	out[0] = 0;
	if (!d->hmem && strcmp(d->info->fabric_attr->prov_name, "efa"))
		return; /* nothing to ask (and ofi_rxm cannot close an endpoint never enabled) */
	if (fi_endpoint(d->domain, d->info, &ep, NULL))
		return;
	if (d->hmem && !fi_getopt(&ep->fid, FI_OPT_ENDPOINT, FI_OPT_FI_HMEM_P2P, &v, &len))
		snprintf(out, n, ", %s", p2p_name(v));
#if HAVE_DECL_FI_OPT_EFA_EMULATED_WRITE
	if (!strcmp(d->info->fabric_attr->prov_name, "efa")) {
		bool emu = false;

		len = sizeof(emu);
		if (!fi_getopt(&ep->fid, FI_OPT_ENDPOINT, FI_OPT_EFA_EMULATED_WRITE, &emu, &len))
			snprintf(out + strlen(out), n - strlen(out), ", RMA write %s",
				 emu ? "emulated" : "on the device");
	}
#endif
	fi_close(&ep->fid);
}

static void fill_link(struct gdr_xdom *d, struct gdr_xlink *link)
{
	const struct fi_info *i = d->info;
	const char *prov = i->fabric_attr->prov_name;
	uint32_t rv = d->api->fi_version();
	const char *rma = "RMA as the provider does it (device or emulated: unverified)";
	char core[32], extra[96];

	memset(link, 0, sizeof(*link));
	snprintf(link->dev, sizeof(link->dev), "%s", i->domain_attr->name);
	snprintf(link->layer, sizeof(link->layer), "%s", prov);
	snprintf(link->provider, sizeof(link->provider), "%s", prov);
	/* GPU memory as this provider opened: none without FI_HMEM, nor where the library
	 * registers no GPU kind (shm's FI_HMEM in a libfabric built without CUDA): xport_fit.c */
	link->caps = GDR_OFI_XCAPS & (d->gpu_kinds ? ~0u : ~(GDR_XC_HMEM | GDR_XC_DMABUF));
	core_of(prov, core, sizeof(core));
	for (size_t k = 0; k < sizeof(soft) / sizeof(soft[0]); k++)
		if (!strcmp(core, soft[k].prov))
			rma = soft[k].how;
	if (!strcmp(core, "verbs") || !strcmp(core, "cxi"))
		rma = "RMA on the device";
	if (!strcmp(core, "efa"))
		rma = strcmp(i->fabric_attr->name, "efa-direct") ? "RMA on the device or emulated"
								 : "RMA on the device (efa-direct)";
	probe(d, extra, sizeof(extra));
	if (d->hmem && !d->gpu_kinds)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 ", FI_HMEM but no CUDA or ROCr in this libfabric");
	snprintf(link->what_ran, sizeof(link->what_ran), "libfabric %u.%u %s, %s%s%s", FI_MAJOR(rv),
		 FI_MINOR(rv), prov, rma, extra,
		 d->rx_cq_data ? "" : ", write with data = write + ordered send");
	if (i->nic && i->nic->link_attr) {
		link->rate_gbps = (double)i->nic->link_attr->speed / 1e9;
		link->mtu = (uint32_t)i->nic->link_attr->mtu;
	}
	if (i->nic && i->nic->bus_attr && i->nic->bus_attr->bus_type == FI_BUS_PCI) {
		const struct fi_pci_attr *p = &i->nic->bus_attr->attr.pci;

		snprintf(link->pci, sizeof(link->pci), "%04x:%02x:%02x.%x", p->domain_id, p->bus_id,
			 p->device_id, p->function_id);
	}
	if (strstr(rma, "software") || strstr(rma, "emulated"))
		gdr_info("ofi: provider %s: %s, not a NIC's RMA", prov, rma);
}

static int open_queues(struct gdr_xdom *d, const struct gdr_xdom_cfg *cfg)
{
	struct fi_cq_attr ca = {.format = FI_CQ_FORMAT_DATA, .wait_obj = FI_WAIT_NONE};
	struct fi_av_attr aa = {.type = d->info->domain_attr->av_type};
	int rc;

	ca.size = cfg->cq_depth;
	aa.count = cfg->neps ? cfg->neps * 2 : 16;
	for (int q = 0; q < 2; q++) {
		rc = fi_cq_open(d->domain, &ca, &d->cq[q], NULL);
		if (rc) {
			gdr_err("ofi: %s: cannot open a completion queue of %u: %s",
				d->info->fabric_attr->prov_name, cfg->cq_depth,
				d->api->fi_strerror(-rc));
			return -1;
		}
	}
	rc = fi_av_open(d->domain, &aa, &d->av, NULL);
	if (rc) {
		gdr_err("ofi: %s: cannot open an address vector: %s",
			d->info->fabric_attr->prov_name, d->api->fi_strerror(-rc));
		return -1;
	}
	return 0;
}

int gdr_ofi_open(struct gdr_xdom **out, const struct gdr_xdom_cfg *cfg, struct gdr_xlink *link)
{
	struct gdr_xdom *d;
	char why[320];
	int rc;

	*out = NULL;
	if (cfg->events) {
		gdr_err("ofi: -e (sleep on completion events) is not implemented for libfabric; "
			"drop -e");
		return -1;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		gdr_err("ofi: out of memory");
		return -1;
	}
	if (gdr_ofi_load(&d->api, why, sizeof(why))) {
		gdr_err("ofi: %s", why);
		free(d);
		return -GDR_XNODEV;
	}
	d->next_key = 1;
	d->stuck_ms = GDR_OFI_STUCK_MS;
	if (cfg->opts && ((const struct gdr_opts *)cfg->opts)->timeout * 1000 > GDR_OFI_STUCK_MS)
		d->stuck_ms = (long long)(((const struct gdr_opts *)cfg->opts)->timeout * 1000);
	rc = find(d, cfg);
	if (rc) {
		gdr_ofi_close(d);
		return rc;
	}
	rc = d->api->fi_fabric(d->info->fabric_attr, &d->fabric, NULL);
	if (!rc)
		rc = fi_domain(d->fabric, d->info, &d->domain, NULL);
	if (rc) {
		gdr_err("ofi: %s: cannot open domain %s: %s", d->info->fabric_attr->prov_name,
			d->info->domain_attr->name, d->api->fi_strerror(-rc));
		goto fail;
	}
	if (open_queues(d, cfg))
		goto fail;
	d->gpu_kinds = d->hmem ? gdr_ofi_gpu_kinds(d) : 0;
	fill_link(d, link);
	*out = d;
	return 0;
fail:
	gdr_ofi_close(d);
	return -1;
}

void gdr_ofi_close(struct gdr_xdom *d)
{
	if (!d)
		return;
	while (d->mrs)
		gdr_ofi_dereg(d->mrs);
	if (d->av)
		fi_close(&d->av->fid);
	for (int q = 0; q < 2; q++)
		if (d->cq[q])
			fi_close(&d->cq[q]->fid);
	if (d->domain)
		fi_close(&d->domain->fid);
	if (d->fabric)
		fi_close(&d->fabric->fid);
	if (d->info)
		d->api->fi_freeinfo(d->info);
	free(d->eps);
	free(d->stash[0].e);
	free(d->stash[1].e);
	free(d);
}
