/* SPDX-License-Identifier: MIT */
/*
 * Exchange message codec. Every field is written and read one at a time in
 * little-endian order; each type has one fixed payload layout whose length
 * is checked exactly, and every field is range-checked on both encode and
 * decode, so a message that decodes is one this version could have sent.
 *
 * Payload layouts (offsets in bytes):
 *   HELLO   verb u8, kind u8, flags u32, num_qps u32, tx_depth u32,
 *           rx_depth u32, cq_mod u32, inline_size u32, mtu u32, iters u64,
 *           warmup u64, duration f64, host[64], nsizes u32,
 *           sizes u64 x nsizes, stage_chunk u64, token[32], repeat u32,
 *           xport[16] (the transport's name: 1..15 of a-z 0-9 _)
 *                                                    (182 + 8 * nsizes)
 *   ACCEPT  empty
 *   REJECT  reason[256], NUL-terminated, zero padded
 *   QPINFO  nqp u32, key u64, addr u64, len u64, mtu u32, rd_atomic u32
 *           (1..255), host[64], mem_kind[16], then nqp x (alen u16 (1..128),
 *           blob[128]: alen bytes of the endpoint's address, then zeros)
 *                                                    (116 + 130 * nqp)
 *   SYNC    step u32, value u64
 *   RESULT  status u32, bytes u64, iters u64, duration_s f64, bw_peak f64,
 *           bw_avg f64, msg_rate f64, note[128]
 *   BYE     empty
 * Strings travel as their whole fixed field: the text, a NUL, zeros.
 */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include "opts.h"
#include "verb_def.h"
#include "xchg.h"

#define HELLO_FIXED    251u /* 182 + the KV shape's 69 */
#define HELLO_PER_SIZE 8u
#define QPINFO_FIXED   116u
#define QPINFO_PER_QP  (2u + GDR_WIRE_ADDR_MAX)
#define SYNC_LEN       12u
#define RESULT_LEN     180u
#define REJECT_LEN     256u

/* Smallest payload of a type, and how much each repeated entry adds. */
struct layout {
	uint32_t fixed, per_entry, max_entries;
};

static bool layout_of(uint16_t type, struct layout *l)
{
	switch (type) {
	case GDR_MSG_HELLO:
		*l = (struct layout){HELLO_FIXED, HELLO_PER_SIZE, GDR_MAX_SIZES};
		return true;
	case GDR_MSG_ACCEPT:
	case GDR_MSG_BYE:
		*l = (struct layout){0, 0, 0};
		return true;
	case GDR_MSG_REJECT:
		*l = (struct layout){REJECT_LEN, 0, 0};
		return true;
	case GDR_MSG_QPINFO:
		*l = (struct layout){QPINFO_FIXED, QPINFO_PER_QP, GDR_MAX_QPS};
		return true;
	case GDR_MSG_SYNC:
		*l = (struct layout){SYNC_LEN, 0, 0};
		return true;
	case GDR_MSG_RESULT:
		*l = (struct layout){RESULT_LEN, 0, 0};
		return true;
	}
	return false;
}

/* ---- writer: the caller has checked the room beforehand ---- */

struct wr {
	uint8_t *p;
	size_t off;
};

static void put_u8(struct wr *w, uint8_t v)
{
	w->p[w->off++] = v;
}

static void put_u16(struct wr *w, uint16_t v)
{
	put_u8(w, (uint8_t)v);
	put_u8(w, (uint8_t)(v >> 8));
}

static void put_u32(struct wr *w, uint32_t v)
{
	put_u16(w, (uint16_t)v);
	put_u16(w, (uint16_t)(v >> 16));
}

static void put_u64(struct wr *w, uint64_t v)
{
	put_u32(w, (uint32_t)v);
	put_u32(w, (uint32_t)(v >> 32));
}

static void put_double(struct wr *w, double d)
{
	uint64_t bits;

	memcpy(&bits, &d, sizeof(bits));
	put_u64(w, bits);
}

static void put_bytes(struct wr *w, const void *src, size_t n)
{
	memcpy(w->p + w->off, src, n);
	w->off += n;
}

/* The text up to its NUL, then zeros to the end of the field. */
static void put_str(struct wr *w, const char *s, size_t field)
{
	size_t n = strnlen(s, field);

	put_bytes(w, s, n);
	memset(w->p + w->off, 0, field - n);
	w->off += field - n;
}

/* ---- reader: bounds-checked even though lengths were checked first ---- */

struct rd {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

static bool take(struct rd *r, size_t n)
{
	if (r->bad || n > r->len - r->off) {
		r->bad = true;
		return false;
	}
	r->off += n;
	return true;
}

static uint8_t get_u8(struct rd *r)
{
	return take(r, 1) ? r->p[r->off - 1] : 0;
}

static uint16_t get_u16(struct rd *r)
{
	uint16_t lo = get_u8(r);

	return (uint16_t)(lo | (uint16_t)get_u8(r) << 8);
}

static uint32_t get_u32(struct rd *r)
{
	uint32_t lo = get_u16(r);

	return lo | (uint32_t)get_u16(r) << 16;
}

static uint64_t get_u64(struct rd *r)
{
	uint64_t lo = get_u32(r);

	return lo | (uint64_t)get_u32(r) << 32;
}

static double get_double(struct rd *r)
{
	uint64_t bits = get_u64(r);
	double d;

	memcpy(&d, &bits, sizeof(d));
	return d;
}

static void get_bytes(struct rd *r, void *dst, size_t n)
{
	if (take(r, n))
		memcpy(dst, r->p + r->off - n, n);
}

/* A string field must hold its NUL; what follows the NUL is dropped. */
static bool get_str(struct rd *r, char *dst, size_t field)
{
	size_t n;

	if (!take(r, field))
		return false;
	n = strnlen((const char *)r->p + r->off - field, field);
	if (n == field)
		return false;
	memcpy(dst, r->p + r->off - field, n);
	memset(dst + n, 0, field - n);
	return true;
}

/* ---- field validation, shared by encode and decode ---- */

static bool str_ok(const char *s, size_t field)
{
	return strnlen(s, field) < field;
}

static bool nonneg_finite(double d)
{
	return isfinite(d) && d >= 0.0;
}

static bool mtu_ok(uint32_t mtu)
{
	return mtu == 0 || mtu == 256 || mtu == 512 || mtu == 1024 || mtu == 2048 || mtu == 4096;
}

/*
 * The KV shape: none (all zero), or batches in 1..GDR_KV_MAX_BATCH, the sizes a whole number
 * of blocks x batches (at most GDR_KV_MAX_LIST blocks), every batch of blocks within 1 GiB and
 * the pool, a placement there is.
 */
static bool kv_ok(const struct gdr_hello *h)
{
	const struct gdr_hello_kv *k = &h->kv;
	uint32_t i, j;

	if (!k->nbatch) {
		for (i = 0; i < GDR_KV_MAX_LIST; i++)
			if (k->batch[i])
				return false;
		return !k->pool && !k->place && !k->stride && !k->seed && !k->regions && !k->sge;
	}
	if (k->nbatch > GDR_KV_MAX_LIST || h->nsizes % k->nbatch ||
	    h->nsizes / k->nbatch > GDR_KV_MAX_LIST)
		return false;
	if (k->place >= GDR_KV_NPLACE || k->stride < 1 || k->pool > GDR_KV_MAX_POOL)
		return false;
	if (k->regions < 1 || k->regions > GDR_KV_MAX_REGIONS)
		return false;
	if (k->sge < 1 || k->sge > GDR_KV_MAX_SGE)
		return false;
	for (i = 0; i < k->nbatch; i++) /* a batch is whole work requests of sge blocks */
		if (k->batch[i] % k->sge)
			return false;
	for (i = 0; i < GDR_KV_MAX_LIST; i++)
		if (i < k->nbatch ? k->batch[i] < 1 || k->batch[i] > GDR_KV_MAX_BATCH : k->batch[i])
			return false;
	for (i = 0; i < h->nsizes; i++)
		for (j = 0; j < k->nbatch; j++)
			if (h->sizes[i] * k->batch[j] > GDR_MAX_MSG_SIZE ||
			    h->sizes[i] * k->batch[j] > k->pool)
				return false;
	for (i = 0; i < h->nsizes; i++) /* each region a whole number of every block's slots */
		if ((k->pool / h->sizes[i]) % k->regions ||
		    (k->pool / h->sizes[i] / k->regions) % k->sge) /* a run in one region */
			return false;
	return true;
}

static bool hello_ok(const struct gdr_hello *h)
{
	uint32_t i;

	if (h->verb >= GDR_NVERBS || h->kind >= GDR_NKINDS || (h->flags & ~GDR_HF_ALL))
		return false;
	if (h->num_qps < 1 || h->num_qps > GDR_MAX_QPS)
		return false;
	if (h->tx_depth < 1 || h->rx_depth < 1 || h->cq_mod < 1 || !mtu_ok(h->mtu))
		return false;
	if (!nonneg_finite(h->duration) || !str_ok(h->host, sizeof(h->host)) ||
	    !str_ok(h->token, sizeof(h->token)))
		return false;
	/* only what --run_token takes: the server prints a token it refuses */
	if (strspn(h->token, GDR_RUN_TOKEN_CHARS) != strlen(h->token))
		return false;
	if (h->nsizes < 1 || h->nsizes > GDR_MAX_SIZES)
		return false;
	if (h->repeat < 1 || h->repeat > GDR_MAX_REPEAT)
		return false;
	if (!str_ok(h->xport, sizeof(h->xport)) || !h->xport[0] ||
	    strspn(h->xport, GDR_XPORT_NAME_CHARS) != strlen(h->xport))
		return false;
	if (h->stage_chunk && (h->stage_chunk < 4096 || h->stage_chunk > GDR_MAX_MSG_SIZE))
		return false; /* 0: the default */
	for (i = 0; i < h->nsizes; i++)
		if (h->sizes[i] < 1 || h->sizes[i] > GDR_MAX_MSG_SIZE)
			return false;
	return kv_ok(h);
}

static bool qpinfo_ok(const struct gdr_qpinfo *q)
{
	uint32_t i;

	if (q->nqp < 1 || q->nqp > GDR_MAX_QPS || !mtu_ok(q->mtu))
		return false;
	if (q->rd_atomic < 1 || q->rd_atomic > 255) /* an 8-bit QP attribute, at least 1 */
		return false;
	if (!str_ok(q->host, sizeof(q->host)) || !str_ok(q->mem_kind, sizeof(q->mem_kind)))
		return false;
	for (i = 0; i < q->nqp; i++) { /* what the transport reads is checked by it */
		const struct gdr_wire_addr *a = &q->ep[i];

		if (a->len < 1 || a->len > GDR_WIRE_ADDR_MAX)
			return false;
		for (size_t k = a->len; k < sizeof(a->b); k++)
			if (a->b[k]) /* zeros after the address: one encoding per message */
				return false;
	}
	return true;
}

static bool result_ok(const struct gdr_result_wire *r)
{
	return nonneg_finite(r->duration_s) && nonneg_finite(r->bw_peak_Bps) &&
	       nonneg_finite(r->bw_avg_Bps) && nonneg_finite(r->msg_rate_pps) &&
	       str_ok(r->note, sizeof(r->note));
}

static bool msg_ok(const struct gdr_msg *m)
{
	switch (m->type) {
	case GDR_MSG_HELLO:
		return hello_ok(&m->u.hello);
	case GDR_MSG_QPINFO:
		return qpinfo_ok(&m->u.qpinfo);
	case GDR_MSG_RESULT:
		return result_ok(&m->u.result);
	case GDR_MSG_REJECT:
		return str_ok(m->u.reason, sizeof(m->u.reason));
	default:
		return true;
	}
}

/* ---- encode ---- */

static size_t payload_len(const struct gdr_msg *m)
{
	struct layout l;
	uint32_t n = 0;

	layout_of(m->type, &l);
	if (m->type == GDR_MSG_HELLO)
		n = m->u.hello.nsizes;
	else if (m->type == GDR_MSG_QPINFO)
		n = m->u.qpinfo.nqp;
	return (size_t)l.fixed + (size_t)l.per_entry * n;
}

static void put_hello(struct wr *w, const struct gdr_hello *h)
{
	uint32_t i;

	put_u8(w, h->verb);
	put_u8(w, h->kind);
	put_u32(w, h->flags);
	put_u32(w, h->num_qps);
	put_u32(w, h->tx_depth);
	put_u32(w, h->rx_depth);
	put_u32(w, h->cq_mod);
	put_u32(w, h->inline_size);
	put_u32(w, h->mtu);
	put_u64(w, h->iters);
	put_u64(w, h->warmup);
	put_double(w, h->duration);
	put_str(w, h->host, sizeof(h->host));
	put_u32(w, h->nsizes);
	for (i = 0; i < h->nsizes; i++)
		put_u64(w, h->sizes[i]);
	put_u64(w, h->stage_chunk);
	put_str(w, h->token, sizeof(h->token));
	put_u32(w, h->repeat);
	put_str(w, h->xport, sizeof(h->xport));
	put_u32(w, h->kv.nbatch);
	for (i = 0; i < GDR_KV_MAX_LIST; i++)
		put_u32(w, h->kv.batch[i]);
	put_u64(w, h->kv.pool);
	put_u8(w, h->kv.place);
	put_u64(w, h->kv.stride);
	put_u64(w, h->kv.seed);
	put_u32(w, h->kv.regions);
	put_u32(w, h->kv.sge);
}

static void put_qpinfo(struct wr *w, const struct gdr_qpinfo *q)
{
	uint32_t i;

	put_u32(w, q->nqp);
	put_u64(w, q->key);
	put_u64(w, q->addr);
	put_u64(w, q->len);
	put_u32(w, q->mtu);
	put_u32(w, q->rd_atomic);
	put_str(w, q->host, sizeof(q->host));
	put_str(w, q->mem_kind, sizeof(q->mem_kind));
	for (i = 0; i < q->nqp; i++) {
		put_u16(w, q->ep[i].len);
		put_bytes(w, q->ep[i].b, sizeof(q->ep[i].b)); /* zeros after len: qpinfo_ok */
	}
}

static void put_result(struct wr *w, const struct gdr_result_wire *r)
{
	put_u32(w, r->status);
	put_u64(w, r->bytes);
	put_u64(w, r->iters);
	put_double(w, r->duration_s);
	put_double(w, r->bw_peak_Bps);
	put_double(w, r->bw_avg_Bps);
	put_double(w, r->msg_rate_pps);
	put_str(w, r->note, sizeof(r->note));
}

size_t gdr_msg_encode(const struct gdr_msg *m, uint8_t *buf, size_t cap)
{
	struct layout l;
	struct wr w = {buf, 0};
	size_t plen;

	if (!m || !buf || !layout_of(m->type, &l) || !msg_ok(m))
		return 0;
	plen = payload_len(m);
	if (plen > GDR_MAX_PAYLOAD || cap < GDR_FRAME_HDR + plen)
		return 0;
	put_u32(&w, GDR_PROTO_MAGIC);
	put_u16(&w, GDR_PROTO_VERSION);
	put_u16(&w, m->type);
	put_u32(&w, (uint32_t)plen);
	switch (m->type) {
	case GDR_MSG_HELLO:
		put_hello(&w, &m->u.hello);
		break;
	case GDR_MSG_REJECT:
		put_str(&w, m->u.reason, sizeof(m->u.reason));
		break;
	case GDR_MSG_QPINFO:
		put_qpinfo(&w, &m->u.qpinfo);
		break;
	case GDR_MSG_SYNC:
		put_u32(&w, m->u.sync.step);
		put_u64(&w, m->u.sync.value);
		break;
	case GDR_MSG_RESULT:
		put_result(&w, &m->u.result);
		break;
	default: /* ACCEPT, BYE: no payload */
		break;
	}
	return w.off;
}

/* ---- decode ---- */

int gdr_frame_header(const uint8_t *buf, size_t len, uint16_t *type, uint16_t *version)
{
	struct rd r = {buf, len, 0, false};
	struct layout l;
	uint32_t magic, plen;
	uint16_t v, t;

	if (!buf || len < GDR_FRAME_HDR)
		return GDR_EMSG_SHORT;
	magic = get_u32(&r);
	v = get_u16(&r);
	t = get_u16(&r);
	plen = get_u32(&r);
	if (magic != GDR_PROTO_MAGIC)
		return GDR_EMSG_MAGIC;
	if (version)
		*version = v;
	if (type)
		*type = t;
	if (v != GDR_PROTO_VERSION)
		return GDR_EMSG_VERSION;
	if (!layout_of(t, &l))
		return GDR_EMSG_TYPE;
	if (plen > GDR_MAX_PAYLOAD || plen < l.fixed)
		return GDR_EMSG_LENGTH;
	if (l.per_entry == 0 ? plen != l.fixed
			     : ((plen - l.fixed) % l.per_entry || plen == l.fixed ||
				(plen - l.fixed) / l.per_entry > l.max_entries))
		return GDR_EMSG_LENGTH; /* HELLO and QPINFO hold 1..max entries */
	return (int)plen;
}

static int get_hello(struct rd *r, struct gdr_hello *h)
{
	uint32_t i;

	h->verb = get_u8(r);
	h->kind = get_u8(r);
	h->flags = get_u32(r);
	h->num_qps = get_u32(r);
	h->tx_depth = get_u32(r);
	h->rx_depth = get_u32(r);
	h->cq_mod = get_u32(r);
	h->inline_size = get_u32(r);
	h->mtu = get_u32(r);
	h->iters = get_u64(r);
	h->warmup = get_u64(r);
	h->duration = get_double(r);
	if (!get_str(r, h->host, sizeof(h->host)))
		return GDR_EMSG_FIELD;
	h->nsizes = get_u32(r);
	if (h->nsizes < 1 || h->nsizes > GDR_MAX_SIZES)
		return GDR_EMSG_FIELD;
	if (r->len != HELLO_FIXED + (size_t)HELLO_PER_SIZE * h->nsizes)
		return GDR_EMSG_LENGTH;
	for (i = 0; i < h->nsizes; i++)
		h->sizes[i] = get_u64(r);
	h->stage_chunk = get_u64(r);
	if (!get_str(r, h->token, sizeof(h->token)))
		return GDR_EMSG_FIELD;
	h->repeat = get_u32(r);
	if (!get_str(r, h->xport, sizeof(h->xport)))
		return GDR_EMSG_FIELD;
	h->kv.nbatch = get_u32(r);
	for (i = 0; i < GDR_KV_MAX_LIST; i++)
		h->kv.batch[i] = get_u32(r);
	h->kv.pool = get_u64(r);
	h->kv.place = get_u8(r);
	h->kv.stride = get_u64(r);
	h->kv.seed = get_u64(r);
	h->kv.regions = get_u32(r);
	h->kv.sge = get_u32(r);
	return hello_ok(h) ? 0 : GDR_EMSG_FIELD;
}

static int get_qpinfo(struct rd *r, struct gdr_qpinfo *q)
{
	uint32_t i;

	q->nqp = get_u32(r);
	if (q->nqp < 1 || q->nqp > GDR_MAX_QPS)
		return GDR_EMSG_FIELD;
	if (r->len != QPINFO_FIXED + (size_t)QPINFO_PER_QP * q->nqp)
		return GDR_EMSG_LENGTH;
	q->key = get_u64(r);
	q->addr = get_u64(r);
	q->len = get_u64(r);
	q->mtu = get_u32(r);
	q->rd_atomic = get_u32(r);
	if (!get_str(r, q->host, sizeof(q->host)) || !get_str(r, q->mem_kind, sizeof(q->mem_kind)))
		return GDR_EMSG_FIELD;
	for (i = 0; i < q->nqp; i++) {
		q->ep[i].len = get_u16(r);
		get_bytes(r, q->ep[i].b, sizeof(q->ep[i].b));
	}
	return qpinfo_ok(q) ? 0 : GDR_EMSG_FIELD;
}

static int get_result(struct rd *r, struct gdr_result_wire *res)
{
	res->status = get_u32(r);
	res->bytes = get_u64(r);
	res->iters = get_u64(r);
	res->duration_s = get_double(r);
	res->bw_peak_Bps = get_double(r);
	res->bw_avg_Bps = get_double(r);
	res->msg_rate_pps = get_double(r);
	if (!get_str(r, res->note, sizeof(res->note)))
		return GDR_EMSG_FIELD;
	return result_ok(res) ? 0 : GDR_EMSG_FIELD;
}

int gdr_msg_decode(const uint8_t *buf, size_t len, struct gdr_msg *m)
{
	uint16_t type = 0;
	int plen, rc = 0;
	struct rd r;

	plen = gdr_frame_header(buf, len, &type, NULL);
	if (plen < 0)
		return plen;
	if (len < GDR_FRAME_HDR + (size_t)plen)
		return GDR_EMSG_SHORT;
	if (len > GDR_FRAME_HDR + (size_t)plen)
		return GDR_EMSG_LENGTH; /* one whole frame, nothing after it */
	if (!m)
		return GDR_EMSG_FIELD;
	memset(m, 0, sizeof(*m));
	m->type = type;
	r = (struct rd){buf + GDR_FRAME_HDR, (size_t)plen, 0, false};
	switch (type) {
	case GDR_MSG_HELLO:
		rc = get_hello(&r, &m->u.hello);
		break;
	case GDR_MSG_REJECT:
		if (!get_str(&r, m->u.reason, sizeof(m->u.reason)))
			rc = GDR_EMSG_FIELD;
		break;
	case GDR_MSG_QPINFO:
		rc = get_qpinfo(&r, &m->u.qpinfo);
		break;
	case GDR_MSG_SYNC:
		m->u.sync.step = get_u32(&r);
		m->u.sync.value = get_u64(&r);
		break;
	case GDR_MSG_RESULT:
		rc = get_result(&r, &m->u.result);
		break;
	default:
		break;
	}
	if (rc == 0 && (r.bad || r.off != r.len))
		rc = GDR_EMSG_LENGTH;
	return rc;
}

const char *gdr_msg_strerror(int err)
{
	switch (err) {
	case 0:
		return "no error";
	case GDR_EMSG_SHORT:
		return "message truncated";
	case GDR_EMSG_MAGIC:
		return "not a gdrperf message";
	case GDR_EMSG_VERSION:
		return "other protocol version";
	case GDR_EMSG_TYPE:
		return "unknown message type";
	case GDR_EMSG_LENGTH:
		return "wrong length for its type";
	case GDR_EMSG_FIELD:
		return "field out of range";
	}
	return "unknown error";
}

const char *gdr_msg_type_name(uint16_t type)
{
	static const char *const names[] = {
	    [GDR_MSG_HELLO] = "HELLO",	 [GDR_MSG_ACCEPT] = "ACCEPT", [GDR_MSG_REJECT] = "REJECT",
	    [GDR_MSG_QPINFO] = "QPINFO", [GDR_MSG_SYNC] = "SYNC",     [GDR_MSG_RESULT] = "RESULT",
	    [GDR_MSG_BYE] = "BYE",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "unknown";
}
