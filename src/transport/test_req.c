/* SPDX-License-Identifier: MIT */
/* The negotiated test (test_req.h): from options, to and from a HELLO, onto a run's options. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "test_req.h"

int gdr_test_req_of(struct gdr_test_req *r, const struct gdr_opts *o)
{
	uint64_t *sizes;
	size_t n;

	*r = (struct gdr_test_req){
	    .verb = o->verb,
	    .kind = o->kind,
	    .conn = o->conn,
	    .atomic_op = o->atomic_op,
	    .bidir = o->bidir,
	    .validate = o->validate,
	    .staged = o->staged,
	    .compare = o->compare,
	    .use_imm = o->use_imm,
	    .rdma_cm = o->rdma_cm,
	    .report_gbits = o->report_gbits,
	    .run_infinitely = o->run_infinitely,
	    .atomic_contention = o->atomic_contention,
	    .inline_set = gdr_opts_is_set(o, &o->inline_size),
	    .num_qps = o->num_qps,
	    .tx_depth = o->tx_depth,
	    .rx_depth = o->rx_depth,
	    .cq_mod = o->cq_mod,
	    .inline_size = o->inline_size,
	    .mtu = o->mtu,
	    .iters = o->iters,
	    .warmup = o->warmup,
	    .stage_chunk = o->stage_chunk,
	    .duration = o->duration,
	    .repeat = o->compare && o->repeat ? o->repeat : 1,
	};
	snprintf(r->token, sizeof(r->token), "%s", o->run_token ? o->run_token : "");
	snprintf(r->xport, sizeof(r->xport), "%s", o->transport ? o->transport : GDR_XPORT_DEFAULT);
	if (o->kv_nblocks) {
		r->kv = (struct gdr_hello_kv){.nbatch = o->kv_nbatch,
					      .pool = o->kv_pool,
					      .place = (uint8_t)o->kv_place.kind,
					      .stride = o->kv_place.stride,
					      .seed = o->kv_place.seed,
					      .regions = o->kv_regions ? o->kv_regions : 1,
					      .sge = o->kv_sge ? o->kv_sge : 1};
		memcpy(r->kv.batch, o->kv_batch, o->kv_nbatch * sizeof(*o->kv_batch));
	}
	if (gdr_opts_sizes(o, &sizes, &n))
		return -1;
	r->nsizes = n < GDR_MAX_SIZES ? n : GDR_MAX_SIZES;
	memcpy(r->sizes, sizes, r->nsizes * sizeof(*sizes));
	free(sizes);
	return 0;
}

void gdr_test_req_to_hello(const struct gdr_test_req *r, struct gdr_hello *h)
{
	*h = (struct gdr_hello){
	    .verb = (uint8_t)r->verb,
	    .kind = (uint8_t)r->kind,
	    .flags = (r->bidir ? GDR_HF_BIDIR : 0) | (r->validate ? GDR_HF_VALIDATE : 0) |
		     (r->staged ? GDR_HF_STAGED : 0) | (r->compare ? GDR_HF_COMPARE : 0) |
		     (r->use_imm ? GDR_HF_USE_IMM : 0) | (r->rdma_cm ? GDR_HF_RDMA_CM : 0) |
		     (r->inline_set ? GDR_HF_INLINE_SET : 0) |
		     (r->report_gbits ? GDR_HF_GBITS : 0) |
		     (r->run_infinitely ? GDR_HF_INFINITE : 0) |
		     (r->conn == GDR_CONN_UC ? GDR_HF_UC : 0) |
		     (r->conn == GDR_CONN_UD ? GDR_HF_UD : 0) |
		     (r->atomic_op == GDR_ATOMIC_CAS ? GDR_HF_CAS : 0) |
		     (r->atomic_contention ? GDR_HF_CONTEND : 0) | (r->client_gpu ? GDR_HF_GPU : 0),
	    .num_qps = r->num_qps,
	    .tx_depth = r->tx_depth,
	    .rx_depth = r->rx_depth,
	    .cq_mod = r->cq_mod,
	    .inline_size = r->inline_size,
	    .mtu = r->mtu,
	    .iters = r->iters,
	    .warmup = r->warmup,
	    .stage_chunk = r->stage_chunk,
	    .duration = r->duration,
	    .repeat = r->repeat ? r->repeat : 1,
	    .nsizes = (uint32_t)r->nsizes,
	};
	memcpy(h->sizes, r->sizes, r->nsizes * sizeof(*h->sizes));
	h->kv = r->kv;
	snprintf(h->host, sizeof(h->host), "%s", r->host);
	snprintf(h->token, sizeof(h->token), "%s", r->token);
	snprintf(h->xport, sizeof(h->xport), "%s", r->xport);
}

void gdr_test_req_from_hello(struct gdr_test_req *r, const struct gdr_hello *h)
{
	uint32_t f = h->flags;

	*r = (struct gdr_test_req){
	    .verb = (enum gdr_verb)h->verb,
	    .kind = (enum gdr_kind)h->kind,
	    .conn = f & GDR_HF_UD   ? GDR_CONN_UD
		    : f & GDR_HF_UC ? GDR_CONN_UC
				    : GDR_CONN_RC,
	    .atomic_op = f & GDR_HF_CAS ? GDR_ATOMIC_CAS : GDR_ATOMIC_FAA,
	    .bidir = f & GDR_HF_BIDIR,
	    .validate = f & GDR_HF_VALIDATE,
	    .staged = f & GDR_HF_STAGED,
	    .compare = f & GDR_HF_COMPARE,
	    .use_imm = f & GDR_HF_USE_IMM,
	    .rdma_cm = f & GDR_HF_RDMA_CM,
	    .report_gbits = f & GDR_HF_GBITS,
	    .run_infinitely = f & GDR_HF_INFINITE,
	    .atomic_contention = f & GDR_HF_CONTEND,
	    .inline_set = f & GDR_HF_INLINE_SET,
	    .client_gpu = f & GDR_HF_GPU,
	    .num_qps = h->num_qps,
	    .tx_depth = h->tx_depth,
	    .rx_depth = h->rx_depth,
	    .cq_mod = h->cq_mod,
	    .inline_size = h->inline_size,
	    .mtu = h->mtu,
	    .iters = h->iters,
	    .warmup = h->warmup,
	    .stage_chunk = h->stage_chunk,
	    .duration = h->duration,
	    .repeat = h->repeat,
	    .nsizes = h->nsizes < GDR_MAX_SIZES ? h->nsizes : GDR_MAX_SIZES,
	};
	memcpy(r->sizes, h->sizes, r->nsizes * sizeof(*r->sizes));
	r->kv = h->kv;
	snprintf(r->host, sizeof(r->host), "%s", h->host);
	snprintf(r->token, sizeof(r->token), "%s", h->token);
	snprintf(r->xport, sizeof(r->xport), "%s", h->xport);
}

void gdr_test_req_apply(const struct gdr_test_req *r, struct gdr_opts *o)
{
	o->verb = r->verb;
	o->kind = r->kind;
	o->bidir = r->bidir;
	o->validate = r->validate;
	o->staged = r->staged;
	o->compare = r->compare;
	o->use_imm = r->use_imm;
	o->rdma_cm = r->rdma_cm;
	o->report_gbits = r->report_gbits;
	o->run_infinitely = r->run_infinitely;
	o->conn = r->conn;
	o->atomic_op = r->atomic_op;
	o->atomic_contention = r->atomic_contention;
	o->num_qps = r->num_qps;
	o->tx_depth = r->tx_depth;
	o->rx_depth = r->rx_depth;
	o->cq_mod = r->cq_mod;
	o->inline_size = r->inline_size;
	if (r->mtu && (!o->mtu || r->mtu < o->mtu)) /* the smaller of the two sides' -m */
		o->mtu = r->mtu;
	o->iters = r->iters;
	o->warmup = r->warmup;
	o->stage_chunk = r->stage_chunk;
	o->duration = r->duration;
	o->repeat = r->repeat;
	/* a KV run: cell i is block sizes[i] x batch kv.batch[i % nbatch] (opts.h) */
	o->kv_nbatch = r->kv.nbatch;
	memcpy(o->kv_batch, r->kv.batch, sizeof(o->kv_batch));
	o->kv_nblocks = r->kv.nbatch ? (uint32_t)(r->nsizes / r->kv.nbatch) : 0;
	for (uint32_t i = 0; i < o->kv_nblocks && i < GDR_KV_MAX_LIST; i++)
		o->kv_blocks[i] = r->sizes[(size_t)i * r->kv.nbatch];
	o->kv_pool = r->kv.pool;
	o->kv_place = (struct gdr_kv_place){.kind = (enum gdr_kv_place_kind)r->kv.place,
					    .stride = r->kv.stride,
					    .seed = r->kv.seed};
	o->kv_regions = r->kv.nbatch ? r->kv.regions : 1;
	o->kv_sge = r->kv.nbatch ? r->kv.sge : 1;
}
