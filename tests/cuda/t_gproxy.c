/* SPDX-License-Identifier: MIT */
/*
 * The gpu-proxy kernel and its proxy threads (src/gproxy/gproxy.c) on
 * whatever libcuda.so.1 GDR_LIBCUDA names: the real driver on a GPU host (the
 * kernel itself), the CUDA driver double in `make check` (the protocol;
 * t_gproxy_double.sh). Skips (77) where no driver or GPU is present.
 *
 *   t_gproxy        null NIC: latency samples on both clocks, rate with 1..8
 *                   queues, windows and batches; a backend that records every
 *                   descriptor (each queue's in order, slot and length carried)
 *                   and completes them late, in bunches; a run "until
 *                   stopped" that the backend ends (-D); bad parameters
 *   t_gproxy stall  a backend that stops completing: the kernel's own bounded
 *                   wait ends the run (one line), within the timeout
 *   t_gproxy hang   a backend whose post does not return (a proxy thread that
 *                   stops): one line naming the proxy, within the timeout and
 *                   a little; the thread left behind is joined by close once
 *                   it returns
 *   t_gproxy nolaunch (GDR_DOUBLE_FAIL=launch) open fails, saying why (it proves
 *                   the kernel runs with one descriptor)
 *   t_gproxy stuck  (GDR_DOUBLE_FAIL=stuck:N) a kernel that stops producing: the
 *                   proxy says so, within the timeout, the stop goes unanswered
 *                   (bounded) and close does not wait a second time
 *   t_gproxy ping   two kernels' ping-pong (GDR_GP_PING) through two proxies whose
 *                   backend, a null NIC, writes each message's marker into the
 *                   peer's receive byte (mapped host memory): every marker in the
 *                   send byte before its descriptor, both sides' samples; then a
 *                   ping with no peer: the kernel's bounded wait names the message
 *   t_gproxy order  prints the GPU's GPUDirect RDMA write ordering as the proxy read it
 */
#include "config.h"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "clock.h"
#include "cuda_api.h"
#include "gp_null.h"
#include "gpu_alone.h"
#include "gproxy.h"
#include "log.h"
#include "mem.h"

#include "../unit/check.h"

#define WAIT_NS 3000000000ULL
#define SHORT	400000000ULL

static struct gdr_mem dev;

/* A backend that records what it is given and completes one post in `every` polls. */
struct rec {
	unsigned int slots;
	uint32_t len;
	uint64_t posted[GDR_GP_MAX_Q], completed[GDR_GP_MAX_Q], polls[GDR_GP_MAX_Q];
	uint64_t bad[GDR_GP_MAX_Q];
	unsigned int every;
	uint64_t stall_after; /* completions in all per queue, then none (0: never) */
};

static int rec_post(void *ctx, unsigned int q, const struct gdr_gp_desc *d)
{
	struct rec *r = ctx;
	uint64_t i = ++r->posted[q];

	if (d->seq != (uint32_t)i || d->idx != (i - 1) % r->slots || d->len != r->len || d->op)
		r->bad[q]++;
	return 0;
}

static int rec_poll(void *ctx, unsigned int q)
{
	struct rec *r = ctx;
	uint64_t k = r->posted[q] - r->completed[q];

	if (r->stall_after && r->completed[q] + k > r->stall_after)
		k = r->stall_after - r->completed[q];
	if (++r->polls[q] % r->every)
		return 0;
	r->completed[q] += k;
	return (int)k;
}

static struct gdr_gproxy *open_gp(uint64_t timeout_ns)
{
	struct gdr_gproxy *g;
	char why[256] = "";

	if (gdr_gproxy_open(&g, &dev, timeout_ns, why, sizeof(why))) {
		printf("  open: %s\n", why);
		gdr_gproxy_close(g);
		return NULL;
	}
	return g;
}

static void null_nic(struct gdr_gproxy *g)
{
	struct gdr_gp_params p = {
	    .mode = GDR_GP_LAT, .queues = 1, .n = 500, .window = 1, .batch = 1, .slots = 1};
	struct gdr_gp_result r;
	unsigned int q, w, b;

	CHECK(gdr_gproxy_run(g, &p, NULL, &r) == 0);
	CHECK(r.n == 500 && r.nlat == 499 && r.gpu && r.host);
	for (size_t i = 0; r.gpu && i < r.nlat; i++)
		CHECK(r.gpu[i] > 0 && r.host[i] > 0 && r.gpu[i] < WAIT_NS && r.host[i] < WAIT_NS,
		      "sample %zu: gpu %llu ns, host %llu ns", i, (unsigned long long)r.gpu[i],
		      (unsigned long long)r.host[i]);
	/* the same proxy runs again: the queues start clean */
	for (q = 1; q <= GDR_GP_MAX_Q; q *= 2)
		for (w = 1; w <= GDR_GP_RING; w *= 32)
			for (b = 1; b <= w && b <= 16; b *= 16) {
				p = (struct gdr_gp_params){.mode = GDR_GP_RATE,
							   .queues = q,
							   .n = 3000,
							   .window = w,
							   .batch = b,
							   .slots = 7};
				CHECK(gdr_gproxy_run(g, &p, NULL, &r) == 0 && r.n == 3000ULL * q &&
					  r.gpu_ns > 0 && r.host_ns > 0 && !r.gpu,
				      "rate: %u queues, window %u, batch %u", q, w, b);
			}
}

static void recorded(struct gdr_gproxy *g)
{
	struct rec rc = {.slots = 5, .len = 4096, .every = 3};
	struct gdr_gp_backend be = {.post = rec_post, .poll = rec_poll, .ctx = &rc};
	struct gdr_gp_params p = {.mode = GDR_GP_RATE,
				  .queues = 4,
				  .n = 5000,
				  .window = 64,
				  .batch = 8,
				  .slots = 5,
				  .len = 4096};
	struct gdr_gp_result r;

	CHECK(gdr_gproxy_run(g, &p, &be, &r) == 0);
	for (unsigned int q = 0; q < 4; q++)
		CHECK(rc.posted[q] == 5000 && rc.completed[q] == 5000 && !rc.bad[q],
		      "queue %u: %llu posted, %llu completed, %llu out of order or wrong", q,
		      (unsigned long long)rc.posted[q], (unsigned long long)rc.completed[q],
		      (unsigned long long)rc.bad[q]);
	memset(&rc, 0, sizeof(rc));
	rc = (struct rec){.slots = 1, .len = 8, .every = 1};
	p = (struct gdr_gp_params){.mode = GDR_GP_LAT,
				   .queues = 1,
				   .n = 200,
				   .window = 1,
				   .batch = 1,
				   .slots = 1,
				   .len = 8};
	CHECK(gdr_gproxy_run(g, &p, &be, &r) == 0 && rc.posted[0] == 200 && !rc.bad[0]);

	/* bad parameters: refused before any launch */
	p.window = 2;
	CHECK(gdr_gproxy_run(g, &p, NULL, &r) == -1, "latency with a window of 2");
	p = (struct gdr_gp_params){
	    .mode = GDR_GP_RATE, .queues = 9, .n = 10, .window = 4, .batch = 1, .slots = 1};
	CHECK(gdr_gproxy_run(g, &p, NULL, &r) == -1, "9 queues");
	p.queues = 1;
	p.batch = 5;
	CHECK(gdr_gproxy_run(g, &p, NULL, &r) == -1, "a batch larger than the window");
}

/*
 * A descriptor's two words arriving apart, seq's first (the double with
 * GDR_DOUBLE_TEAR_US=200: the other word after the proxy completed the
 * descriptor or 200 us): the proxy waits for word 0 and hands the backend only
 * whole descriptors, on the first lap (zeroed slots) and the later ones
 * (the previous lap's words), in rate and latency mode.
 */
static void tear(struct gdr_gproxy *g)
{
	struct rec rc = {.slots = 5, .len = 4096, .every = 1};
	struct gdr_gp_backend be = {.post = rec_post, .poll = rec_poll, .ctx = &rc};
	struct gdr_gp_params p = {.mode = GDR_GP_RATE,
				  .queues = 1,
				  .n = GDR_GP_RING + 8,
				  .window = 4,
				  .batch = 2,
				  .slots = 5,
				  .len = 4096};
	struct gdr_gp_result r;

	CHECK(gdr_gproxy_run(g, &p, &be, &r) == 0);
	CHECK(rc.posted[0] == p.n && !rc.bad[0],
	      "rate: %llu posted, %llu with another descriptor's fields",
	      (unsigned long long)rc.posted[0], (unsigned long long)rc.bad[0]);
	CHECK(r.torn > 0, "rate: no descriptor was read before its word 0 came (%llu)",
	      (unsigned long long)r.torn);
	rc = (struct rec){.slots = 1, .len = 8, .every = 1};
	p = (struct gdr_gp_params){.mode = GDR_GP_LAT,
				   .queues = 1,
				   .n = 20,
				   .window = 1,
				   .batch = 1,
				   .slots = 1,
				   .len = 8};
	CHECK(gdr_gproxy_run(g, &p, &be, &r) == 0 && rc.posted[0] == 20 && !rc.bad[0],
	      "latency: %llu posted, %llu with another descriptor's fields",
	      (unsigned long long)rc.posted[0], (unsigned long long)rc.bad[0]);
	CHECK(r.torn > 0, "latency: no descriptor read before its word 0 came");
	printf("  descriptors read before their word 0 came, read again: %llu (latency run)\n",
	       (unsigned long long)r.torn);
}

/* A run that must fail by the timeout's bound: -1, after SHORT and within a second more. */
static void fails_in_time(struct gdr_gproxy *g, const struct gdr_gp_params *p,
			  const struct gdr_gp_backend *be, struct gdr_gp_result *r)
{
	uint64_t t0 = gdr_now_ns(), dt;
	int rc_run = gdr_gproxy_run(g, p, be, r);

	dt = gdr_now_ns() - t0;
	CHECK(rc_run == -1 && dt >= SHORT && dt < SHORT + 1000000000ULL, "rc %d after %.3f s",
	      rc_run, (double)dt * 1e-9);
}

/* A backend that completes 10 descriptors, then none: the kernel's wait ends the run. */
static void stall(void)
{
	struct gdr_gproxy *g = open_gp(SHORT);
	struct rec rc = {.slots = 1, .every = 1, .stall_after = 10};
	struct gdr_gp_backend be = {.post = rec_post, .poll = rec_poll, .ctx = &rc};
	struct gdr_gp_params p = {
	    .mode = GDR_GP_LAT, .queues = 1, .n = 100, .window = 1, .batch = 1, .slots = 1};
	struct gdr_gp_result r;
	uint64_t t0;

	CHECK(g != NULL);
	if (!g)
		return;
	fails_in_time(g, &p, &be, &r);
	CHECK(rc.completed[0] == 10 && rc.posted[0] == 11);
	/* the kernel ended by itself: a later run on the same proxy works */
	rc = (struct rec){.slots = 1, .every = 1};
	CHECK(gdr_gproxy_run(g, &p, &be, &r) == 0 && rc.completed[0] == 100);
	t0 = gdr_now_ns();
	gdr_gproxy_close(g);
	CHECK(gdr_now_ns() - t0 < SHORT, "close waited on an ended kernel");
}

/* A backend that ends each queue's run after 300 completions (-D's deadline). */
static bool rec_ended(void *ctx, unsigned int q)
{
	struct rec *r = ctx;

	return r->completed[q] >= 300 && r->completed[q] == r->posted[q];
}

/* A run "until stopped" that the backend ends: no failure, the kernel stopped, reusable. */
static void ended_by_backend(struct gdr_gproxy *g)
{
	struct rec rc = {.slots = 3, .len = 64, .every = 2};
	struct gdr_gp_backend be = {
	    .post = rec_post, .poll = rec_poll, .ended = rec_ended, .ctx = &rc};
	struct gdr_gp_params p = {.mode = GDR_GP_RATE,
				  .queues = 2,
				  .n = UINT32_MAX - 1,
				  .window = 16,
				  .batch = 1,
				  .slots = 3,
				  .len = 64};
	struct gdr_gp_result r;
	uint64_t t0 = gdr_now_ns(), dt;

	CHECK(gdr_gproxy_run(g, &p, &be, &r) == 0 && r.n == 0);
	dt = gdr_now_ns() - t0;
	CHECK(dt < WAIT_NS, "ended after %.3f s", (double)dt * 1e-9);
	for (unsigned int q = 0; q < 2; q++)
		CHECK(rc.completed[q] >= 300 && rc.completed[q] < 300 + 16 + 64 && !rc.bad[q],
		      "queue %u: %llu completed", q, (unsigned long long)rc.completed[q]);
	/* the kernel was stopped, not hung: a counted run follows */
	rc = (struct rec){.slots = 3, .len = 64, .every = 1};
	be.ended = NULL;
	p.n = 500;
	CHECK(gdr_gproxy_run(g, &p, &be, &r) == 0 && r.n == 1000 && rc.completed[1] == 500);
}

/* A backend whose post of descriptor 11 blocks until released (or 10 s passed). */
static int hang_release;

static int hang_post(void *ctx, unsigned int q, const struct gdr_gp_desc *d)
{
	uint64_t t0 = gdr_now_ns();

	if (d->seq == 11)
		while (!__atomic_load_n(&hang_release, __ATOMIC_ACQUIRE) &&
		       gdr_now_ns() - t0 < 10000000000ULL)
			usleep(1000);
	return rec_post(ctx, q, d);
}

static void hang(void)
{
	struct gdr_gproxy *g = open_gp(SHORT);
	struct rec rc = {.slots = 1, .every = 1};
	struct gdr_gp_backend be = {.post = hang_post, .poll = rec_poll, .ctx = &rc};
	struct gdr_gp_params p = {
	    .mode = GDR_GP_RATE, .queues = 1, .n = 100, .window = 4, .batch = 1, .slots = 1};
	struct gdr_gp_result r;

	CHECK(g != NULL);
	if (!g)
		return;
	fails_in_time(g, &p, &be, &r);
	CHECK(rc.posted[0] == 10, "%llu posted", (unsigned long long)rc.posted[0]);
	/* while the thread is stuck, no new run */
	CHECK(gdr_gproxy_run(g, &p, &be, &r) == -1);
	__atomic_store_n(&hang_release, 1, __ATOMIC_RELEASE);
	usleep(100000);
	gdr_gproxy_close(g); /* joins the thread, which has returned */
}

/* GDR_DOUBLE_FAIL=stuck:N: the proxy's bounded wait, then close's. */
static void stuck(void)
{
	struct gdr_gproxy *g = open_gp(SHORT);
	struct gdr_gp_params p = {
	    .mode = GDR_GP_RATE, .queues = 1, .n = 100, .window = 16, .batch = 1, .slots = 1};
	struct gdr_gp_result r;
	uint64_t t0, dt;
	int rc;

	CHECK(g != NULL);
	if (!g)
		return;
	t0 = gdr_now_ns();
	rc = gdr_gproxy_run(g, &p, NULL, &r);
	dt = gdr_now_ns() - t0;
	/* the proxy's silence (SHORT), then the stop that goes unanswered (SHORT) */
	CHECK(rc == -1 && dt >= 2 * SHORT && dt < 2 * SHORT + 1000000000ULL, "rc %d after %.3f s",
	      rc, (double)dt * 1e-9);
	t0 = gdr_now_ns();
	gdr_gproxy_close(g);
	dt = gdr_now_ns() - t0;
	CHECK(dt < SHORT / 2, "close waited again for a kernel found hung: %.3f s",
	      (double)dt * 1e-9);
}

/*
 * Ping: the null NIC (gp_null.h), which delivers each message by writing its
 * marker into the peer's receive byte, behind a check that the marker is in
 * this side's send byte when the descriptor comes (the kernel's release
 * before the descriptor).
 */
struct pinger {
	struct gdr_gproxy *g;
	volatile uint8_t *rx, *tx; /* host views of this side's bytes */
	struct pinger *peer;
	uint64_t rx_d, tx_d; /* their device addresses */
	struct gdr_gp_null nic;
	struct gdr_gp_backend null; /* over nic */
	uint64_t bad;
	bool first;
	int rc;
	struct gdr_gp_result r;
	unsigned int n;
};

static int ping_post(void *ctx, unsigned int q, const struct gdr_gp_desc *d)
{
	struct pinger *p = ctx;
	uint8_t mark = GDR_GP_MARK(d->seq);

	if (d->seq != (uint32_t)(p->nic.posted + 1) || d->idx || d->len != 64 || *p->tx != mark)
		p->bad++;
	return p->null.post(&p->nic, q, d);
}

static int ping_poll(void *ctx, unsigned int q)
{
	struct pinger *p = ctx;

	return p->null.poll(&p->nic, q);
}

static void *ping_thread(void *arg)
{
	struct pinger *p = arg;
	struct gdr_gp_backend be = {.post = ping_post, .poll = ping_poll, .ctx = p};
	struct gdr_gp_params gp = {.mode = GDR_GP_PING,
				   .queues = 1,
				   .n = p->n,
				   .window = 4,
				   .batch = 1,
				   .slots = 1,
				   .len = 64,
				   .rx = p->rx_d,
				   .tx = p->tx_d,
				   .first = p->first};

	p->nic.peer_rx = p->peer->rx;
	p->null = gdr_gp_null_backend(&p->nic);
	p->rc = gdr_gproxy_run(p->g, &gp, &be, &p->r);
	return NULL;
}

/* Two bytes per side in mapped host memory: its receive byte and its send byte. */
static void ping_bytes(struct pinger *p, uint8_t *h, CUdeviceptr d)
{
	p->rx = h;
	p->tx = h + 1;
	p->rx_d = d;
	p->tx_d = d + 1;
}

static void ping(const struct gdr_cuda_api *cu)
{
	struct pinger a = {.first = true, .n = 1000}, b = {.n = 1000};
	CUcontext ctx;
	CUdeviceptr d;
	void *h = NULL;
	pthread_t ta, tb;
	char why[256];
	uint64_t t0, dt;

	a.peer = &b;
	b.peer = &a;
	a.g = open_gp(WAIT_NS);
	b.g = open_gp(WAIT_NS);
	CHECK(a.g && b.g && gdr_mem_cuda_use(&dev, &cu, &ctx, why, sizeof(why)) == 0 &&
	      cu->cuCtxSetCurrent(ctx) == CUDA_SUCCESS &&
	      cu->cuMemHostAlloc(&h, 4096, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE) ==
		  CUDA_SUCCESS &&
	      cu->cuMemHostGetDevicePointer(&d, h, 0) == CUDA_SUCCESS);
	if (failures)
		goto out;
	memset(h, 0, 4096);
	ping_bytes(&a, h, d);
	ping_bytes(&b, (uint8_t *)h + 64, d + 64);
	CHECK(pthread_create(&tb, NULL, ping_thread, &b) == 0);
	CHECK(pthread_create(&ta, NULL, ping_thread, &a) == 0);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	CHECK(a.rc == 0 && b.rc == 0 && a.nic.posted == 1000 && b.nic.posted == 1000 && !a.bad &&
		  !b.bad,
	      "ping: rc %d/%d, %llu/%llu posted, %llu/%llu without their marker", a.rc, b.rc,
	      (unsigned long long)a.nic.posted, (unsigned long long)b.nic.posted,
	      (unsigned long long)a.bad, (unsigned long long)b.bad);
	CHECK(a.r.nlat == 999 && a.r.gpu && a.r.host);
	for (size_t i = 0; !a.rc && i < a.r.nlat; i++)
		CHECK(a.r.gpu[i] > 0 && a.r.host[i] > 0 && a.r.gpu[i] < WAIT_NS &&
			  a.r.host[i] < WAIT_NS,
		      "round trip %zu: gpu %llu ns, host %llu ns", i,
		      (unsigned long long)a.r.gpu[i], (unsigned long long)a.r.host[i]);
	/* no peer: the first side's kernel waits for the reply to message 1, bounded */
	memset(h, 0, 4096);
	gdr_gproxy_close(b.g);
	b = (struct pinger){.g = open_gp(SHORT), .first = true, .n = 100, .peer = &a};
	CHECK(b.g != NULL);
	if (!b.g)
		goto out;
	ping_bytes(&b, (uint8_t *)h + 64, d + 64);
	t0 = gdr_now_ns();
	ping_thread(&b);
	dt = gdr_now_ns() - t0;
	CHECK(b.rc == -1 && b.nic.posted == 1 && dt >= SHORT && dt < SHORT + 1000000000ULL,
	      "no peer: rc %d, %llu posted, %.3f s", b.rc, (unsigned long long)b.nic.posted,
	      (double)dt * 1e-9);
out:
	if (h)
		cu->cuMemFreeHost(h);
	gdr_gproxy_close(a.g);
	gdr_gproxy_close(b.g);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	const struct gdr_cuda_api *cu;
	struct gdr_mem_cfg mc = {.gpu = 0};
	struct gdr_gproxy *g;
	char why[256];

	gdr_set_prog("t_gproxy");
	if (gdr_cuda_load(&cu, why, sizeof(why))) {
		printf("skip: %s\n", why);
		return 77;
	}
	gpu_alone(); /* gpu_alone.h: no other real-driver kernel test beside it */
	CHECK(gdr_mem_cuda_init(&dev, &mc, NULL) == 0 && dev.ops->alloc(&dev, 4096) == 0);
	if (failures)
		return 1;
	printf("t_gproxy on %s\n", dev.desc);
	if (!strcmp(mode, "stall")) {
		stall();
	} else if (!strcmp(mode, "hang")) {
		hang();
	} else if (!strcmp(mode, "stuck")) {
		stuck();
	} else if (!strcmp(mode, "tear")) {
		g = open_gp(WAIT_NS);
		CHECK(g != NULL);
		if (g)
			tear(g);
		gdr_gproxy_close(g);
	} else if (!strcmp(mode, "ping")) {
		ping(cu);
	} else if (!strcmp(mode, "order")) {
		g = open_gp(WAIT_NS);
		CHECK(g != NULL);
		printf("GPUDirect RDMA write ordering %d\n", gdr_gproxy_nic_order(g));
		gdr_gproxy_close(g);
	} else if (!strcmp(mode, "nolaunch")) {
		why[0] = 0;
		g = NULL;
		CHECK(gdr_gproxy_open(&g, &dev, SHORT, why, sizeof(why)) == -1 &&
			  strstr(why, "cuLaunchKernel(" GDR_GP_KERNEL ")"),
		      "open with a launch that fails: %s", why);
		gdr_gproxy_close(g);
	} else {
		g = open_gp(WAIT_NS);
		CHECK(g != NULL);
		if (g) {
			null_nic(g);
			recorded(g);
			ended_by_backend(g);
			gdr_gproxy_close(g);
		}
	}
	gdr_mem_fini(&dev);
	printf("t_gproxy: %s\n", failures ? "FAILED" : "all checks passed");
	return failures ? 1 : 0;
}
