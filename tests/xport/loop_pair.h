/* SPDX-License-Identifier: MIT */
/*
 * Two loop-transport sides in one process (t_loop_notice, t_loop_limits):
 * each a domain, a region of its own pages and an endpoint, connected to each
 * other. Everything loop does is synchronous here: no peer process to wait for.
 */
#ifndef GDR_LOOP_PAIR_H
#define GDR_LOOP_PAIR_H

#include <stddef.h>
#include <stdint.h>
#include "xport.h"

struct lp_side {
	struct gdr_xdom *d;
	struct gdr_xmr *mr;
	struct gdr_xep *ep;
	uint8_t *buf;
	size_t len;
};

extern const struct gdr_xport_ops *lp_xp; /* set by lp_open: the loop transport */

/* Both sides opened and connected, -1 on a failure (printed); 77 when there is no loop. */
int lp_open(struct lp_side *a, struct lp_side *b, size_t len, const struct gdr_xdom_cfg *dc,
	    const struct gdr_xep_cfg *ec);
void lp_close(struct lp_side *a, struct lp_side *b);
/* One completion of cq, 0 when none came in many polls. */
int lp_one(struct lp_side *s, enum gdr_xcq cq, struct gdr_xcqe *e);
/* fn(arg)'s return, with what it printed on stderr in out (cap bytes); *lines: its lines. */
int lp_quiet(int (*fn)(void *arg), void *arg, char *out, size_t cap, int *lines);

#endif
