/* SPDX-License-Identifier: MIT */
/* The loop transport's endpoints: a mailbox of mine, the peer's mapped at connect (loop.h). */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "log.h"
#include "loop.h"

size_t gdr_loop_box_size(uint32_t cap)
{
	return sizeof(struct gdr_loop_box) +
	       (size_t)cap * (sizeof(struct gdr_loop_rwr) + sizeof(struct gdr_loop_rcqe));
}

int gdr_loop_ep_open(struct gdr_xdom *d, const struct gdr_xep_cfg *cfg, struct gdr_xep **epp)
{
	struct gdr_xep *ep = calloc(1, sizeof(*ep));
	uint32_t cap = cfg->rx_depth ? cfg->rx_depth : 1;

	if (!ep)
		goto err;
	*ep = (struct gdr_xep){.d = d,
			       .index = cfg->index,
			       .max_inline = cfg->max_inline,
			       .box_fd = -1,
			       .pidfd = -1,
			       .pid = -1};
	ep->q_cap = cfg->tx_depth ? cfg->tx_depth : 1;
	ep->q = calloc(ep->q_cap, sizeof(*ep->q));
	ep->inl_buf = calloc(ep->q_cap, ep->max_inline ? ep->max_inline : 1);
	if (!ep->q || !ep->inl_buf)
		goto err_free;
	ep->box_len = gdr_loop_box_size(cap);
	ep->box_fd = memfd_create("gdrperf-loop-ep", MFD_CLOEXEC);
	if (ep->box_fd < 0 || ftruncate(ep->box_fd, (off_t)ep->box_len))
		goto err_free;
	ep->box = mmap(NULL, ep->box_len, PROT_READ | PROT_WRITE, MAP_SHARED, ep->box_fd, 0);
	if (ep->box == MAP_FAILED) {
		ep->box = NULL;
		goto err_free;
	}
	ep->box->magic = GDR_LOOP_MAGIC;
	ep->box->cap = cap;
	ep->next = d->eps;
	d->eps = ep;
	*epp = ep;
	return 0;

err_free:
	gdr_err("loop: cannot open an endpoint: %s", strerror(errno));
	if (ep->box_fd >= 0)
		close(ep->box_fd);
	free(ep->q);
	free(ep->inl_buf);
	free(ep);
	return -1;
err:
	gdr_err("loop: cannot open an endpoint: out of memory");
	return -1;
}

size_t gdr_loop_addr(struct gdr_xep *ep, void *buf, size_t cap)
{
	struct gdr_loop_addr a = {.magic = GDR_LOOP_MAGIC,
				  .pid = getpid(),
				  .box_fd = ep->box_fd,
				  .tab_fd = ep->d->tab_fd,
				  .cap = ep->box->cap};

	if (cap < sizeof(a))
		return 0;
	memcpy(buf, &a, sizeof(a));
	return sizeof(a);
}

/* The peer's memfd number fd, mapped shared (len bytes at least), or NULL with a line. */
static void *map_peer(pid_t pid, int fd, size_t len)
{
	char path[64];
	void *p;
	int f;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", (int)pid, fd);
	f = open(path, O_RDWR | O_CLOEXEC);
	if (f < 0) {
		gdr_err(
		    "loop: cannot open the peer's mailbox %s: %s (the peer must be a process of "
		    "the same user on this host)",
		    path, strerror(errno));
		return NULL;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
	close(f);
	if (p == MAP_FAILED) {
		gdr_err("loop: cannot map the peer's mailbox %s: %s", path, strerror(errno));
		return NULL;
	}
	return p;
}

int gdr_loop_connect(struct gdr_xep *ep, const void *blob, size_t len,
		     const struct gdr_xremote *rem)
{
	struct gdr_loop_addr a;

	if (ep->pbox) {
		gdr_err("loop: the endpoint is already connected");
		return -1;
	}
	if (len != sizeof(a)) {
		gdr_err("loop: the peer's address is %zu bytes, not %zu: not a loop peer", len,
			sizeof(a));
		return -1;
	}
	memcpy(&a, blob, sizeof(a));
	if (a.magic != GDR_LOOP_MAGIC || a.pid <= 0 || !a.cap) {
		gdr_err("loop: the peer's address is not a loop endpoint's");
		return -1;
	}
	ep->pid = a.pid;
	/* a pidfd tells an exited peer from a live one whose pid number was reused */
	ep->pidfd = (int)syscall(SYS_pidfd_open, a.pid, 0);
	ep->pbox_len = gdr_loop_box_size(a.cap);
	ep->pbox = map_peer(a.pid, a.box_fd, ep->pbox_len);
	ep->ptab = ep->pbox ? map_peer(a.pid, a.tab_fd, sizeof(*ep->ptab)) : NULL;
	if (!ep->ptab || ep->pbox->magic != GDR_LOOP_MAGIC || ep->pbox->cap != a.cap ||
	    ep->ptab->magic != GDR_LOOP_MAGIC || ep->ptab->n > GDR_LOOP_REGS) {
		if (ep->ptab)
			gdr_err("loop: the peer's mailbox is not a loop mailbox");
		goto err;
	}
	if (rem)
		ep->rem = *rem;
	/* Yama ptrace_scope 1: let the peer copy into this process (EINVAL without Yama) */
	prctl(PR_SET_PTRACER, (unsigned long)a.pid, 0, 0, 0);
	return 0;
err:
	if (ep->ptab)
		munmap(ep->ptab, sizeof(*ep->ptab));
	if (ep->pbox)
		munmap(ep->pbox, ep->pbox_len);
	if (ep->pidfd >= 0)
		close(ep->pidfd);
	ep->ptab = NULL;
	ep->pbox = NULL;
	ep->pidfd = -1;
	return -1;
}

bool gdr_loop_peer_alive(struct gdr_xep *ep)
{
	struct pollfd p = {.fd = ep->pidfd, .events = POLLIN};

	if (ep->peer_gone || !ep->pbox)
		return false;
	if (atomic_load_explicit(&ep->pbox->closed, memory_order_acquire))
		ep->peer_gone = true;
	else if (ep->pidfd >= 0)
		ep->peer_gone = poll(&p, 1, 0) != 0; /* readable: it exited */
	else
		ep->peer_gone = kill(ep->pid, 0) && errno == ESRCH;
	return !ep->peer_gone;
}

void gdr_loop_ep_close(struct gdr_xep *ep)
{
	struct gdr_xep **pp;

	if (!ep)
		return;
	for (pp = &ep->d->eps; *pp; pp = &(*pp)->next)
		if (*pp == ep) {
			*pp = ep->next;
			break;
		}
	atomic_store_explicit(&ep->box->closed, 1, memory_order_release);
	if (ep->ptab)
		munmap(ep->ptab, sizeof(*ep->ptab));
	if (ep->pbox)
		munmap(ep->pbox, ep->pbox_len);
	if (ep->pidfd >= 0)
		close(ep->pidfd);
	munmap(ep->box, ep->box_len);
	close(ep->box_fd);
	free(ep->ring);
	free(ep->q);
	free(ep->inl_buf);
	free(ep);
}
