/* SPDX-License-Identifier: MIT */
/*
 * The verbs transport registers memory (xport.h's reg, key, dereg): host
 * memory by address here, GPU memory as its runtime's export asks
 * (verbs_reg_cuda.c, verbs_reg_rocm.c).
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "log.h"
#include "nic_env.h"
#include "verbs_reg.h"
#include "verbs_xp.h"

/* Explain a registration failure: the memlock limit is the usual cause. */
void gdr_explain_reg_failure(size_t len, int err)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < len + (1 << 20)) {
		gdr_err("cannot register %zu bytes with the RDMA device (%s): the memlock limit is "
			"%llu KiB; raise it with 'ulimit -l unlimited' (or memlock in "
			"/etc/security/limits.conf)",
			len, strerror(err), (unsigned long long)rl.rlim_cur / 1024);
		return;
	}
	gdr_err("cannot register %zu bytes with the RDMA device: %s", len, strerror(err));
}

static struct ibv_mr *reg_host(struct ibv_pd *pd, const struct gdr_xmem *x, int access,
			       const char **method)
{
	struct ibv_mr *mr = ibv_reg_mr(pd, x->addr, x->len, access);

	if (!mr)
		gdr_explain_reg_failure(x->len, errno);
	*method = "host";
	return mr;
}

struct ibv_mr *gdr_vx_reg_mr(struct ibv_pd *pd, const struct gdr_xmem *x, int access,
			     const char **method)
{
	switch (x->kind) {
	case GDR_XMEM_HOST:
		return reg_host(pd, x, access, method);
	case GDR_XMEM_CUDA:
		return gdr_vx_reg_cuda(pd, x, access, method);
	case GDR_XMEM_ROCM:
		return gdr_vx_reg_rocm(pd, x, access, method);
	}
	gdr_err("registering %s: memory of kind %d is unknown to the verbs transport", x->desc,
		(int)x->kind);
	return NULL;
}

/* The seam's access bits in verbs' terms, with relaxed ordering where the run asks for it. */
static int ibv_access(const struct gdr_xdom *d, unsigned int a)
{
	return (a & GDR_XA_LOCAL_WRITE ? IBV_ACCESS_LOCAL_WRITE : 0) |
	       (a & GDR_XA_REMOTE_WRITE ? IBV_ACCESS_REMOTE_WRITE : 0) |
	       (a & GDR_XA_REMOTE_READ ? IBV_ACCESS_REMOTE_READ : 0) |
	       (a & GDR_XA_REMOTE_ATOMIC ? IBV_ACCESS_REMOTE_ATOMIC : 0) |
	       (d->c->o ? gdr_relaxed_ordering_flag(d->c->o) : 0);
}

int gdr_vx_reg(struct gdr_xdom *d, const struct gdr_xmem *m, unsigned int access,
	       struct gdr_xmr **mr, const char **method)
{
	struct gdr_xmr *r = calloc(1, sizeof(*r));
	const char *how = NULL;

	if (!r) {
		gdr_err("out of memory");
		return -1;
	}
	r->mr = gdr_vx_reg_mr(d->c->v->pd, m, ibv_access(d, access), &how);
	if (!r->mr) {
		free(r);
		return -1;
	}
	r->own = true;
	*mr = r;
	if (method)
		*method = how;
	return 0;
}

uint64_t gdr_vx_key(const struct gdr_xmr *mr)
{
	return mr->mr->rkey;
}

void gdr_vx_dereg(struct gdr_xmr *mr)
{
	if (!mr)
		return;
	if (mr->own && mr->mr)
		ibv_dereg_mr(mr->mr);
	free(mr);
}
