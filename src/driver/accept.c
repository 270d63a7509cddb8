/* SPDX-License-Identifier: MIT */
/* -w, -y, --expect-bw and -W around each size: see accept.h. */
#include "config.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "accept.h"
#include "counters.h"
#include "log.h"
#include "verdict.h"

struct gdr_accept_state {
	bool verdict;
	bool counters; /* -W and the first read worked */
	double port_Bps;
	char dev[96]; /* "rxe0 port 1" */
	char name[64];
	char gpu[32]; /* the GPU's PCI address with GPU memory, else "" */
	int port;
	struct gdr_cnt_snap before, after;
	struct gdr_cnt_delta d[GDR_CNT_MAX];
};

static double ceiling(const struct gdr_conn *c)
{
	double g = gdr_port_rate_gbps(c->pattr.active_speed, c->pattr.active_width);

	if (g <= 0 && c->dev_name[0])
		g = gdr_port_rate_sysfs(c->dev_name, c->port);
	return g * 1e9 / 8 * (c->o->bidir ? 2 : 1);
}

/* The NIC port's counters and AER, and the GPU's AER with GPU memory: 0, or -1 (none readable). */
static int read_all(struct gdr_accept_state *s, struct gdr_cnt_snap *snap)
{
	int rc = gdr_counters_read(snap, s->name, s->port);

	if (s->gpu[0])
		gdr_counters_read_gpu(snap, s->gpu);
	return rc;
}

int gdr_accept_init(struct gdr_accept *a, const struct gdr_conn *c)
{
	struct gdr_accept_state *s;
	bool verdict = !c->is_server && gdr_verdict_wanted(c->o);

	*a = (struct gdr_accept){0};
	if (!verdict && !c->o->report_counters && !c->o->prom_file)
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s) {
		gdr_err("out of memory");
		return -1;
	}
	a->s = s;
	s->verdict = verdict;
	s->port_Bps = c->o->kind == GDR_KIND_BW ? ceiling(c) : 0;
	snprintf(s->name, sizeof(s->name), "%s", c->dev_name);
	s->port = c->port;
	snprintf(s->dev, sizeof(s->dev), "%s port %d", c->dev_name, c->port);
	snprintf(s->gpu, sizeof(s->gpu), "%s", c->data.gpu_pci);
	for (char *p = s->gpu; *p; p++) /* sysfs names PCI functions in lower case */
		*p = (char)tolower((unsigned char)*p);
	if (!c->o->report_counters)
		return 0;
	if (!c->dev_name[0]) {
		gdr_warn("-W: no RDMA device name on this side; going on without counters");
		return 0;
	}
	s->counters = read_all(s, &s->before) == 0;
	if (s->before.unreadable[0])
		gdr_warn("-W: %s: cannot read %s; going on without %s", s->dev,
			 s->before.unreadable, s->counters ? "those" : "counters");
	return 0;
}

int gdr_accept_check_list(const struct gdr_conn *c)
{
	struct gdr_cnt_snap *s;
	char miss[256];
	int n = 0;

	if (!c->o->counters_list || !c->dev_name[0])
		return 0;
	s = calloc(1, sizeof(*s));
	if (!s) {
		gdr_err("out of memory");
		return -1;
	}
	gdr_counters_read(s, c->dev_name, c->port);
	n = gdr_counters_missing(s, c->o->counters_list, miss, sizeof(miss));
	if (n)
		gdr_err("-W %s: %s port %d has no %s", c->o->counters_list, c->dev_name, c->port,
			miss);
	free(s);
	return n ? -1 : 0;
}

void gdr_accept_before(struct gdr_accept *a)
{
	if (a->s && a->s->counters)
		read_all(a->s, &a->s->before);
}

void gdr_accept_after(struct gdr_accept *a, const struct gdr_conn *c, struct gdr_result *r)
{
	struct gdr_accept_state *s = a->s;

	if (!s)
		return;
	if (s->counters) {
		read_all(s, &s->after);
		r->ncnt = gdr_counters_delta_list(&s->before, &s->after, c->o->counters_list, s->d,
						  GDR_CNT_MAX);
		r->cnt = s->d;
		r->cnt_dev = s->dev;
	}
	if (r->has_lat)
		return;
	r->port_Bps = s->port_Bps;
	if (!s->verdict)
		return;
	gdr_verdict_judge(c->o, r);
	if (r->verdict == GDR_VERDICT_FAIL) {
		a->failed++;
		if (!c->o->cluster) /* cluster mode: the pair's row is SLOW, with this reason */
			gdr_err("FAIL: %llu bytes%s%s: %s", (unsigned long long)r->bytes,
				r->path ? ", " : "", r->path ? r->path : "", r->why);
	}
}

int gdr_accept_end(struct gdr_accept *a)
{
	int failed = a->failed;

	free(a->s);
	a->s = NULL;
	return failed;
}
