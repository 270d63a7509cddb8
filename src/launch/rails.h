/* SPDX-License-Identifier: MIT */
/*
 * --rails=LIST|all outside cluster mode: one pair per rail at the same time,
 * each rail's server and client in processes of their own (each placed on its
 * NIC's NUMA node by the driver), in loopback on this node when no server is
 * given (the launcher holds every rail's listening port before any client
 * starts), else clients of SERVER's port -p + i. Every rail's clients meet at
 * a barrier before each size. Rows go through the reporters (text, CSV,
 * JSON, Prometheus): a row per rail and size (a failed rail's with its
 * reason) and an `all` row (all bytes over the union of the rails'
 * intervals); exit 1 when a rail fails (an error, or -w/-y/--expect-bw) or a
 * signal stopped the run.
 */
#ifndef GDR_RAILS_H
#define GDR_RAILS_H

#include <stddef.h>
#include "ibports.h"
#include "opts.h"

#define GDR_MAX_RAILS 32

struct gdr_rail {
	char dev[64];
	int port;
	int gpu; /* --matrix: this rail's GPU (its --use_cuda); -1: the options' memory */
	/* --matrix: the GPU is the server's memory (the client's is host memory), else the
	 * client's (the server's is host memory): one direction of the cell (matrix_dir.h) */
	bool gpu_server;
};

/*
 * Parses LIST (DEV[:PORT],...) of option opt ("--rails", "--matrix": its errors name it)
 * against the devices present (names[0..n)): the rails, or with one error line -1 (the
 * list is wrong: a device twice, a bad port, an empty entry, too many) or -2 (a device
 * this host does not have).
 */
int gdr_rails_parse(const char *list, const char *const *names, int n, struct gdr_rail *r, int max,
		    const char *opt);
/*
 * --rails=all: every ACTIVE port of p[0..n) that is not a VF or SF; what it
 * leaves out and why into skipped ("mlx5_1:1 (DOWN), ..."). The count, or -1
 * with one error line when no port is left.
 */
int gdr_rails_all(const struct ib_port_info *p, int n, struct gdr_rail *r, int max, char *skipped,
		  size_t len);
/* What can be refused before any process starts (-R, the server's -D limit). 0 or -1. */
int gdr_rails_precheck(const struct gdr_opts *o);
/* --samples=FILE under --rails: rail DEV:PORT's own file, FILE.DEV-PORT. */
void gdr_rails_samples_name(const char *file, const struct gdr_rail *r, char *buf, size_t len);

int gdr_rails_main(const struct gdr_opts *o, const struct gdr_test *t);

#endif
