/* SPDX-License-Identifier: MIT */
/* --switch-counters: perfquery on the switch ports a round loads, before and after it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "cswctr.h"
#include "log.h"

/* The value of "NAME:....N" in text; -1 when absent. */
static long long counter(const char *text, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = strstr(text, name); p; p = strstr(p + 1, name))
		if ((p == text || p[-1] == '\n') && p[len] == ':') {
			p += len + 1;
			while (*p == '.')
				p++;
			return strtoll(p, NULL, 10);
		}
	return -1;
}

int gdr_perfquery_parse(const char *text, struct gdr_fab_ctr *c)
{
	long long v[4] = {counter(text, "SymbolErrorCounter"), counter(text, "LinkDownedCounter"),
			  counter(text, "PortXmitDiscards"), counter(text, "PortXmitWait")};

	memset(c, 0, sizeof(*c));
	if (strncmp(text, "# Port counters:", 16) && !strstr(text, "\n# Port counters:"))
		return -1;
	for (int i = 0; i < 4; i++)
		if (v[i] < 0)
			return -1;
	c->symbol = (uint64_t)v[0];
	c->downed = (uint64_t)v[1];
	c->discards = (uint64_t)v[2];
	c->xmit_wait = (uint64_t)v[3];
	return 0;
}

/* Run "TOOL LID PORT"; its output parsed into *c. 0, or -1 (w->off, one line said). */
static int query(struct gdr_swctr *w, uint32_t lid, uint32_t port, struct gdr_fab_ctr *c)
{
	char cmd[512], out[4096];
	size_t n = 0, k;
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "%s %u %u 2>&1", w->tool, lid, port);
	p = popen(cmd, "r");
	if (!p) {
		gdr_warn("--switch-counters: cannot run %s: going on without switch counters",
			 w->tool);
		w->off = true;
		return -1;
	}
	while (n + 1 < sizeof(out) && (k = fread(out + n, 1, sizeof(out) - 1 - n, p)) > 0)
		n += k;
	out[n] = '\0';
	st = pclose(p);
	w->reads++;
	if (st == 0 && !gdr_perfquery_parse(out, c))
		return 0;
	out[strcspn(out, "\n")] = '\0';
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		gdr_warn("--switch-counters: %s not found (infiniband-diags): going on without "
			 "switch counters",
			 w->tool);
	else
		gdr_warn("--switch-counters: %s %u %u: %s: going on without switch counters "
			 "(perfquery needs the umad device and, for MADs, root or its rights)",
			 w->tool, lid, port, out[0] ? out : "no port counters in its output");
	w->off = true;
	return -1;
}

int gdr_swctr_init(struct gdr_swctr *w, const struct gdr_fab_job *fj, enum gdr_fab_flow flow,
		   const char *tool)
{
	uint32_t lids = 0;

	*w = (struct gdr_swctr){.fj = fj, .flow = flow, .tool = tool};
	w->link = calloc((size_t)fj->f.nlink + 1, sizeof(*w->link));
	if (!w->link) {
		gdr_err("out of memory");
		return -1;
	}
	for (uint32_t s = 0; s < fj->f.nsw; s++)
		lids += fj->f.sw[s].lid != 0;
	if (!lids) {
		gdr_warn("--switch-counters: no switch of the fabric has a LID (ibnetdiscover's "
			 "\"lid N\"): going on without switch counters");
		w->off = true;
	}
	return 0;
}

void gdr_swctr_free(struct gdr_swctr *w)
{
	free(w->port);
	free(w->at);
	free(w->link);
	memset(w, 0, sizeof(*w));
}

/* Add link's switch ends with a LID to the round's ports, each port once. */
static int add_link(struct gdr_swctr *w, uint32_t l)
{
	const struct gdr_fabric *f = &w->fj->f;

	for (int e = 0; e < 2; e++) {
		uint32_t v = f->link[l].node[e], i;

		if (v >= f->nsw || !f->sw[v].lid)
			continue;
		for (i = 0; i < w->n; i++)
			if (w->port[i][1] == f->sw[v].lid && w->port[i][2] == f->link[l].port[e])
				break;
		if (i < w->n)
			continue;
		if (w->n == w->cap) {
			uint32_t c = w->cap ? 2 * w->cap : 64;
			void *g = realloc(w->port, c * sizeof(*w->port));

			if (!g)
				return -1;
			w->port = g;
			g = realloc(w->at, c * sizeof(*w->at));
			if (!g)
				return -1;
			w->at = g;
			w->cap = c;
		}
		w->port[w->n][0] = l;
		w->port[w->n][1] = f->sw[v].lid;
		w->port[w->n++][2] = f->link[l].port[e];
	}
	return 0;
}

void gdr_swctr_before(struct gdr_swctr *w, const struct gdr_sched *s, unsigned r)
{
	const struct gdr_fab_job *fj = w->fj;
	uint32_t hop[2 * 16 + 2];

	w->n = 0;
	if (w->off || r >= s->nrounds || fj->f.tiers > 16)
		return;
	for (unsigned k = s->start[r]; k < s->start[r + 1]; k++) {
		uint32_t srv = fj->nic[s->pair[k][0]], cli = fj->nic[s->pair[k][1]];

		if (srv == GDR_FAB_NONE || cli == GDR_FAB_NONE || srv == cli)
			continue;
		for (int d = 0; d < 2; d++) { /* d 0: client to server, 1: back */
			unsigned m;

			if ((w->flow == GDR_FLOW_TO_SERVER && d) ||
			    (w->flow == GDR_FLOW_TO_CLIENT && !d))
				continue;
			m = gdr_fab_route(&fj->f, d ? srv : cli, d ? cli : srv, hop);
			for (unsigned h = 0; h < m; h++)
				if (add_link(w, hop[h] / 2)) {
					gdr_warn(
					    "--switch-counters: out of memory: going on without");
					w->off = true;
					return;
				}
		}
	}
	for (uint32_t i = 0; i < w->n; i++)
		if (query(w, w->port[i][1], w->port[i][2], &w->at[i]))
			return;
}

void gdr_swctr_after(struct gdr_swctr *w)
{
	for (uint32_t i = 0; i < w->n && !w->off; i++) {
		struct gdr_fab_ctr now, *c = &w->link[w->port[i][0]];

		if (query(w, w->port[i][1], w->port[i][2], &now))
			return;
		/* a counter reset or saturated in between: what is above the earlier read */
		c->symbol += now.symbol > w->at[i].symbol ? now.symbol - w->at[i].symbol : 0;
		c->downed += now.downed > w->at[i].downed ? now.downed - w->at[i].downed : 0;
		c->discards +=
		    now.discards > w->at[i].discards ? now.discards - w->at[i].discards : 0;
		c->xmit_wait +=
		    now.xmit_wait > w->at[i].xmit_wait ? now.xmit_wait - w->at[i].xmit_wait : 0;
	}
	w->n = 0;
}
