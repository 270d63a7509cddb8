/* SPDX-License-Identifier: MIT */
/* The driver every test binary shares: a binary only names its default test. */
#include "config.h"
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "accept.h"
#include "affinity.h"
#include "ceil_row.h"
#include "atomic.h"
#include "bw.h"
#include "staging.h"
#include "clock.h"
#include "conn.h"
#include "lat.h"
#include "log.h"
#include "report.h"
#include "nic_env.h"
#include "pace.h"
#include "qp_attrs.h"
#include "run.h"
#include "run_exit.h"
#include "exitcode.h"
#include "floor.h"
#include "server_limits.h"
#include "session.h"
#include "stop.h"
#include "verb.h"
#include "verbs.h"
#include "cm.h"

#define GDR_HELLO_MS 5000 /* a new connection has this long to send its request */

static int ms(double s)
{
	return s < 0 ? -1 : (int)(s * 1000);
}

/* Combinations the tests do not have. */
static int check_combination(const struct gdr_opts *o)
{
	if ((o->staged || o->compare) && o->kind == GDR_KIND_BW && gdr_verb_def(o->verb)->two_sided &&
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

/* The memory the options ask for, in memory's terms. */
static struct gdr_mem_cfg mem_cfg(const struct gdr_opts *o)
{
	static const enum gdr_mem_reg reg[] = {
	    [GDR_REG_AUTO] = GDR_MEM_REG_AUTO,
	    [GDR_REG_DMABUF] = GDR_MEM_REG_DMABUF,
	    [GDR_REG_PEERMEM] = GDR_MEM_REG_PEERMEM,
	};

	return (struct gdr_mem_cfg){
	    .gpu = o->use_cuda == GDR_CUDA_NONE   ? GDR_MEM_GPU_NONE
		   : o->use_cuda == GDR_CUDA_AUTO ? GDR_MEM_GPU_AUTO
						  : o->use_cuda,
	    .gpu_bus_id = o->cuda_bus_id,
	    .reg = reg[o->cuda_reg],
	    .pcie_mapping = o->cuda_pcie_mapping,
	    .data_direct = o->data_direct,
	    .hugepages = o->use_hugepages,
	};
}

/* The files the options ask the reporters to write. */
static struct gdr_report_files report_files(const struct gdr_opts *o)
{
	return (struct gdr_report_files){
	    .csv = o->csv_file, .json = o->json_file, .prom = o->prom_file};
}

/* Buffer geometry: [tx region][rx region], each large enough for every size. */
static void size_buffers(struct gdr_conn *c)
{
	const struct gdr_verb_ops *vo = gdr_verb_ops_of(c->o->verb);
	size_t region = 4096, maxsz = 1;

	for (size_t i = 0; i < c->nsizes; i++) {
		size_t need = c->sizes[i] * gdr_direct_slots(c->sizes[i], c->o->tx_depth,
							     c->o->kind == GDR_KIND_LAT);

		if ((c->o->staged || c->o->compare) &&
		    gdr_staging_region_need(c, c->sizes[i]) > need)
			need = gdr_staging_region_need(c, c->sizes[i]);

		if (need > region)
			region = need;
		if (c->sizes[i] > maxsz)
			maxsz = c->sizes[i];
	}
	if (vo->region_min && vo->region_min(c->o) > region) /* e.g. atomic's counters */
		region = vo->region_min(c->o);
	if (c->o->conn == GDR_CONN_UD) /* a UD receive starts with the GRH */
		region += GDR_UD_GRH;
	c->region_len = (region + 4095) & ~(size_t)4095;
	c->recv_len = maxsz + gdr_rx_off(c->o);
}

/* Which sides keep receives posted: the role's, and write latency's immediates. */
static bool needs_recvs(const struct gdr_conn *c)
{
	return c->role.posts_recvs || (c->role.lat && gdr_lat_needs_imm(c));
}

/*
 * --compare: does either side test GPU memory? Each side knows only its own
 * memory (a -R server sets it up only now), so the two sides tell each other.
 */
static int exchange_gpu(struct gdr_conn *c, bool *any_gpu)
{
	uint64_t mine = strcmp(c->data.ops->kind, "host") != 0, peer = 0;

	if (!c->o->compare)
		return 0;
	if (c->is_server ? gdr_sync_send(c, GDR_STEP_MEM_GPU, mine) ||
			       gdr_sync_expect(c, GDR_STEP_MEM_GPU, &peer)
			 : gdr_sync_expect(c, GDR_STEP_MEM_GPU, &peer) ||
			       gdr_sync_send(c, GDR_STEP_MEM_GPU, mine))
		return -1;
	*any_gpu = mine || peer;
	return 0;
}

/*
 * Direct (or host) and/or staged paths, as --staged/--compare ask. --compare
 * with GPU memory on either side runs host memory first on both: the wire
 * reference (the GPU path is then "direct" on both sides, whichever has it).
 */
static void plan_paths(struct gdr_conn *c, bool any_gpu)
{
	bool gpu = strcmp(c->data.ops->kind, "host") || any_gpu;

	c->npaths = 0;
	if (c->o->compare && any_gpu)
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

/* -c UD: one packet per message, so every size must fit the path MTU. */
static int ud_sizes_fit(const struct gdr_conn *c)
{
	uint32_t mtu = 128u << c->mtu;

	for (size_t i = 0; i < c->nsizes; i++)
		if (c->sizes[i] > mtu) {
			gdr_err("-c UD: %llu-byte messages do not fit the path MTU of %u bytes "
				"(UD sends one packet per message: use sizes up to %u)",
				(unsigned long long)c->sizes[i], mtu, mtu);
			return -1;
		}
	return 0;
}

static int connect_path(struct gdr_conn *c, struct gdr_path *p)
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
	if (c->o->conn == GDR_CONN_UD && ud_sizes_fit(c))
		return -1;
	if (c->o->qp_addr && !c->o->quiet) {
		struct gdr_report_files rf = report_files(c->o);

		gdr_qp_addr_print(c, gdr_text_stream(&rf)); /* with the text, off JSON's stdout */
	}
	if (p->staged)
		return gdr_staged_prepost(c);
	if (needs_recvs(c))
		for (uint32_t q = 0; q < c->nqp; q++)
			if (gdr_post_recvs(c, q, (int)c->o->rx_depth, c->recv_len))
				return -1;
	return 0;
}

static int connect_qps(struct gdr_conn *c)
{
	struct gdr_opts *o = c->o;
	struct gdr_mem_cfg mc = mem_cfg(o);
	bool any_gpu = false; /* --compare: either side's test memory is GPU memory */

	/* -R server: the device closed for the CM; near the one placed for until it connects. */
	if (!c->data.ops && gdr_mem_init(&c->data, &mc, c->placed_dev[0] ? c->placed_dev : NULL))
		return -1;
	if (exchange_gpu(c, &any_gpu))
		return -1;
	plan_paths(c, any_gpu);
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
	    gdr_mem_bounce_init(&c->bounce, &c->data, gdr_staging_bounce_len(c->region_len)))
		return -1;
	if (!o->rdma_cm && gdr_cqs_create(c))
		return -1;
	for (uint32_t k = 0; k < c->npaths; k++)
		if (connect_path(c, &c->path[k]))
			return -1;
	return 0;
}

/* Where the buffers' pages are, for the header (GPU memory has no NUMA node). */
static void buffers_numa(struct gdr_run *r)
{
	struct gdr_conn *c = &r->c;
	char data[48] = "GPU memory", bounce[48] = "";
	int node;

	if (!strcmp(c->data.ops->kind, "host")) {
		node = gdr_addr_numa_node(c->data.addr);
		snprintf(data, sizeof(data), node < 0 ? "node unknown" : "node %d", node);
	}
	if (c->bounce.addr) {
		node = gdr_addr_numa_node(c->bounce.addr);
		snprintf(bounce, sizeof(bounce), node < 0 ? ", bounce buffers node unknown"
							  : ", bounce buffers node %d",
			 node);
	}
	snprintf(r->ri.buffers_numa, sizeof(r->ri.buffers_numa), "test buffers %s%s", data, bounce);
}

static void fill_run_info(struct gdr_run *r, const struct gdr_test *t)
{
	struct gdr_conn *c = &r->c;
	struct gdr_run_info *ri = &r->ri;
	const struct gdr_opts *o = c->o;
	time_t now = time(NULL);

	snprintf(r->test_name, sizeof(r->test_name), "%s_%s", gdr_verb_name(o->verb),
		 gdr_kind_name(o->kind));
	ri->tool_version = PACKAGE_VERSION;
	strftime(ri->timestamp, sizeof(ri->timestamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	ri->test = r->test_name;
	ri->verb = o->verb;
	ri->kind = o->kind;
	ri->role = c->is_server ? "server" : "client";
	gdr_hostname(ri->local_host, sizeof(ri->local_host));
	snprintf(ri->remote_host, sizeof(ri->remote_host), "%s", c->peer_host);
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
	snprintf(ri->cpu_placement, sizeof(ri->cpu_placement), "%s", c->placement);
	ri->mem_kind = c->data.ops->kind;
	snprintf(ri->gpu_name, sizeof(ri->gpu_name), "%s", c->data.gpu_name);
	snprintf(ri->gpu_pci, sizeof(ri->gpu_pci), "%s", c->data.gpu_pci);
	snprintf(ri->reg_method, sizeof(ri->reg_method), "%s",
		 c->data.reg_method ? c->data.reg_method : "");
	gdr_relaxed_ordering_desc(o, ri->nic_settings, sizeof(ri->nic_settings));
	snprintf(ri->nic_settings + strlen(ri->nic_settings),
		 sizeof(ri->nic_settings) - strlen(ri->nic_settings), ", %s, %s, %s",
		 r->scatter_desc, gdr_td_describe(c), gdr_cq_describe(c->cq_single));
	gdr_qp_attrs_desc(o, c->init_depth, ri->qp_attrs, sizeof(ri->qp_attrs));
	if (o->rate_limit > 0 && o->kind == GDR_KIND_BW) {
		char rate[40];
		size_t k = strlen(ri->nic_settings);

		gdr_pace_desc(o->rate_limit, (enum gdr_rate_unit)o->rate_units, rate, sizeof(rate));
		snprintf(ri->nic_settings + k, sizeof(ri->nic_settings) - k,
			 ", this side's posts paced to %s (--rate_limit, software)", rate);
	}
	ri->clock_res_ns = gdr_clock_res_ns();
	ri->report_gbits = o->report_gbits;
	ri->opts = o;
	if (o->staged || o->compare)
		gdr_staging_describe(c, ri->staged, sizeof(ri->staged));
	if (o->staged || o->compare)
		snprintf(ri->stage_copy, sizeof(ri->stage_copy), "%s", r->stage_copy.desc);
	(void)t;
}

/* --compare: direct/staged for bandwidth, staged/direct for latency (> 1: direct wins). */
static double speedup(const struct gdr_result *d, const struct gdr_result *s)
{
	if (d->has_lat && s->has_lat)
		return d->lat.median > 0 ? s->lat.median / d->lat.median : 0;
	return s->bw_avg_Bps > 0 ? d->bw_avg_Bps / s->bw_avg_Bps : 0;
}

/* The paths of one size; stg: the size's staging state (NULL: no staged path). */
static int run_paths(struct gdr_run *run, struct gdr_reports *rs, struct gdr_accept *acc,
		     const struct gdr_ceil_rows *cr, uint64_t size, struct gdr_staging *stg)
{
	struct gdr_conn *c = &run->c;
	bool bw = c->o->kind == GDR_KIND_BW;
	struct gdr_result r[GDR_MAX_PATHS];
	double copy = 0;

	/* both sides' copiers of the size, then (--compare) its copier alone at its chunk */
	if (stg && gdr_staging_exchange_copier(c, stg))
		return -1;
	if (c->o->compare && bw && gdr_staging_copy_rate(c, stg, &copy))
		return -1;
	for (uint32_t k = 0; k < c->npaths; k++) {
		c->p = &c->path[k];
		r[k] = (struct gdr_result){ .path = c->p->name };
		gdr_accept_before(acc);
		if (bw ? gdr_bw_size(c, size, stg, &r[k]) : gdr_lat_size(c, size, stg, &r[k]))
			return -1;
		gdr_accept_after(acc, c, &r[k]);
		if (c->p->staged) {
			gdr_staging_row(stg, &r[k]);
			gdr_staging_model(r, k, copy);
		}
		if (bw) {
			bool gpu = c->p->mem->ops && strcmp(c->p->mem->ops->kind, "host");
			const char *name = stg ? gdr_ceil_copier_name(stg->cp.ops->name) : NULL;

			gdr_ceil_row_copier(cr, gpu, c->p->staged, copy, name, &r[k]);
		}
		/* staged read: the target's copy is untimed, no fair ratio (labelled) */
		if (c->p->staged && c->role.def->fetches)
			r[k].target_copy_untimed = true;
		else if (c->p->staged && k > 0)
			r[k].speedup = speedup(&r[k - 1], &r[k]);
		if (c->o->kind == GDR_KIND_LAT && c->is_server) {
			gdr_info("%llu bytes, %s: %llu iterations answered (latency is "
				 "reported by the client)",
				 (unsigned long long)r[k].bytes, r[k].path,
				 (unsigned long long)r[k].iters);
			continue;
		}
		if (gdr_reports_row(rs, &run->ri, &r[k]))
			return -1;
	}
	return 0;
}

static int run_sizes(struct gdr_run *run, struct gdr_reports *rs, struct gdr_accept *acc)
{
	struct gdr_conn *c = &run->c;
	struct gdr_ceil_rows cr = {.scale = 1};

	if (c->o->kind == GDR_KIND_BW) /* this side's facts, once: each row's ceiling */
		gdr_ceil_rows_init(&cr, c);
	for (size_t i = 0; i < c->nsizes; i++) {
		struct gdr_staging stg, *st = NULL;
		int rc;

		gdr_oob_phase(&c->oob, "during the %llu-byte test",
			      (unsigned long long)c->sizes[i]);
		run->stop.size = c->sizes[i];
		run->stop.sizes_done = i;
		/* the staged path's state of this size, built once for the probe and the paths */
		if (c->o->staged || c->o->compare) {
			if (gdr_staging_begin(&stg, c, c->sizes[i], run->stage_copy.kind[i]))
				return -1;
			st = &stg;
		}
		rc = run_paths(run, rs, acc, &cr, c->sizes[i], st);
		if (st)
			gdr_staging_end(st);
		if (rc)
			return -1;
	}
	return 0;
}

/*
 * A client stopped by SIGINT/SIGTERM during the sizes (a loop or a wait saw
 * gdr_stop_requested and printed nothing): say where, and end the outputs so
 * the sizes that completed are kept (the JSON file is written, and says
 * where the run stopped). Always -1: the run did not complete.
 */
static int stopped_mid_run(struct gdr_run *r, struct gdr_reports *rs)
{
	struct gdr_conn *c = &r->c;
	char where[160], done[80] = "";
	size_t n = r->stop.sizes_done;

	if (c->is_server || !gdr_stop_requested())
		return -1;
	if (c->stopped.in_loop && c->stopped.total)
		snprintf(done, sizeof(done), " after %llu of %llu iterations",
			 (unsigned long long)c->stopped.done, (unsigned long long)c->stopped.total);
	else if (c->stopped.in_loop)
		snprintf(done, sizeof(done), " after %llu iterations",
			 (unsigned long long)c->stopped.done);
	snprintf(where, sizeof(where), "during the %llu-byte test%s",
		 (unsigned long long)r->stop.size, done);
	snprintf(r->ri.stopped, sizeof(r->ri.stopped),
		 "interrupted by %s %s; %zu of %zu sizes completed", gdr_stop_signal_name(), where,
		 n, c->nsizes);
	r->stop.reported = true;
	if (n)
		gdr_err(
		    "interrupted by %s %s: %zu of %zu sizes completed (their rows are above and "
		    "in the CSV/JSON files)",
		    gdr_stop_signal_name(), where, n, c->nsizes);
	else
		gdr_err("interrupted by %s %s: no size completed (the JSON file says where the run "
			"stopped; the CSV has no rows)",
			gdr_stop_signal_name(), where);
	gdr_reports_end(rs, &r->ri);
	return -1;
}

/* "10.9.0.1" for a RoCE GID that holds an IPv4 address, else the bind address or host name. */
static void this_host(const struct gdr_conn *c, char *buf, size_t len)
{
	const uint8_t *g = c->gid.raw;
	static const uint8_t v4[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

	if (c->o->bind_addr)
		snprintf(buf, len, "%s", c->o->bind_addr);
	else if (!memcmp(g, v4, sizeof(v4)))
		snprintf(buf, len, "%u.%u.%u.%u", g[12], g[13], g[14], g[15]);
	else
		gdr_hostname(buf, len);
}

/* The server says at once what it is doing, and how to start its client. */
static void announce(const struct gdr_conn *c, const char *prog)
{
	const struct gdr_opts *o = c->o;
	char host[96], given[128], limit[32] = "";

	this_host(c, host, sizeof(host));
	if (o->listen_timeout >= 0)
		snprintf(limit, sizeof(limit), " for %g s", o->listen_timeout);
	gdr_info("waiting%s for a client on TCP port %u (%s%s, %s) with %s port %d, GID index "
		 "%d",
		 limit, o->port, o->bind_addr ? "address " : "all addresses",
		 o->bind_addr ? o->bind_addr : "",
		 o->allow ? "--allow limits the peers" : "any peer may connect", c->dev_name,
		 c->port, c->gid_index);
	gdr_info("start the client with: %s%s%s [test options] %s",
		 o->persistent ? "any gdr_*_bw/_lat" : prog, c->dev_name[0] ? " -d DEV" : "",
		 o->port != GDR_DEFAULT_PORT ? " -p PORT" : "", host);
	gdr_opts_test_given(o, given, sizeof(given));
	if (given[0])
		gdr_info("note: %s: the client decides the test; given here, these only have to "
			 "match the client's",
			 given);
}

/* A client's request, checked: 0 accepted, else GDR_REFUSED(_FATAL) (REJECT sent). */
static int admit(struct gdr_conn *c, const struct gdr_msg *m)
{
	int r = gdr_session_server_hello(c, m);

	if (r)
		return r;
	if (check_combination(c->o)) {
		gdr_session_refuse(c, true, "the server cannot run this test");
		return GDR_REFUSED;
	}
	c->nqp = c->o->num_qps;
	size_buffers(c);
	return gdr_server_limits(c) ? GDR_REFUSED : 0;
}

/*
 * Server: wait for a client whose request is valid and within the limits.
 * Connections that send garbage, another protocol version or nothing in time
 * are dropped side by side (oob_gate.c); a refused request is answered with
 * a REJECT and the server waits for the next client. Once a test is
 * accepted, further clients are refused by the busy responder.
 * 0, -1 (error printed), -2 nobody came within --listen_timeout (not printed).
 */
static int await_client(struct gdr_run *run)
{
	struct gdr_conn *c = &run->c;
	struct gdr_opts *o = c->o, base = *o;
	uint64_t deadline = o->listen_timeout < 0 ? 0
						  : gdr_now_ns() + (uint64_t)(o->listen_timeout * 1e9);
	int hello_ms = ms(o->timeout) < GDR_HELLO_MS ? ms(o->timeout) : GDR_HELLO_MS;
	char why[200];
	struct gdr_msg m;

	for (;;) {
		uint64_t now = gdr_now_ns();
		int wait = deadline ? (now < deadline ? (int)((deadline - now) / 1000000) : 0) : -1;
		int r = gdr_oob_tcp_await(&c->oob, &m, run->lfd, &run->allow, wait, hello_ms,
					  ms(o->timeout));

		if (r)
			return r;
		c->oob.role = "client";
		gdr_oob_phase(&c->oob, "while setting up the test");
		r = admit(c, &m);
		if (r == 0)
			break;
		gdr_oob_close(&c->oob);
		*o = base; /* the next client starts from this server's own options */
		if (r == GDR_REFUSED_FATAL)
			return -1;
		gdr_info("refused that client; still waiting for a client");
	}
	snprintf(why, sizeof(why), "server busy: running %s_%s for %s; try again later",
		 gdr_verb_name(o->verb), gdr_kind_name(o->kind), c->oob.peer);
	run->busy.allow = &run->allow;
	gdr_busy_start(&run->busy, run->lfd, why);
	return 0;
}

static int session(struct gdr_run *run, const struct gdr_test *t, struct gdr_reports *rs)
{
	struct gdr_conn *c = &run->c;
	struct gdr_opts *o = c->o;
	struct gdr_accept acc;
	struct gdr_msg m;
	int rc;

	if (c->is_server) {
		if (c->oob.ops) { /* a launcher's channel (cluster mode): one peer, no listening */
			struct gdr_msg hello;

			if (gdr_session_expect(c, &hello, GDR_MSG_HELLO) || admit(c, &hello))
				return -1;
		} else {
			int r = await_client(run);

			if (r)
				return r;
			run->admitted = true;
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
		if (!c->oob.ops && gdr_oob_tcp_connect(&c->oob, o->source_ip, o->server, o->port,
							ms(o->connect_timeout), ms(o->timeout)))
			return -1;
		c->oob.role = "server";
		gdr_oob_phase(&c->oob, "while setting up the test");
		c->client_gpu = strcmp(c->data.ops->kind, "host") != 0; /* HELLO's GPU flag */
		if (gdr_session_client_hello(c))
			return -1;
		c->nqp = o->num_qps;
		size_buffers(c);
	}
	if (connect_qps(c))
		return -1;
	buffers_numa(run);
	/* the staged path's copier per size, chosen once (auto: probed), before the header */
	if ((o->staged || o->compare) && gdr_staging_choose(c, &run->stage_copy))
		return -1;
	fill_run_info(run, t);
	if (gdr_accept_init(&acc, c))
		return -1;
	rc = gdr_reports_begin(rs, &run->ri) ? -1 : 0;
	run->sizes_started = !rc;
	if (!rc && run_sizes(run, rs, &acc))
		rc = stopped_mid_run(run, rs); /* -1; a Ctrl-C'd client says where and keeps rows */
	if (gdr_accept_end(&acc) && !rc && !o->cluster) /* -w/-y/--expect-bw, printed */
		rc = -4;
	if (rc == -1)
		return -1;
	gdr_oob_phase(&c->oob, "at the end of the run");
	if (c->is_server) {
		if (gdr_session_expect(c, &m, GDR_MSG_BYE))
			return -1;
	} else {
		m.type = GDR_MSG_BYE;
		if (gdr_oob_send(&c->oob, &m))
			return -1;
	}
	return gdr_reports_end(rs, &run->ri) ? -1 : rc;
}

/* Output files and memory are checked before any network wait. */
static int open_outputs(struct gdr_conn *c, struct gdr_reports *rs)
{
	const struct gdr_opts *o = c->o;
	struct gdr_report_files rf = report_files(o);

	if (gdr_reports_open(rs, &rf))
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

/*
 * One run, from the device up. 0; -1 the run failed; -2 no client came within
 * --listen_timeout (not printed); -3 this side cannot run at all (device,
 * memory, output files, listening port); -5 a floor the port cannot carry.
 */
static int run_once(struct gdr_run *r, const struct gdr_test *t, struct gdr_reports *rs,
		    const struct gdr_run_hooks *h)
{
	struct gdr_conn *c = &r->c;
	struct gdr_opts *o = c->o;
	struct gdr_mem_cfg mc = mem_cfg(o);

	gdr_role_fill(&c->role, o, c->is_server); /* the server's again after the HELLO */
	/* Files, device and memory first: bad input fails before any network wait. */
	/* The files first: from here every failure leaves its mark in them (--prom). */
	if (h && h->sink)
		*rs = (struct gdr_reports){.n = 1, .r = {*h->sink}};
	else if (open_outputs(c, rs))
		return -3;
	/* The device (-R client: the one rdma_cm resolves to) places threads and memory. */
	if (!(o->rdma_cm && !c->is_server) && gdr_dev_open(c))
		return -3;
	/* -c UD (never with -R): every size within this port's MTU, before the network */
	if (!c->is_server && o->conn == GDR_CONN_UD &&
	    gdr_ud_fit_sizes(c->sizes, &c->nsizes, 128u << c->mtu, o->all_sizes,
			     o->sizes_set || gdr_opts_is_set(o, &o->size)))
		return -3;
	if (o->rdma_cm && !c->is_server && (gdr_cm_probe_device(c) || gdr_place(c, c->dev_name)))
		return -3;
	if (!c->is_server && gdr_floor_check(c)) /* a floor the port cannot carry: before traffic */
		return -5;
	if (gdr_mem_init(&c->data, &mc, c->dev_name[0] ? c->dev_name : NULL))
		return -3;
	/* Before any QP exists. */
	gdr_scatter_to_cqe(strcmp(c->data.ops->kind, "host") != 0, r->scatter_desc,
			   sizeof(r->scatter_desc));
	if (c->is_server && r->lfd < 0 && !c->oob.ops) {
		r->lfd = gdr_oob_tcp_listen(o->bind_addr, o->port);
		if (r->lfd < 0)
			return -3;
		announce(c, gdr_prog());
	}
	return session(r, t, rs);
}

/* Release what one run holds; the listening socket stays for the next. */
static void end_run(struct gdr_run *r, struct gdr_reports *rs)
{
	struct gdr_conn *c = &r->c;

	gdr_busy_stop(&r->busy);
	gdr_reports_close(rs);
	if (c->samples_fp)
		fclose(c->samples_fp);
	c->samples_fp = NULL;
	gdr_verbs_close(c);
	gdr_oob_close(&c->oob);
	free(c->sizes);
	c->sizes = NULL;
}

static void no_client(const struct gdr_opts *o)
{
	gdr_err("no client connected within %g s (start the client, or raise --listen_timeout)",
		o->listen_timeout);
}

/* --persistent: serve clients one after another until none comes within --listen_timeout. */
static int serve_on(struct gdr_run *run, const struct gdr_test *t, struct gdr_reports *rs)
{
	struct gdr_opts *o = run->c.o, base = *o;
	unsigned long served = 0, failed = 0;
	int r;

	for (;;) {
		r = run_once(run, t, rs, NULL);
		if (r == -2 || r == -3)
			break;
		served++;
		failed += r != 0;
		gdr_run_finish(run, rs, gdr_run_exit_status(r, false));
		end_run(run, rs);
		*o = base;
		*run = (struct gdr_run){
		    .c = {.o = o, .is_server = true}, .lfd = run->lfd, .allow = run->allow};
		*rs = (struct gdr_reports){0};
		gdr_info("served %lu client%s (%lu failed); waiting for the next", served,
			 served == 1 ? "" : "s", failed);
	}
	if (r == -3)
		return 1;
	if (!served) {
		no_client(o);
		return 1;
	}
	gdr_info("no client for %g s: stopping after %lu client%s (%lu failed)", o->listen_timeout,
		 served, served == 1 ? "" : "s", failed);
	return 0;
}

int gdr_run(const struct gdr_opts *op, const struct gdr_test *t, const struct gdr_run_hooks *h)
{
	struct gdr_opts o = *op; /* the server adopts the client's test in its copy */
	struct gdr_run run = { 0 };
	struct gdr_conn *c = &run.c;
	struct gdr_reports rs = { 0 };
	int ret;

	c->o = &o;
	c->is_server = h ? h->is_server : !o.server;
	run.lfd = -1;
	if (h)
		c->oob = *h->oob;
	c->inline_explicit = gdr_opts_is_set(&o, &o.inline_size);
	srand48((long)(getpid() ^ gdr_now_ns()));
	ret = GDR_EXIT_USAGE;
	if (check_combination(&o))
		goto out;
	/* a client's Ctrl-C ends its run cleanly (what completed is written; a second one kills) */
	if (!c->is_server && (o.run_infinitely || !h) && gdr_stop_on_signals()) {
		ret = GDR_EXIT_ERROR;
		goto out;
	}
	if (!c->is_server && gdr_opts_sizes(&o, &c->sizes, &c->nsizes))
		goto out;
	if (c->is_server && gdr_allow_parse(&run.allow, o.allow))
		goto out;
	if (c->is_server && o.persistent) {
		ret = serve_on(&run, t, &rs) ? GDR_EXIT_ERROR : GDR_EXIT_OK;
		goto out;
	}
	ret = run_once(&run, t, &rs, h);
	/*
	 * A client that failed before its first size (it went away or refused
	 * during the setup, e.g. a bad -x) does not end the server: it waits for
	 * the next one, until one run ends or none comes within --listen_timeout
	 * (then exit 1). The server's own failures still end it.
	 */
	for (unsigned long failed = 1; ret == -1 && c->is_server && !h && run.admitted &&
				       !run.sizes_started && c->oob.peer_failed;
	     failed++) {
		gdr_info("that client failed while setting up the test; still waiting for a client "
			 "(%lu failed so far)",
			 failed);
		end_run(&run, &rs);
		o = *op;
		run = (struct gdr_run){
		    .c = {.o = &o, .is_server = true}, .lfd = run.lfd, .allow = run.allow};
		c->inline_explicit = gdr_opts_is_set(&o, &o.inline_size);
		rs = (struct gdr_reports){0};
		ret = run_once(&run, t, &rs, h);
		if (ret == -2) { /* the failure above was the error: this is why it stops now */
			gdr_info("no other client came within %g s (--listen_timeout): stopping "
				 "with no completed run",
				 o.listen_timeout);
			ret = -1;
		}
	}
	if (ret == -2)
		no_client(&o);
	if (ret && !c->is_server && gdr_stop_requested() && !run.stop.reported)
		gdr_err("interrupted by %s while setting up the test: no size ran",
			gdr_stop_signal_name());
	ret = gdr_run_exit_status(ret, !c->is_server && gdr_stop_requested());
	ret = gdr_run_finish(&run, &rs, ret); /* --prom says how it ended, failed runs too */
out:
	end_run(&run, &rs);
	if (run.lfd >= 0)
		close(run.lfd);
	return ret;
}
