/* SPDX-License-Identifier: MIT */
/* Server limits on what a client's request may cost it. */
#ifndef GDR_SERVER_LIMITS_H
#define GDR_SERVER_LIMITS_H

#include <stdbool.h>
#include <stdint.h>
#include "opts.h"

struct gdr_conn;

/* --max_mem, or its default: half the RAM, within the memlock limit (*by_memlock: it is that). */
uint64_t gdr_max_mem(const struct gdr_opts *o, bool *by_memlock);
/*
 * Paths the server will run: 1, or with --compare 2 (direct, staged) and 3
 * when GPU memory is on either side (the host reference first; an upper
 * bound while the server's GPU alone does not yet add it), and the memory it
 * registers for them: buffers, bounce buffers, the host path's, queues.
 */
uint32_t gdr_server_paths(const struct gdr_conn *c);
uint64_t gdr_server_need(const struct gdr_conn *c);
/*
 * The adopted test (sizes and buffers known) against the limits: 0, or -1
 * (REJECT sent, the reason printed as a warning: the server serves the next client).
 */
int gdr_server_limits(struct gdr_conn *c, size_t nsizes);
/*
 * The time limit alone, before any connection (a launcher that starts the
 * server itself, --rails): the run's -D x nsizes x paths against o's
 * --max_time. 0, or -1 with the reason in why.
 */
int gdr_server_time_check(const struct gdr_opts *o, size_t nsizes, unsigned paths, char *why,
			  size_t len);

#endif
