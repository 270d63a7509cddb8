/* SPDX-License-Identifier: MIT */
/* The conformance cases (xt_cases.c), in the order t_xport.c runs them. */
#ifndef GDR_XT_CASES_H
#define GDR_XT_CASES_H

#include "xt.h"

struct xt_case {
	const char *name;
	unsigned int needs; /* caps it needs (GDR_XC_*), else skipped */
	unsigned int lacks; /* caps that make it moot (GDR_XC_*), else skipped */
	bool own_ep;	    /* it opens its own endpoints (else a fresh pair is passed) */
	void (*run)(struct xt *t, struct gdr_xep *ep, size_t b); /* b: its slot's offset */
};

extern const struct xt_case xt_cases[]; /* ends with a NULL name */

#endif
