/* SPDX-License-Identifier: MIT */
/* The loop transport's table, its domain and its registrations (loop.h). */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include "log.h"
#include "loop.h"

static int loop_open(struct gdr_xdom **dp, const struct gdr_xdom_cfg *cfg, struct gdr_xlink *link)
{
	struct gdr_xdom *d;

	if (cfg->events) {
		gdr_err("loop: completion events (-e) are not supported by the loop "
			"transport; leave -e out");
		return -1;
	}
	if (cfg->dev && *cfg->dev && strcmp(cfg->dev, "loop")) {
		gdr_err("loop: no device '%s': the loop transport has one, 'loop'", cfg->dev);
		return -1;
	}
	/*
	 * The rule loop lives by: the kernel copies between processes
	 * (process_vm_readv/writev). Emulators that lack it (qemu-user) answer
	 * ENOSYS: no loop here, said once.
	 */
	{
		static const char probe = 1;
		char got = 0;
		struct iovec l = {.iov_base = &got, .iov_len = 1},
			     r = {.iov_base = (void *)&probe, .iov_len = 1};

		if (process_vm_readv(getpid(), &l, 1, &r, 1, 0) != 1) {
			int e = errno;

			gdr_err("loop: process_vm_readv: %s: the loop transport needs the kernel's "
				"copies between processes (Linux 3.2)",
				strerror(e));
			return e == ENOSYS ? -GDR_XNODEV : -1;
		}
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		goto err;
	d->cq_cap = cfg->cq_depth ? cfg->cq_depth : 1024;
	d->scq = calloc(d->cq_cap, sizeof(*d->scq));
	d->rerr = calloc(d->cq_cap, sizeof(*d->rerr));
	if (!d->scq || !d->rerr)
		goto err_free;
	d->tab_fd = memfd_create("gdrperf-loop-tab", MFD_CLOEXEC);
	if (d->tab_fd < 0 || ftruncate(d->tab_fd, sizeof(*d->tab)))
		goto err_fd;
	d->tab = mmap(NULL, sizeof(*d->tab), PROT_READ | PROT_WRITE, MAP_SHARED, d->tab_fd, 0);
	if (d->tab == MAP_FAILED)
		goto err_fd;
	d->tab->magic = GDR_LOOP_MAGIC;
	d->tab->n = GDR_LOOP_REGS;
	if (link) {
		memset(link, 0, sizeof(*link));
		snprintf(link->dev, sizeof(link->dev), "loop");
		snprintf(link->layer, sizeof(link->layer), "loop");
		snprintf(link->what_ran, sizeof(link->what_ran),
			 "in-kernel copy between processes (process_vm_writev/readv)");
		link->caps = gdr_xport_loop.caps;
	}
	*dp = d;
	return 0;

err_fd:
	if (d->tab_fd >= 0)
		close(d->tab_fd);
err_free:
	free(d->scq);
	free(d->rerr);
	free(d);
err:
	gdr_err("loop: cannot open the domain: %s", strerror(errno ? errno : ENOMEM));
	return -1;
}

static void loop_close(struct gdr_xdom *d)
{
	if (!d)
		return;
	munmap(d->tab, sizeof(*d->tab));
	close(d->tab_fd);
	free(d->scq);
	free(d->rerr);
	free(d);
}

static int loop_reg(struct gdr_xdom *d, const struct gdr_xmem *m, unsigned int access,
		    struct gdr_xmr **mrp, const char **method)
{
	struct gdr_xmr *mr;
	uint32_t i;

	if (m->kind != GDR_XMEM_HOST || m->dmabuf_fd >= 0) {
		gdr_err("loop: cannot register GPU memory (%s device %d): the loop transport moves "
			"host memory only; use --transport=verbs or ofi for GPU memory",
			m->kind == GDR_XMEM_ROCM ? "ROCm" : "CUDA", m->device);
		return -1;
	}
	for (i = 0; i < d->tab->n; i++)
		if (!atomic_load_explicit(&d->tab->r[i].key, memory_order_relaxed))
			break;
	if (i == d->tab->n) {
		gdr_err("loop: cannot register: all %u regions of the domain are in use",
			d->tab->n);
		return -1;
	}
	mr = calloc(1, sizeof(*mr));
	if (!mr) {
		gdr_err("loop: cannot register: out of memory");
		return -1;
	}
	*mr = (struct gdr_xmr){
	    .d = d, .slot = i, .addr = (uintptr_t)m->addr, .len = m->len, .access = access};
	d->tab->r[i].addr = mr->addr;
	d->tab->r[i].len = mr->len;
	d->tab->r[i].access = access;
	/* the generation in the high half: a stale key never names a later region */
	atomic_store_explicit(&d->tab->r[i].key, (uint64_t)++d->gen << 32 | (i + 1),
			      memory_order_release);
	if (method)
		*method = "host";
	*mrp = mr;
	return 0;
}

static uint64_t loop_key(const struct gdr_xmr *mr)
{
	return atomic_load_explicit(&mr->d->tab->r[mr->slot].key, memory_order_relaxed);
}

static void loop_dereg(struct gdr_xmr *mr)
{
	if (!mr)
		return;
	atomic_store_explicit(&mr->d->tab->r[mr->slot].key, 0, memory_order_release);
	free(mr);
}

const struct gdr_xport_ops gdr_xport_loop = {
    .name = "loop",
    .caps = GDR_XC_WRITE | GDR_XC_READ | GDR_XC_SEND | GDR_XC_WRITE_DATA | GDR_XC_INLINE,
    .open = loop_open,
    .close = loop_close,
    .reg = loop_reg,
    .key = loop_key,
    .dereg = loop_dereg,
    .ep_open = gdr_loop_ep_open,
    .addr = gdr_loop_addr,
    .connect = gdr_loop_connect,
    .ep_close = gdr_loop_ep_close,
    .prep = gdr_loop_prep,
    .post = gdr_loop_post,
    .post_op = gdr_loop_post_op,
    .post_recv = gdr_loop_post_recv,
    .poll = gdr_loop_poll,
    .wait = NULL, /* no completion events: the caller spins */
    .cqe_error = gdr_loop_cqe_error,
};
