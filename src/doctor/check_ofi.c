/* SPDX-License-Identifier: MIT */
/*
 * libfabric: the run-time library's version and the providers that give the
 * ofi transport what it needs (FI_EP_RDM, RMA, messages), with their domains
 * and which of them register GPU memory (FI_HMEM). The host's, so only on a
 * live run or when $GDR_LIBFABRIC names the library.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "doctor.h"
#ifdef HAVE_LIBFABRIC
#include <rdma/fabric.h>
#include "ofi/ofi_api.h"

/* "prov (dom, dom), prov (dom)" of an fi_getinfo answer into buf. */
static void names(const struct fi_info *list, char *buf, size_t n)
{
	buf[0] = 0;
	for (const struct fi_info *i = list; i; i = i->next) {
		const char *p = i->fabric_attr->prov_name, *dom = i->domain_attr->name;
		const struct fi_info *j;

		for (j = list; j != i; j = j->next)
			if (!strcmp(j->fabric_attr->prov_name, p))
				break;
		if (j != i)
			continue; /* listed with its first */
		snprintf(buf + strlen(buf), n - strlen(buf), "%s%s (%s", buf[0] ? ", " : "", p,
			 dom);
		for (j = i->next; j; j = j->next)
			if (!strcmp(j->fabric_attr->prov_name, p) &&
			    !strstr(buf, j->domain_attr->name))
				snprintf(buf + strlen(buf), n - strlen(buf), ", %s",
					 j->domain_attr->name);
		snprintf(buf + strlen(buf), n - strlen(buf), ")");
	}
}

static struct fi_info *ask(const struct gdr_ofi_api *api, uint64_t extra)
{
	struct fi_info *h = api->fi_dupinfo(NULL), *got = NULL;

	if (!h)
		return NULL;
	h->caps = FI_RMA | FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE | FI_MSG | extra;
	h->ep_attr->type = FI_EP_RDM;
	h->mode = FI_CONTEXT | FI_CONTEXT2 | FI_RX_CQ_DATA;
	h->domain_attr->mr_mode = FI_MR_LOCAL | FI_MR_VIRT_ADDR | FI_MR_ALLOCATED | FI_MR_PROV_KEY |
				  FI_MR_HMEM | FI_MR_ENDPOINT;
	if (api->fi_getinfo(FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION), NULL, NULL, 0, h, &got))
		got = NULL;
	api->fi_freeinfo(h);
	return got;
}
#endif

void check_ofi(struct doctor *d)
{
	if (!d->live && !getenv("GDR_LIBFABRIC"))
		return;
	out_group(&d->out, "libfabric (--transport=ofi)");
#ifndef HAVE_LIBFABRIC
	out_add(&d->out, OUT_INFO, "ofi.build",
		"install libfabric's headers (libfabric-dev) and run configure again",
		"this gdr_doctor was built without libfabric: no ofi transport");
#else
	const struct gdr_ofi_api *api;
	struct fi_info *all, *hmem;
	char why[320], list[512], hl[512];
	uint32_t v;

	if (gdr_ofi_load(&api, why, sizeof(why))) {
		out_add(&d->out, OUT_INFO, "ofi.library",
			"install libfabric (Debian/Ubuntu: libfabric1) for --transport=ofi", "%s",
			why);
		return;
	}
	v = api->fi_version();
	all = ask(api, 0);
	if (!all) {
		out_add(&d->out, OUT_WARN, "ofi.providers",
			"`fi_info -l` lists the providers there are",
			"libfabric %u.%u: no provider gives an FI_EP_RDM endpoint with RMA and "
			"messages",
			FI_MAJOR(v), FI_MINOR(v));
		return;
	}
	names(all, list, sizeof(list));
	hmem = ask(api, FI_HMEM);
	names(hmem, hl, sizeof(hl));
	out_add(&d->out, OUT_OK, "ofi.providers", NULL,
		"libfabric %u.%u: providers with RMA: %s; registering GPU memory (FI_HMEM): %s",
		FI_MAJOR(v), FI_MINOR(v), list, hmem ? hl : "none");
	api->fi_freeinfo(all);
	if (hmem)
		api->fi_freeinfo(hmem);
#endif
}
