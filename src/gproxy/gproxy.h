/* SPDX-License-Identifier: MIT */
/*
 * The gpu-proxy path's engine room: a persistent kernel (gp_kernel.cu) that
 * writes a descriptor per message into queues in mapped pinned host memory
 * (gp_proto.h), and one CPU proxy thread per queue that takes each
 * descriptor, hands it to a backend (post the prebuilt work request; poll its
 * completions) and writes the completions back where the kernel waits for
 * them. With no backend the proxy completes each descriptor as it takes it:
 * the null NIC, which times the kernel -> proxy -> kernel leg alone
 * (gdr_proxy_bw).
 *
 * Open it on GPU memory (the CUDA backend: its context), run it, close it
 * before that memory is freed (cuMemFree waits for running kernels).
 * GDR_GP_PTX=FILE: load that PTX instead of the embedded one (kernel
 * development: scripts/gpu/proxy-null.sh measures a variant without a rebuild).
 */
#ifndef GDR_GPROXY_H
#define GDR_GPROXY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gp_proto.h"
#include "mem.h"

/* What the proxy thread of queue q does with the descriptors it takes. */
struct gdr_gp_backend {
	/* Post descriptor d. 0, or -1 (printed). */
	int (*post)(void *ctx, unsigned int q, const struct gdr_gp_desc *d);
	/* Completions of queue q since the last call, in order: a count, or -1 (printed). */
	int (*poll)(void *ctx, unsigned int q);
	/*
	 * NULL, or: has queue q's run ended on the backend's side (a deadline
	 * passed, what was posted completed)? Then its proxy thread takes no more
	 * descriptors and ends, and once every queue has, the kernel is stopped:
	 * a run of n "until stopped" (-D). Called after each poll.
	 */
	bool (*ended)(void *ctx, unsigned int q);
	/*
	 * NULL, or called by the run's own thread about every 10 ms while the
	 * proxy threads run (a deadline, a heartbeat: nothing in the proxies'
	 * loop reads a clock for it). 0, or -1 (printed): the run fails.
	 */
	int (*tick)(void *ctx);
	void *ctx;
};

struct gdr_gp_params {
	unsigned int mode;   /* GDR_GP_LAT or GDR_GP_RATE */
	unsigned int queues; /* kernel producers and proxy threads, 1..GDR_GP_MAX_Q */
	unsigned int n;	     /* descriptors per queue */
	unsigned int window; /* rate: outstanding at most, 1..GDR_GP_RING */
	unsigned int batch;  /* rate: descriptors after one fence, 1..window */
	unsigned int slots;  /* messages' slots: descriptor i names slot (i - 1) % slots */
	uint32_t len;	     /* each message's bytes (carried in the descriptor) */
	/* GDR_GP_PING (one queue, batch 1): the slots' last bytes (device addresses), who starts */
	uint64_t rx, tx;
	bool first;
};

struct gdr_gp_result {
	uint64_t n;	  /* descriptors completed, every queue (0: ended by the backend) */
	uint64_t gpu_ns;  /* globaltimer: the first queue's start to the last queue's end */
	uint64_t host_ns; /* host clock: the first descriptor taken to the last completion */
	/*
	 * Latency mode, queue 0's, each lat.n - 1 long: gpu[i] the kernel's time
	 * (globaltimer) of descriptor i + 2 from before its fence to its
	 * completion seen; host[i] the proxy's time (host clock) between writing
	 * the completion of descriptor i + 1 and of i + 2, one whole round trip
	 * (latency mode has one descriptor outstanding). Ping mode: gpu[i] the
	 * kernel's time for message i + 2 (first: its round trip), host[i] the
	 * proxy's between taking descriptors i + 1 and i + 2 (one round trip).
	 * Owned by the proxy, valid until the next run or close.
	 */
	const uint64_t *gpu, *host;
	size_t nlat;
	/* reads of a descriptor whose seq had come and its word 0 not yet (read again) */
	uint64_t torn;
};

struct gdr_gproxy;

/*
 * Load the kernel into the context of GPU memory m, map the queues and
 * prove the kernel runs (one descriptor). timeout_ns bounds every wait of
 * the kernel and of the host (0: 5 s). 0, or -1 with the reason in why
 * (*out is then still to be closed).
 */
int gdr_gproxy_open(struct gdr_gproxy **out, struct gdr_mem *m, uint64_t timeout_ns, char *why,
		    size_t n);
/*
 * One run: launch the kernel, serve its queues with p->queues proxy
 * threads through be (NULL: the null NIC), wait for both (bounded). 0, or
 * -1 (printed: a kernel that stopped, a proxy or backend that stopped). A
 * proxy thread inside one backend call for longer than the timeout is left
 * behind (said once; be->ctx must outlive it): runs are refused, and close
 * frees nothing, until it has returned.
 */
int gdr_gproxy_run(struct gdr_gproxy *g, const struct gdr_gp_params *p,
		   const struct gdr_gp_backend *be, struct gdr_gp_result *r);
/*
 * The GPU's CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING (0, NONE,
 * where the driver cannot say): below OWNER the kernel may see a NIC-written
 * byte before the bytes the NIC wrote ahead of it (docs/compare.md).
 */
int gdr_gproxy_nic_order(const struct gdr_gproxy *g);
#define GDR_GP_NIC_ORDER_OWNER 100 /* CU_GPU_DIRECT_RDMA_WRITES_ORDERING_OWNER */
/*
 * The kernel's own descriptor rate (messages/s on the GPU's clock) with the
 * null NIC (the proxy completes each descriptor as it takes it), queues
 * producers, at most window outstanding, one fence per descriptor (batch 1:
 * the bandwidth rows' shape): what bounds a gpu-proxy row whatever the NIC.
 * Measured once per shape (5,000 descriptors a queue) and kept; 0 when the
 * run failed (printed).
 */
double gdr_gproxy_kernel_rate(struct gdr_gproxy *g, unsigned int queues, unsigned int window);
/* A proxy thread is left stuck in its backend (gdr_gproxy_run): keep what it may use. */
bool gdr_gproxy_stuck(const struct gdr_gproxy *g);
/* Stop the kernel if it still runs (bounded) and free what open made. */
void gdr_gproxy_close(struct gdr_gproxy *g);

#endif
