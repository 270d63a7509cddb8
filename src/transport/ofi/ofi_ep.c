/* SPDX-License-Identifier: MIT */
/* The libfabric transport's endpoints: open, address blob, connect (AV insert), close. */
#include "config.h"
#include "ofi_xp.h"

#include <stdlib.h>
#include <string.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_errno.h>
#include "log.h"

/* The blob: the endpoint's index (2 bytes, little end first), then fi_getname's name. */
#define BLOB_HEAD 2

/*
 * The domain's open endpoints, in a free slot (eps[0]: the first, which
 * FI_MR_ENDPOINT binds regions to). An index may repeat: each path of a
 * --compare run opens its own endpoints 0..nqp-1 on one domain.
 */
static int keep(struct gdr_xdom *d, struct gdr_xep *ep)
{
	uint32_t k = 0;

	while (k < d->neps && d->eps[k])
		k++;
	if (k == d->neps) {
		struct gdr_xep **eps = realloc(d->eps, (k + 1u) * sizeof(*eps));

		if (!eps) {
			gdr_err("ofi: out of memory");
			return -1;
		}
		d->eps = eps;
		d->neps = k + 1u;
	}
	d->eps[k] = ep;
	return 0;
}

static int depth(const struct gdr_xdom *d, const char *what, uint32_t want, size_t max)
{
	if (want > max) {
		gdr_err("ofi: %s: %u %s asked, the provider allows %zu (lower -t or -r)",
			d->info->fabric_attr->prov_name, want, what, max);
		return -1;
	}
	return 0;
}

static int create(struct gdr_xdom *d, struct gdr_xep *ep, const struct gdr_xep_cfg *cfg)
{
	struct fi_info *i = d->api->fi_dupinfo(d->info);
	int rc;

	if (!i)
		return -FI_ENOMEM;
	i->tx_attr->size = cfg->tx_depth;
	i->rx_attr->size = cfg->rx_depth;
	i->tx_attr->op_flags = 0; /* completions only where a post asks (FI_COMPLETION) */
	rc = fi_endpoint(d->domain, i, &ep->ep, NULL);
	d->api->fi_freeinfo(i);
	if (rc)
		return rc;
	rc = fi_ep_bind(ep->ep, &d->av->fid, 0);
	if (!rc)
		rc = fi_ep_bind(ep->ep, &d->cq[GDR_XCQ_SEND]->fid,
				FI_TRANSMIT | FI_SELECTIVE_COMPLETION);
	if (!rc)
		rc = fi_ep_bind(ep->ep, &d->cq[GDR_XCQ_RECV]->fid, FI_RECV);
	if (!rc)
		rc = fi_enable(ep->ep);
	return rc;
}

int gdr_ofi_ep_open(struct gdr_xdom *d, const struct gdr_xep_cfg *cfg, struct gdr_xep **out)
{
	struct gdr_xep *ep;
	int rc;

	*out = NULL;
	if (depth(d, "operations in flight", cfg->tx_depth, d->info->tx_attr->size) ||
	    depth(d, "receives", cfg->rx_depth, d->info->rx_attr->size))
		return -1;
	ep = calloc(1, sizeof(*ep));
	if (!ep) {
		gdr_err("ofi: out of memory");
		return -1;
	}
	ep->d = d;
	ep->index = cfg->index;
	ep->tx_depth = cfg->tx_depth ? cfg->tx_depth : 1;
	ep->rx_depth = cfg->rx_depth ? cfg->rx_depth : 1;
	ep->tx = calloc(2 * (size_t)ep->tx_depth, sizeof(*ep->tx));
	ep->pctx = calloc(ep->rx_depth, sizeof(*ep->pctx));
	if (!ep->tx || !ep->pctx) {
		gdr_err("ofi: out of memory");
		gdr_ofi_ep_close(ep);
		return -1;
	}
	if (keep(d, ep)) {
		gdr_ofi_ep_close(ep);
		return -1;
	}
	rc = create(d, ep, cfg);
	if (rc) {
		gdr_err("ofi: %s: cannot open an endpoint (%u in flight, %u receives): %s",
			d->info->fabric_attr->prov_name, cfg->tx_depth, cfg->rx_depth,
			d->api->fi_strerror(-rc));
		gdr_ofi_ep_close(ep);
		return -1;
	}
	if ((d->mr_mode & FI_MR_ENDPOINT) && gdr_ofi_mr_bind(d, ep)) {
		gdr_ofi_ep_close(ep);
		return -1;
	}
	*out = ep;
	return 0;
}

size_t gdr_ofi_addr(struct gdr_xep *ep, void *buf, size_t cap)
{
	unsigned char *b = buf;
	size_t len;
	int rc;

	if (cap <= BLOB_HEAD)
		return 0;
	len = cap - BLOB_HEAD;
	rc = fi_getname(&ep->ep->fid, b + BLOB_HEAD, &len);
	if (rc) {
		gdr_err("ofi: cannot read the endpoint's address (%zu bytes of room): %s",
			cap - BLOB_HEAD, ep->d->api->fi_strerror(-rc));
		return 0;
	}
	b[0] = ep->index & 0xff;
	b[1] = ep->index >> 8;
	return BLOB_HEAD + len;
}

int gdr_ofi_connect(struct gdr_xep *ep, const void *blob, size_t len, const struct gdr_xremote *rem)
{
	const unsigned char *b = blob;
	int rc;

	if (len <= BLOB_HEAD) {
		gdr_err("ofi: the peer's endpoint address is %zu bytes: too short", len);
		return -1;
	}
	rc = fi_av_insert(ep->d->av, b + BLOB_HEAD, 1, &ep->peer, 0, NULL);
	if (rc != 1) {
		gdr_err("ofi: %s: cannot add the peer's address to the address vector: %s",
			ep->d->info->fabric_attr->prov_name,
			ep->d->api->fi_strerror(rc < 0 ? -rc : FI_EINVAL));
		return -1;
	}
	ep->peer_index = (uint16_t)(b[0] | b[1] << 8);
	ep->rem = *rem;
	ep->connected = true;
	return 0;
}

void gdr_ofi_ep_close(struct gdr_xep *ep)
{
	if (!ep)
		return;
	if (ep->ep)
		fi_close(&ep->ep->fid);
	for (uint32_t k = 0; k < ep->d->neps; k++)
		if (ep->d->eps[k] == ep)
			ep->d->eps[k] = NULL;
	free(ep->ops);
	free(ep->tx);
	free(ep->pctx);
	free(ep);
}
