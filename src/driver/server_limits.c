/* SPDX-License-Identifier: MIT */
/* What a client may make a server do: memory it registers, how long it runs. */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "conn.h"
#include "server_limits.h"
#include "log.h"
#include "path_setup.h"
#include "session.h"
#include "staging.h"
#include "verbs_api.h"

/* Bytes per work request, send or receive, with its completion entry: a generous estimate. */
#define WR_BYTES 320

/* "1.5 GiB", "64 MiB", "12 KiB" */
static const char *bytes_text(uint64_t v, char *buf, size_t len)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	double d = (double)v;
	int i = 0;

	while (d >= 1024 && i < 4) {
		d /= 1024;
		i++;
	}
	snprintf(buf, len, "%.3g %s", d, unit[i]);
	return buf;
}

/* The memlock limit that applies to this process, UINT64_MAX when none does. */
static uint64_t memlock_limit(void)
{
	struct rlimit rl;

	if (geteuid() == 0 || getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return UINT64_MAX; /* root registers memory past the limit (CAP_IPC_LOCK) */
	return (uint64_t)rl.rlim_cur;
}

uint64_t gdr_max_mem(const struct gdr_opts *o, bool *by_memlock)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	uint64_t half = pages > 0 && psz > 0 ? (uint64_t)pages * (uint64_t)psz / 2 : UINT64_MAX;
	uint64_t lock = memlock_limit();

	*by_memlock = false;
	if (o->max_mem)
		return o->max_mem;
	*by_memlock = lock < half;
	return *by_memlock ? lock : half;
}

/* The paths' rows for this test (path_setup.c), the client's memory included. */
static struct gdr_path_plan plan(const struct gdr_conn *c)
{
	return gdr_paths_plan_on(c, c->client_gpu || gdr_mem_on_device(&c->data));
}

uint32_t gdr_server_paths(const struct gdr_conn *c)
{
	return plan(c).n;
}

uint64_t gdr_server_need(const struct gdr_conn *c)
{
	const struct gdr_opts *o = c->o;
	struct gdr_path_plan pp = plan(c);
	uint64_t paths = pp.n, need = 2 * (uint64_t)c->region_len;

	if (pp.staged)
		need += gdr_staging_bounce_len(c->region_len);
	if (pp.host_mem) /* the host reference's own buffers */
		need += 2 * (uint64_t)c->region_len;
	return need + paths * o->num_qps * ((uint64_t)o->tx_depth + o->rx_depth) * WR_BYTES;
}

int gdr_server_limits(struct gdr_conn *c, size_t nsizes)
{
	const struct gdr_opts *o = c->o;
	uint64_t need = gdr_server_need(c), paths = gdr_server_paths(c);
	bool by_memlock;
	uint64_t max = gdr_max_mem(o, &by_memlock);
	char a[32], b[32], why[256];

	if (need > max) {
		gdr_session_refuse(c, true,
				   "the test needs %s of registered memory on the server, over its "
				   "limit of %s (%s); or ask for smaller sizes, -t or -q",
				   bytes_text(need, a, sizeof(a)), bytes_text(max, b, sizeof(b)),
				   o->max_mem ? "raise --max_mem on the server"
				   : by_memlock
				       ? "the server's ulimit -l: raise it, or give --max_mem"
				       : "half its RAM: give the server --max_mem to allow more");
		return -1;
	}
	if (gdr_server_time_check(o, nsizes, (unsigned)paths, why, sizeof(why))) {
		gdr_session_refuse(c, true, "%s", why);
		return -1;
	}
	/* the queues and buffer it asks for, within the device's limits (not a CQ failing later) */
	if (gdr_dev_fits(c, (uint32_t)paths, 2 * (uint64_t)c->region_len, why, sizeof(why))) {
		gdr_session_refuse(c, true, "the server cannot run this test on %s", why);
		return -1;
	}
	return 0;
}

int gdr_server_time_check(const struct gdr_opts *o, size_t nsizes, unsigned paths, char *why,
			  size_t len)
{
	double secs = o->duration * (double)nsizes * (double)paths;

	if (secs <= o->max_time)
		return 0;
	snprintf(why, len,
		 "the test would run %g s (-D %g x %zu sizes x %u paths), over the server's limit "
		 "of %g s: raise --max_time on the server",
		 secs, o->duration, nsizes, paths, o->max_time);
	return -1;
}
