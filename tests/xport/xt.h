/* SPDX-License-Identifier: MIT */
/*
 * The transport conformance harness's plumbing (t_xport.c has the cases):
 * two processes, the requester (the test, "A") and its peer ("B", the same
 * program exec'd with --peer), each with its own domain and one registered
 * region, talking over a socketpair for the exchange and for lockstep.
 */
#ifndef GDR_XT_H
#define GDR_XT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "xport.h"

#define XT_REGION  (1u << 25) /* bytes each side registers */
#define XT_SLOT	   (1u << 20) /* bytes of it each case uses, at its index's slot */
#define XT_STASH   64	      /* completions a side may gather while it waits on the other */
#define XT_HANG_MS 20000      /* a wait this long is a hang (a guard, not a measurement) */

struct xt {
	const struct gdr_xport_ops *xp;
	struct gdr_xdom *d;
	struct gdr_xmr *mr;
	uint8_t *buf;		/* XT_REGION bytes, registered */
	struct gdr_xremote rem; /* the peer's region */
	int sock;
	bool peer;			    /* this is B */
	pid_t child;			    /* A: B's pid */
	int fails;			    /* this side's failed checks in the current case */
	struct gdr_xcqe stash[2][XT_STASH]; /* completions polled while waiting on the peer */
	int nstash[2];
	const char *cname; /* the current case */
};

#define XT_CHECK(t, cond, ...)                                                                     \
	do {                                                                                       \
		if (!(cond))                                                                       \
			xt_fail(t, __FILE__, __LINE__, #cond, ": " __VA_ARGS__);                   \
	} while (0)
void xt_fail(struct xt *t, const char *file, int line, const char *cond, const char *note, ...)
    __attribute__((format(printf, 5, 6)));

/* Open the domain and register the region (access: everything but atomics), -1 on failure. */
int xt_open(struct xt *t, const struct gdr_xdom_cfg *cfg);
void xt_close(struct xt *t);
/*
 * Lockstep over the socketpair: a word either way; exits the process if the
 * peer is gone. A side waiting for a word keeps polling its CQs (a transport
 * whose progress is the application's, as libfabric's tcp;ofi_rxm, moves
 * only then), keeping what it gets for xt_poll.
 */
void xt_say(struct xt *t, uint32_t v);
uint32_t xt_hear(struct xt *t);
void xt_barrier(struct xt *t); /* both sides have come this far */
/* Both sides: swap region facts (once), or open an endpoint and connect it to the peer's. */
int xt_swap_regions(struct xt *t);
struct gdr_xep *xt_pair(struct xt *t, uint16_t index, const struct gdr_xremote *rem);
/* Up to max completions of cq: those kept while waiting first, then the transport's poll. */
int xt_poll(struct xt *t, enum gdr_xcq cq, struct gdr_xcqe *e, int max);
/* Up to want completions of cq, polling until they are there or XT_HANG_MS passed. */
int xt_reap(struct xt *t, enum gdr_xcq cq, struct gdr_xcqe *e, int want);
/* fn(t, arg)'s return, with what it printed on stderr in out (cap bytes, terminated). */
int xt_capture(struct xt *t, int (*fn)(struct xt *t, const void *arg), const void *arg, char *out,
	       size_t cap);
/* out is exactly one non-empty line */
bool xt_is_line(const char *out);
/* cqe_error's output for e: exactly one non-empty line, and it returns -1. */
bool xt_one_line(struct xt *t, const struct gdr_xcqe *e, const char *what);
/* The bytes case `seed` puts at i. */
static inline uint8_t xt_pat(uint32_t seed, size_t i)
{
	return (uint8_t)(seed * 131u + i * 7u + (i >> 8) + 1u);
}
void xt_fill(uint8_t *p, size_t n, uint32_t seed, size_t from);
/* p[0..n) holds seed's bytes from `from`: the index of the first that differs, or n. */
size_t xt_differs(const uint8_t *p, size_t n, uint32_t seed, size_t from);
bool xt_zero(const uint8_t *p, size_t n);

#endif
