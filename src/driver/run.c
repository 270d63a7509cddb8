/* SPDX-License-Identifier: MIT */
/* The driver every test binary shares: a binary only names its default test. */
#include "config.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "affinity.h"
#include "bw.h"
#include "compare.h"
#include "stage_plan.h"
#include "staged.h"
#include "clock.h"
#include "ctx.h"
#include "lat.h"
#include "log.h"
#include "run.h"

static int ms(double s)
{
	return s < 0 ? -1 : (int)(s * 1000);
}

/* Combinations the tests do not have. */
static int check_combination(const struct gdr_opts *o)
{
	if ((o->staged || o->compare) && o->kind == GDR_KIND_BW && o->verb == GDR_VERB_SEND &&
	    o->rx_depth < 2) {
		gdr_err("-r %u: the staged send path needs -r 2 or more", o->rx_depth);
		return -1;
	}
	if (o->kind != GDR_KIND_LAT)
		return 0;
	if (o->num_qps > 1) {
		gdr_err("-q %u: latency tests run on one QP", o->num_qps);
		return -1;
	}
	if (o->bidir) {
		gdr_err("-b: latency tests are ping-pong already; -b is for bandwidth tests");
		return -1;
	}
	return 0;
}

/* Buffer geometry: [tx region][rx region], each large enough for every size. */
static void size_buffers(struct gdr_ctx *c)
{
	size_t region = 4096, maxsz = 1;

	for (size_t i = 0; i < c->nsizes; i++) {
		size_t need = c->sizes[i] * gdr_direct_slots(c->sizes[i], c->o->tx_depth,
							     c->o->kind == GDR_KIND_LAT);
		struct gdr_stage_plan p;

		if (c->o->staged || c->o->compare) {
			gdr_staged_plan(c, c->sizes[i], &p);
			if (gdr_stage_ring_bytes(&p) > need)
				need = gdr_stage_ring_bytes(&p);
			if (gdr_stage_data_bytes(&p) > need)
				need = gdr_stage_data_bytes(&p);
		}

		if (need > region)
			region = need;
		if (c->sizes[i] > maxsz)
			maxsz = c->sizes[i];
	}
	c->region_len = (region + 4095) & ~(size_t)4095;
	c->recv_len = maxsz;
}

/* Which sides keep receives posted. */
static bool needs_recvs(const struct gdr_ctx *c)
{
	const struct gdr_opts *o = c->o;

	if (o->kind == GDR_KIND_LAT)
		return o->verb == GDR_VERB_SEND || (o->verb == GDR_VERB_WRITE && !gdr_lat_polls_byte(c));
	return o->verb == GDR_VERB_SEND && (o->bidir || c->is_server);
}

/*
 * Direct (or host) and/or staged paths, as --staged/--compare ask. --compare
 * with GPU memory on the client runs host memory first: the wire reference.
 */
static void plan_paths(struct gdr_ctx *c)
{
	bool gpu = strcmp(c->data.ops->kind, "host");

	c->npaths = 0;
	if (c->o->compare && c->client_gpu)
		c->path[c->npaths++] = (struct gdr_path){
			.name = "host",
			.mem = &c->hostmem,
		};
	if (!c->o->staged || c->o->compare)
		c->path[c->npaths++] = (struct gdr_path){
			.name = gpu ? "direct" : "host",
			.mem = &c->data,
		};
	if (c->o->staged || c->o->compare)
		c->path[c->npaths++] = (struct gdr_path){
			.name = "staged",
			.staged = true,
			.mem = &c->bounce,
		};
}

static int connect_path(struct gdr_ctx *c, struct gdr_path *p)
{
	c->p = p;
	if (gdr_mr_register(c))
		return -1;
	if (!c->o->rdma_cm && gdr_qps_create(c))
		return -1;
	if (gdr_session_qpinfo(c))
		return -1;
	if (!c->o->rdma_cm && gdr_qps_connect(c))
		return -1;
	if (p->staged)
		return gdr_staged_prepost(c);
	if (needs_recvs(c))
		for (uint32_t q = 0; q < c->nqp; q++)
			if (gdr_post_recvs(c, q, (int)c->o->rx_depth, c->recv_len))
				return -1;
	return 0;
}

static int connect_qps(struct gdr_ctx *c)
{
	struct gdr_opts *o = c->o;

	if (!c->data.ops && gdr_mem_init(&c->data, o, c->dev_name[0] ? c->dev_name : NULL))
		return -1;
	plan_paths(c);
	if (o->rdma_cm && (c->is_server ? gdr_cm_server(c) : gdr_cm_client(c)))
		return -1;
	if (c->data.ops->alloc(&c->data, 2 * c->region_len))
		return -1;
	if (c->path[0].mem == &c->hostmem) {
		c->hostmem.ops = &gdr_mem_host_ops;
		snprintf(c->hostmem.desc, sizeof(c->hostmem.desc), "host memory");
		if (c->hostmem.ops->alloc(&c->hostmem, 2 * c->region_len))
			return -1;
	}
	if ((o->staged || o->compare) &&
	    gdr_mem_bounce_init(&c->bounce, &c->data, 2 * c->region_len + GDR_CTRL_LEN))
		return -1;
	if (!o->rdma_cm && gdr_cqs_create(c))
		return -1;
	for (uint32_t k = 0; k < c->npaths; k++)
		if (connect_path(c, &c->path[k]))
			return -1;
	return 0;
}

static void fill_run_info(struct gdr_ctx *c, const struct gdr_test *t)
{
	struct gdr_run_info *ri = &c->ri;
	const struct gdr_opts *o = c->o;
	time_t now = time(NULL);

	snprintf(c->test_name, sizeof(c->test_name), "%s_%s", gdr_verb_name(o->verb),
		 gdr_kind_name(o->kind));
	ri->tool_version = PACKAGE_VERSION;
	strftime(ri->timestamp, sizeof(ri->timestamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	ri->test = c->test_name;
	ri->verb = o->verb;
	ri->kind = o->kind;
	ri->role = c->is_server ? "server" : "client";
	gdr_hostname(ri->local_host, sizeof(ri->local_host));
	snprintf(ri->rdma_dev, sizeof(ri->rdma_dev), "%s", c->dev_name);
	ri->ib_port = c->port;
	snprintf(ri->link_layer, sizeof(ri->link_layer), "%s",
		 gdr_link_layer_name(c->pattr.link_layer));
	ri->gid_index = c->gid_index;
	ri->mtu = 128u << c->mtu;
	ri->num_qps = c->nqp;
	ri->tx_depth = o->tx_depth;
	ri->bidir = o->bidir;
	ri->rdma_cm = o->rdma_cm;
	ri->mem_kind = c->data.ops->kind;
	snprintf(ri->gpu_name, sizeof(ri->gpu_name), "%s", c->data.gpu_name);
	snprintf(ri->gpu_pci, sizeof(ri->gpu_pci), "%s", c->data.gpu_pci);
	snprintf(ri->reg_method, sizeof(ri->reg_method), "%s",
		 c->data.reg_method ? c->data.reg_method : "");
	ri->clock_res_ns = gdr_clock_res_ns();
	ri->report_gbits = o->report_gbits;
	ri->opts = o;
	if (o->staged || o->compare)
		gdr_compare_describe(c, ri->staged, sizeof(ri->staged));
	(void)t;
}

/* --compare: direct/staged for bandwidth, staged/direct for latency (> 1: direct wins). */
static double speedup(const struct gdr_result *d, const struct gdr_result *s)
{
	if (d->has_lat && s->has_lat)
		return d->lat.median > 0 ? s->lat.median / d->lat.median : 0;
	return s->bw_avg_Bps > 0 ? d->bw_avg_Bps / s->bw_avg_Bps : 0;
}

static int run_sizes(struct gdr_ctx *c, struct gdr_reports *rs)
{
	bool bw = c->o->kind == GDR_KIND_BW;

	for (size_t i = 0; i < c->nsizes; i++) {
		struct gdr_result r[GDR_MAX_PATHS];
		double copy = 0;

		/* --compare: the stager alone at this size's chunk, before any path runs */
		if (c->o->compare && bw && gdr_compare_copy_rate(c, c->sizes[i], &copy))
			return -1;
		for (uint32_t k = 0; k < c->npaths; k++) {
			c->p = &c->path[k];
			r[k] = (struct gdr_result){ .path = c->p->name };
			if (bw ? gdr_bw_size(c, c->sizes[i], &r[k]) : gdr_lat_size(c, c->sizes[i], &r[k]))
				return -1;
			if (c->p->staged) {
				gdr_compare_staged_plan(c, c->sizes[i], &r[k]);
				gdr_compare_staged_row(r, k, copy);
			}
			if (c->p->staged && k > 0)
				r[k].speedup = speedup(&r[k - 1], &r[k]);
			if (c->o->kind == GDR_KIND_LAT && c->is_server) {
				gdr_info("%llu bytes, %s: %llu iterations answered (latency is "
					 "reported by the client)",
					 (unsigned long long)r[k].bytes, r[k].path,
					 (unsigned long long)r[k].iters);
				continue;
			}
			if (gdr_reports_row(rs, &c->ri, &r[k]))
				return -1;
		}
	}
	return 0;
}

/*
 * Server: wait for a client that sends a valid HELLO. A connection that
 * sends garbage, another protocol version or nothing is answered with a
 * REJECT and dropped, and the server keeps waiting (no state kept). Once a
 * test is accepted, further clients are refused by the busy responder.
 */
static int await_client(struct gdr_ctx *c)
{
	const struct gdr_opts *o = c->o;
	uint64_t deadline = o->listen_timeout < 0 ? 0
						  : gdr_now_ns() + (uint64_t)(o->listen_timeout * 1e9);
	char why[200];

	c->lfd = gdr_oob_tcp_listen(o->bind_addr, o->port);
	if (c->lfd < 0)
		return -1;
	for (;;) {
		uint64_t now = gdr_now_ns();
		int wait = deadline ? (now < deadline ? (int)((deadline - now) / 1000000) : 0) : -1;
		int r;

		if (gdr_oob_tcp_accept_on(&c->oob, c->lfd, wait, ms(o->timeout)))
			return -1;
		r = gdr_session_server_hello(c);
		if (r == 0)
			break;
		if (r == -2)
			return -1;
		gdr_oob_reject(&c->oob, "expected a gdrperf HELLO of protocol version %d",
			       GDR_PROTO_VERSION);
		gdr_warn("dropped %s (no valid request); waiting for another client",
			 c->oob.peer);
		gdr_oob_close(&c->oob);
	}
	snprintf(why, sizeof(why), "server busy: running %s_%s for %s; try again later",
		 gdr_verb_name(o->verb), gdr_kind_name(o->kind), c->oob.peer);
	gdr_busy_start(&c->busy, c->lfd, why);
	return 0;
}

static int session(struct gdr_ctx *c, const struct gdr_test *t, struct gdr_reports *rs)
{
	struct gdr_opts *o = c->o;
	struct gdr_msg m;

	if (c->is_server) {
		if (await_client(c))
			return -1;
		if (check_combination(o)) {
			gdr_session_reject(c, "the server cannot run this test");
			return -1;
		}
		if (o->rdma_cm) {
			gdr_verbs_close(c); /* the CM brings its own device context */
			memset(c->dev_name, 0, sizeof(c->dev_name));
			if (gdr_cm_listen(c)) {
				gdr_session_reject(c, "the server cannot listen with rdma_cm");
				return -1;
			}
		}
		if (gdr_session_accept(c))
			return -1;
	} else {
		if (gdr_oob_tcp_connect(&c->oob, o->server, o->port, ms(o->connect_timeout),
					ms(o->timeout)))
			return -1;
		if (gdr_session_client_hello(c))
			return -1;
	}
	c->nqp = o->num_qps;
	size_buffers(c);
	if (connect_qps(c))
		return -1;
	if (gdr_pin_cpus(o->cpu_list, o->no_pin, c->dev_name, c->ri.cpu_placement,
			 sizeof(c->ri.cpu_placement)))
		return -1;
	fill_run_info(c, t);
	if (gdr_reports_begin(rs, &c->ri) || run_sizes(c, rs))
		return -1;
	if (c->is_server) {
		if (gdr_session_expect(c, &m, GDR_MSG_BYE))
			return -1;
	} else {
		m.type = GDR_MSG_BYE;
		if (gdr_oob_send(&c->oob, &m))
			return -1;
	}
	return gdr_reports_end(rs, &c->ri);
}

/* Output files and memory are checked before any network wait. */
static int open_outputs(struct gdr_ctx *c, struct gdr_reports *rs)
{
	const struct gdr_opts *o = c->o;

	if (gdr_reports_open(rs, o))
		return -1;
	if (o->samples_file && !c->is_server) {
		c->samples_fp = fopen(o->samples_file, "w");
		if (!c->samples_fp) {
			gdr_err("--samples: cannot write %s: %s", o->samples_file, strerror(errno));
			return -1;
		}
		fprintf(c->samples_fp, "bytes,iteration,usec\n");
	}
	return 0;
}

int gdr_main(int argc, char **argv, const struct gdr_test *t)
{
	struct gdr_opts o;
	struct gdr_ctx c = { 0 };
	struct gdr_reports rs = { 0 };
	int ret;

	gdr_set_prog(argv[0]);
	signal(SIGPIPE, SIG_IGN);
	ret = gdr_opts_parse(&o, t, argc, argv);
	if (ret)
		return ret > 0 ? 0 : 1;
	gdr_quiet = o.quiet;
	c.o = &o;
	c.is_server = !o.server;
	c.lfd = -1;
	c.inline_explicit = gdr_opts_is_set(&o, &o.inline_size);
	srand48((long)(getpid() ^ gdr_now_ns()));
	ret = 1;
	if (check_combination(&o))
		goto out;
	if (!c.is_server && gdr_opts_sizes(&o, &c.sizes, &c.nsizes))
		goto out;
	/* Device, memory and files first: bad input fails before any network wait. */
	if (!(o.rdma_cm && !c.is_server) && gdr_dev_open(&c))
		goto out;
	if (gdr_mem_init(&c.data, &o, c.dev_name[0] ? c.dev_name : NULL))
		goto out;
	c.client_gpu = !c.is_server && strcmp(c.data.ops->kind, "host");
	if (open_outputs(&c, &rs))
		goto out;
	ret = session(&c, t, &rs) ? 1 : 0;
out:
	gdr_busy_stop(&c.busy);
	if (c.lfd >= 0)
		close(c.lfd);
	gdr_reports_close(&rs);
	if (c.samples_fp)
		fclose(c.samples_fp);
	gdr_verbs_close(&c);
	gdr_oob_close(&c.oob);
	free(c.sizes);
	gdr_opts_free(&o);
	return ret;
}
