/* SPDX-License-Identifier: MIT */
/*
 * Inside --rails (rails.h): what a rail's client process tells the launcher
 * over its pipe, the child processes (rails_side.c), the rows the launcher
 * writes through the reporters (rails_rows.c).
 */
#ifndef GDR_RAILS_INT_H
#define GDR_RAILS_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "counters.h"
#include "report.h"
#include "rails.h"
#include "results.h"

/* Messages up a rail's pipe: a header, then len bytes. */
enum rail_msg {
	RAIL_INFO = 1, /* struct gdr_run_info, pointers cleared (the header's facts) */
	RAIL_READY,    /* uint64_t size: at the barrier before that size */
	RAIL_ROW,      /* struct rail_row, then ncnt struct gdr_cnt_delta */
	RAIL_END,      /* char[320]: where a stop left the run ("" ran out) */
	RAIL_ERROR,    /* char[]: the client's last error line */
};

struct rail_hdr {
	uint32_t type, len;
};

/* The header's facts as they cross the pipe: the run info with its strings inline. */
struct rail_info {
	struct gdr_run_info ri;
	char test[32], mem_kind[16];
};

/* One row as it crosses the pipe: the result with its strings inline. */
struct rail_row {
	struct gdr_result r;
	/*
	 * CLOCK_MONOTONIC when the row's path began: the barrier's release for a
	 * size's first path, the previous row for the next; its interval is
	 * [start_ns, start_ns + duration] (a -D run's drain left out).
	 */
	uint64_t start_ns;
	char path[16], lat_kind[32], cnt_dev[64];
};

/* Everything the launcher holds of one rail. */
struct rail {
	struct gdr_rail id;
	char name[80]; /* "mlx5_0:1" */
	pid_t cli, srv;
	int up;		 /* read end of the client's pipe (-1 closed) */
	int down;	 /* write end of the barrier's go-ahead pipe (-1 closed) */
	int lfd;	 /* the server's listening socket (loopback), -1 none */
	bool waiting;	 /* at the barrier */
	unsigned nready; /* barriers reached: sizes started */
	uint64_t size;	 /* the size last started */
	bool has_info;
	struct gdr_run_info ri;
	char test[32], mem_kind[16];
	struct rail_row *rows; /* with cnt pointing into cnts */
	struct gdr_cnt_delta **cnts;
	int nrow;
	bool ended;	   /* its client ended its outputs (RAIL_END) */
	char stopped[320]; /* the client's own stop line ("" with ended: it ran out) */
	char error[256];   /* why it failed ("" none) */
	int status;	   /* the client's exit status, -1 not yet */
};

/*
 * Forks one side of rail i of r[0..n) (rails_side.c): the server (listening on
 * r[i].lfd) or the client (its pipe up, barrier pipe down); the child closes
 * what the launcher holds of every rail. The child's pid, -1 (printed).
 */
pid_t gdr_rail_server(const struct gdr_opts *o, const struct gdr_test *t, struct rail *r, int n,
		      int i);
pid_t gdr_rail_client(const struct gdr_opts *o, const struct gdr_test *t, struct rail *r, int n,
		      int i, int up_w, int down_r);

/*
 * rails.c, also for --matrix (matrix.c): the rails' loopback TCP ports held
 * before any process starts (0 or -1, printed); every rail's server and client
 * started (0, or -1 when one could not start); then their rows collected, the
 * barrier before each size, a stop forwarded, every process reaped (stopped:
 * the stop line, "" ran out); what the rails hold released.
 */
/*
 * LIST (DEV[:PORT],...) of opt against the RDMA devices present: gdr_rails_parse's answer,
 * or -2 (printed) when a port named is not one its device has.
 */
int gdr_rails_named(const char *list, struct gdr_rail *id, int max, const char *opt);
int gdr_rails_hold(const struct gdr_opts *o, struct rail *r, int n);
/*
 * Loopback (--rails, --matrix's cells): the rails' servers and clients are this run's, so
 * the run makes up its own --run_token into o unless one is given: a stray client that
 * reaches a rail's port is refused, and a rail's client is never served by another
 * process's server.
 */
void gdr_rails_own_token(struct gdr_opts *o);
int gdr_rails_start(const struct gdr_opts *o, const struct gdr_test *t, struct rail *r, int n);
void gdr_rails_wait(struct rail *r, int n, size_t nsizes, char *stopped, size_t len);
void gdr_rails_free(struct rail *r, int n);

/* rails_pipe.c: one message up a pipe (a, then b). 0 or -1. */
int gdr_rail_put(int fd, uint32_t type, const void *a, size_t alen, const void *b, size_t blen);
/* One message from r's pipe into r: 1 read, 0 the pipe ended, -1 error. */
int gdr_rail_read(struct rail *r);

/*
 * The rails' rows through the reporters the options ask for (text, CSV,
 * JSON, Prometheus): every rail's rows, a failed row for each size a rail
 * did not complete (with its reason), and an `all` row per size over the
 * union of the rails' intervals; stopped: the launcher's stop line ("" none).
 * *status: the rails' exit status (gdr_rails_status) on entry, the run's on return (a
 * reporter that failed makes it GDR_EXIT_ERROR); every output is told it (--prom's
 * gdr_run_success). 0, or -1 when a reporter failed.
 */
int gdr_rails_report(const struct gdr_opts *o, struct gdr_reports *rs, struct rail *r, int n,
		     const char *stopped, int *status);

/*
 * rails_rows.c, also for --matrix: a rail's run info and rows made usable in
 * this process (what crossed the pipe has no pointers; a rail that said
 * nothing gets the facts every rail shares); the `all` row of rows k of
 * r[0..n) into *a (like: a row of that size and path): the rails' bytes over
 * the union of their intervals; the number of rails without row k (or with one that timed
 * no message: it has no interval).
 */
void gdr_rail_fix(const struct gdr_opts *o, struct rail *r);
int gdr_rail_all_row(const struct rail *r, int n, int k, const struct gdr_result *like,
		     struct gdr_result *a);

/*
 * rails_stop.c: a stop. gdr_rails_stop: the launcher's stop line into stopped (where the
 * rails were, of nsizes) and every client told to stop (SIGTERM). gdr_rails_kill: rails
 * still running GDR_RAILS_GRACE_S after it, or at a second signal, killed (said in one
 * line). gdr_rails_reap: each client's exit status; each server ended; on a stop every
 * wait bounded (a process SIGKILL does not end is left).
 */
#define GDR_RAILS_GRACE_S 3
void gdr_rails_stop(struct rail *r, int n, size_t nsizes, char *stopped, size_t len);
void gdr_rails_kill(struct rail *r, int n);
void gdr_rails_reap(struct rail *r, int n, bool stopping);

/*
 * The exit status of the rails (base/exitcode.h): interrupted when stopped, could not run
 * when a rail did not start or ended in an error, usage when a rail refused its command
 * line, below a floor when a rail was, else pass.
 */
int gdr_rails_status(const struct rail *r, int n, bool start_failed, const char *stopped);

#endif
