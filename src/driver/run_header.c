/* SPDX-License-Identifier: MIT */
/* The report's header (struct gdr_run_info) and the files the reporters write. */
#include "config.h"
#include <string.h>
#include <time.h>
#include "affinity.h"
#include "clock.h"
#include "nic_env.h"
#include "pace.h"
#include "qp_attrs.h"
#include "path_xport.h"
#include "run_header.h"
#include "session.h"
#include "staging.h"
#include "verbs_api.h"

/* The files the options ask the reporters to write. */
struct gdr_report_files gdr_run_report_files(const struct gdr_opts *o)
{
	return (struct gdr_report_files){
	    .csv = o->csv_file, .json = o->json_file, .prom = o->prom_file, .output = o->output};
}

/* Where the buffers' pages are, for the header (GPU memory has no NUMA node). */
void gdr_header_numa(struct gdr_run *r)
{
	struct gdr_conn *c = &r->c;
	char data[48] = "GPU memory", bounce[48] = "";
	int node;

	if (!gdr_mem_on_device(&c->data)) {
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

void gdr_header_fill(struct gdr_run *r, const struct gdr_test *t)
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
	snprintf(ri->link_layer, sizeof(ri->link_layer), "%.*s", (int)sizeof(ri->link_layer) - 1,
		 c->link.layer);
	ri->gid_index = c->gid_index;
	snprintf(ri->xport, sizeof(ri->xport), "%s", c->xp ? c->xp->name : GDR_XPORT_DEFAULT);
	snprintf(ri->provider, sizeof(ri->provider), "%s", gdr_xpath_on(c) ? c->link.provider : "");
	if (gdr_xpath_on(c)) { /* a transport of its own words: which, and what ran */
		ri->gid_index = -1;
		snprintf(ri->transport, sizeof(ri->transport), "%s%s%s: %s", c->xp->name,
			 o->provider ? ", provider " : "", o->provider ? o->provider : "",
			 c->link.what_ran);
	}
	ri->mtu = c->link.mtu;
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
	(void)t;
}
