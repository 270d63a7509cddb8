/* SPDX-License-Identifier: MIT */
/*
 * --rails=LIST|all outside cluster mode: one pair per rail at the same time,
 * each rail's server and client in processes of their own (each placed on its
 * NIC's NUMA node by the driver), in loopback on this node when no server is
 * given, else clients of SERVER's port -p + i; a row per rail and size and an
 * aggregate row (all bytes over the longest rail's time); exit 1 when a rail
 * fails (an error, or -w/-y/--expect-bw).
 */
#ifndef GDR_RAILS_H
#define GDR_RAILS_H

#include "opts.h"

#define GDR_MAX_RAILS 32

struct gdr_rail {
	char dev[64];
	int port;
};

/*
 * Parses LIST (DEV[:PORT],...) or "all" against the devices present (names[0..n)):
 * the rails, or -1 with one error line (a device twice, an unknown one, none).
 */
int gdr_rails_parse(const char *list, const char *const *names, int n, struct gdr_rail *r, int max);

int gdr_rails_main(const struct gdr_opts *o, const struct gdr_test *t);

#endif
