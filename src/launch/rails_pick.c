/* SPDX-License-Identifier: MIT */
/* Which rails --rails names (a list, or every ACTIVE port) and what can be refused before any fork.
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "rails.h"
#include "path_setup.h"
#include "server_limits.h"

int gdr_rails_parse(const char *list, const char *const *names, int n, struct gdr_rail *r, int max,
		    const char *opt)
{
	char buf[1024], *tok, *save = NULL;
	int k = 0;

	if (strlen(list) >= sizeof(buf) || !*list || strstr(list, ",,") || list[0] == ',' ||
	    list[strlen(list) - 1] == ',') {
		gdr_err("%s: '%s' is not a list DEV[:PORT],... or all", opt, list);
		return -1;
	}
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':'), *end;
		long port = 1;
		int i;

		if (colon) {
			*colon = '\0';
			port = strtol(colon + 1, &end, 10);
			if (!colon[1] || *end || port < 1 || port > 255) {
				gdr_err("%s: '%s' is not a port (1..255) of %s", opt, colon + 1,
					tok);
				return -1;
			}
		}
		for (i = 0; i < n && strcmp(names[i], tok); i++)
			;
		if (i == n) {
			gdr_err("%s: no RDMA device '%s' on this host (%d device%s here)", opt, tok,
				n, n == 1 ? "" : "s");
			return -2;
		}
		for (i = 0; i < k; i++)
			if (!strcmp(r[i].dev, tok) && r[i].port == port) {
				gdr_err("%s: %s port %ld is named twice", opt, tok, port);
				return -1;
			}
		if (k == max) {
			gdr_err("%s: more than %d %s", opt, max,
				strcmp(opt, "--rails") ? "NIC ports" : "rails");
			return -1;
		}
		snprintf(r[k].dev, sizeof(r[k].dev), "%s", tok);
		r[k].gpu = -1;
		r[k++].port = (int)port;
	}
	return k;
}

/* ", DEV:PORT (why)" onto what --rails=all skipped. */
static void append(char *buf, size_t len, const struct ib_port_info *p, const char *why)
{
	size_t k = strlen(buf);

	if (k < len)
		snprintf(buf + k, len - k, "%s%s:%d (%s%s)", k ? ", " : "", p->dev, p->port, why,
			 p->virt ? ": name it to test it" : "");
}

int gdr_rails_all(const struct ib_port_info *p, int n, struct gdr_rail *r, int max, char *skipped,
		  size_t len)
{
	int k = 0;

	skipped[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (p[i].virt)
			append(skipped, len, &p[i], p[i].virt);
		else if (!p[i].active)
			append(skipped, len, &p[i],
			       p[i].state[0] ? p[i].state : "state unreadable");
		else if (k == max)
			append(skipped, len, &p[i], "over the most rails at once");
		else {
			snprintf(r[k].dev, sizeof(r[k].dev), "%s", p[i].dev);
			r[k].gpu = -1;
			r[k++].port = p[i].port;
		}
	}
	if (!k)
		gdr_err("--rails=all: no ACTIVE port on this host%s%s%s", n ? " (skipped: " : "",
			skipped, n ? ")" : ": it has no RDMA device");
	return k ? k : -1;
}

int gdr_rails_precheck(const struct gdr_opts *o)
{
	uint64_t *sizes = NULL;
	size_t n = 0;
	char why[256];
	int rc = 0;

	if (o->rdma_cm) {
		gdr_err("--rails: the rails exchange over TCP; leave out -R");
		return -1;
	}
	if (o->server && !o->run_token) {
		gdr_err("--rails with a server address: give --run_token=WORD, and the same to "
			"each rail's server on %s, so each rail's client talks to its own server",
			o->server);
		return -1;
	}
	if (gdr_opts_sizes(o, &sizes, &n))
		return -1;
	/* loopback: the rails' servers are ours, with these options (paths: the fewest) */
	if (!o->server &&
	    gdr_server_time_check(o, n, gdr_paths_plan(o, false).n, why, sizeof(why))) {
		gdr_err("--rails: %s", why);
		rc = -1;
	}
	free(sizes);
	return rc;
}

void gdr_rails_samples_name(const char *file, const struct gdr_rail *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s.%s-%d", file, r->dev, r->port);
}
