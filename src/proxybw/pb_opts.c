/* SPDX-License-Identifier: MIT */
/* gdr_proxy_bw options: its rows in the one option engine. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "gp_proto.h"
#include "log.h"
#include "opt_tool.h"
#include "proxybw.h"

#define F(field) GDR_OPT_FIELD(struct pb_opts, field)

static const struct gdr_opt rows[] = {
    {.name = "use_cuda",
     .arg = "IDX",
     .type = GDR_OT_INT,
     F(use_cuda),
     .def = "0",
     .min = 0,
     .max = 1023,
     .help = "GPU index"},
    GDR_TOOL_ROW_BUS_ID(struct pb_opts, cuda_bus_id),
    {.name = "iters",
     .letter = 'n',
     .arg = "N",
     .type = GDR_OT_U32,
     F(iters),
     .def = "20000",
     .min = 2,
     .max = 10000000,
     .help = "descriptors per proxy thread and row"},
    {.name = "threads",
     .arg = "LIST",
     .type = GDR_OT_STR,
     F(threads_s),
     .def = "1,2,4",
     .help = "proxy threads (each with its own kernel producer and queue), 1..8"},
    {.name = "window",
     .arg = "LIST",
     .type = GDR_OT_STR,
     F(window_s),
     .def = "16,128,512",
     .help = "rate rows: descriptors outstanding at most, 1..1024"},
    {.name = "batch",
     .arg = "LIST",
     .type = GDR_OT_STR,
     F(batch_s),
     .def = "1,16",
     .help = "rate rows: descriptors written after one system fence"},
    {.name = "timeout",
     .arg = "MS",
     .type = GDR_OT_U32,
     F(timeout),
     .def = "5000",
     .min = 1,
     .max = 600000,
     .help = "longest wait of the kernel or a proxy thread for the other"},
    {.name = "no_lat", .type = GDR_OT_FLAG, F(no_lat), .help = "no latency row"},
    {.name = "no_rate", .type = GDR_OT_FLAG, F(no_rate), .help = "no rate rows"},
    {.name = "ping",
     .type = GDR_OT_FLAG,
     F(ping),
     .help = "a ping row: two kernels' ping-pong, half round trips"},
    GDR_TOOL_ROW_QUIET(struct pb_opts, quiet),
    GDR_TOOL_ROWS_HELP_VERSION,
};

static const struct gdr_opt_rule rules[] = {
    {GDR_R_EXCLUDES, "no_lat", "no_rate", "nothing would be measured"},
    {GDR_R_EXCLUDES, "use_cuda", "use_cuda_bus_id", "pick one way to name the GPU"},
};

static void head(FILE *f, const void *ctx)
{
	(void)ctx;
	fprintf(f,
		"Usage: gdr_proxy_bw [options]\n"
		"Measures the gpu-proxy path's kernel -> CPU proxy -> kernel leg with a null NIC\n"
		"(the proxy completes each descriptor without posting it), no NIC involved.\n");
}

/* "1,2,4": each in lo..hi, at most PB_MAX_LIST. */
static int list(const char *lab, const char *s, unsigned int lo, unsigned int hi, unsigned int *v,
		size_t *n)
{
	const char *p = s;

	*n = 0;
	for (;;) {
		char *end;
		unsigned long x;

		errno = 0;
		x = strtoul(p, &end, 10);
		if (end == p || errno || x < lo || x > hi || (*end && *end != ',') ||
		    *n == PB_MAX_LIST) {
			gdr_err("--%s=%s: expected up to %d numbers %u..%u separated by commas",
				lab, s, PB_MAX_LIST, lo, hi);
			return -1;
		}
		v[(*n)++] = (unsigned int)x;
		if (!*end)
			return 0;
		p = end + 1;
	}
}

static int check(void *settings, const void *ctx)
{
	struct pb_opts *o = settings;

	(void)ctx;
	if (list("threads", o->threads_s, 1, GDR_GP_MAX_Q, o->threads, &o->nthreads) ||
	    list("window", o->window_s, 1, GDR_GP_RING, o->window, &o->nwindow) ||
	    list("batch", o->batch_s, 1, GDR_GP_RING, o->batch, &o->nbatch))
		return -1;
	for (size_t i = 0; i < o->nbatch; i++)
		for (size_t j = 0; j < o->nwindow; j++)
			if (o->batch[i] > o->window[j]) {
				gdr_err("--batch=%u is larger than --window=%u: a batch must fit "
					"the window",
					o->batch[i], o->window[j]);
				return -1;
			}
	return 0;
}

static const struct gdr_optdef pb_optdef = {
    GDR_TOOL_TABLE(rows, rules),
    .help_col = 29,
    .set_off = offsetof(struct pb_opts, set_bits),
    .head = head,
    .tail = "Prints CSV: a latency row (1 proxy thread, one descriptor at a time; median and p99\n"
	    "of the GPU's globaltimer and of the host clock) and a rate row per threads x\n"
	    "window x batch (descriptors per second, every queue together); --ping: a ping row\n"
	    "(the latency tests' ping-pong of two kernels, each with its proxy, half of each\n"
	    "round trip).\n",
    .positional = gdr_tool_no_host,
    .check = check,
};

int pb_parse(struct pb_opts *o, int argc, char **argv)
{
	return gdr_tool_parse(&pb_optdef, o, sizeof(*o), "gdr_proxy_bw", argc, argv);
}

void pb_opts_free(struct pb_opts *o)
{
	gdr_optfree(&pb_optdef, o);
}
