/* SPDX-License-Identifier: MIT */
/* The QP attributes a user sets (-T, -S, -u, -o): choices and the header's description. */
#include <stdio.h>
#include <infiniband/verbs.h>
#include "qp_attrs.h"
#include "verb_def.h"

uint32_t gdr_outs_choose(uint32_t asked, int dev_rd_atom, int dev_init_rd_atom)
{
	uint32_t limit = dev_rd_atom > 0 ? (uint32_t)dev_rd_atom : 1;
	uint32_t want = asked ? asked : GDR_OUTS_DEFAULT_MAX;

	if (dev_init_rd_atom > 0 && (uint32_t)dev_init_rd_atom < limit)
		limit = (uint32_t)dev_init_rd_atom;
	if (limit > 255) /* the verbs attribute is 8 bits */
		limit = 255;
	return want < limit ? want : limit;
}

uint32_t gdr_init_depth(uint32_t own, uint32_t peer_resp)
{
	return peer_resp && peer_resp < own ? peer_resp : own;
}

const char *gdr_dev_refusal(const struct ibv_device_attr *da, const struct gdr_opts *o)
{
	const struct gdr_verb_def *d = gdr_verb_def(o->verb);

	if (d && d->needs_atomic_cap && da->atomic_cap == IBV_ATOMIC_NONE)
		return "it has no RDMA atomic operations (atomic_cap IBV_ATOMIC_NONE in "
		       "'ibv_devinfo -v'); atomic tests need a device that has them";
	return NULL;
}

double gdr_qp_timeout_s(uint32_t exp)
{
	if (exp == 0 || exp > 31)
		return 0;
	return 4.096e-6 * (double)(1ULL << exp);
}

void gdr_qp_attrs_desc(const struct gdr_opts *o, uint32_t outs, char *desc, size_t n)
{
	double t = gdr_qp_timeout_s(o->qp_timeout);
	char tmo[48];
	int k;

	if (t == 0)
		snprintf(tmo, sizeof(tmo), "%u (none)", o->qp_timeout);
	else if (t < 1)
		snprintf(tmo, sizeof(tmo), "%u (%.3g ms)", o->qp_timeout, t * 1e3);
	else
		snprintf(tmo, sizeof(tmo), "%u (%.3g s)", o->qp_timeout, t);
	k = snprintf(desc, n,
		     "traffic class %u, SL %u, QP timeout %s, %u outstanding reads/atomics",
		     o->tclass, o->sl, tmo, outs);
	if (o->source_ip && k >= 0 && (size_t)k < n)
		snprintf(desc + k, n - (size_t)k, ", source %s", o->source_ip);
}
