/* SPDX-License-Identifier: MIT */
/*
 * The transport seam: what the engine, staging and the driver ask of a
 * network, as one ops table per transport chosen by name (--transport=).
 * Verbs is one implementation (transport/verbs), libfabric another
 * (transport/ofi), "loop" a third that needs no NIC (tests and make check).
 *
 * Memory exports itself (struct gdr_xmem: an address and its kind, or a
 * dma-buf fd and offset); the transport registers it. Peers exchange an
 * opaque endpoint address (<= GDR_XADDR_MAX bytes) and a 64-bit key per
 * registered region. The hot path costs what a hand-written verbs loop
 * costs: the operations of a size are built once (prep) into a ring, a post
 * names ring entries and patches only which are signalled (and the last
 * one's marker), completions come back as struct gdr_xcqe.
 *
 * Adding a transport: a table of these functions in its own folder, its
 * row in xport.c's registry, its option rows; docs/ARCHITECTURE.md.
 * No header of a NIC API (verbs, libfabric) is included above this line.
 */
#ifndef GDR_XPORT_H
#define GDR_XPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "xmem.h"

struct gdr_xdom; /* an opened device (verbs: context, PD, CQs; ofi: fabric, domain, CQs, AV) */
struct gdr_xep;	 /* one endpoint (verbs: a QP; ofi: an endpoint; loop: a mailbox) */
struct gdr_xmr;	 /* one registered region */

/* What a transport can do (caps). */
#define GDR_XC_WRITE (1u << 0)	    /* one-sided write */
#define GDR_XC_READ (1u << 1)	    /* one-sided read */
#define GDR_XC_SEND (1u << 2)	    /* two-sided send/receive */
#define GDR_XC_WRITE_DATA (1u << 3) /* write with 32 bits of remote completion data */
#define GDR_XC_ATOMIC (1u << 4)	    /* 64-bit fetch-and-add and compare-and-swap */
#define GDR_XC_HMEM (1u << 5)	    /* registers GPU memory by address */
#define GDR_XC_DMABUF (1u << 6)	    /* registers GPU memory by dma-buf fd */
#define GDR_XC_INLINE (1u << 7)	    /* small payloads copied at post time */
#define GDR_XC_EVENTS (1u << 8)	    /* wait() sleeps on a completion event */

/* Memory as memory exports it (struct gdr_xmem, memory/xmem.h): the transport registers it. */

/* Access a registration grants (a role's: role.c). */
#define GDR_XA_LOCAL_WRITE (1u << 0)
#define GDR_XA_REMOTE_WRITE (1u << 1)
#define GDR_XA_REMOTE_READ (1u << 2)
#define GDR_XA_REMOTE_ATOMIC (1u << 3)

/* The link as the transport knows it: ceilings and verdicts are computed from these. */
struct gdr_xlink {
	char dev[64];		  /* "mlx5_0", "rxe0", "efa_0", "lo" */
	char layer[24];		  /* "InfiniBand", "Ethernet", "tcp", "shm", "loop" */
	double rate_gbps;	  /* one direction's data rate (0: unknown) */
	uint32_t mtu;		  /* payload bytes per packet (0: none) */
	uint32_t wire_overhead;	  /* header bytes the wire adds per packet */
	char wire[128];		  /* what they are, "RoCE: preamble+SFD+IFG 20, ..." ("" unsaid) */
	char pci[32];		  /* the device's PCI address, "" none */
	char what_ran[256];	  /* for the header: "device RMA", "emulated RMA", "P2P", ... */
	char provider[48];	  /* ofi: the fabric provider as opened, "tcp;ofi_rxm"; "" others */
	unsigned int caps;	  /* what the opened device can do: ops->caps less what it lacks
				     (ofi: HMEM, dma-buf where the provider has no FI_HMEM) */
};

/* One operation a requester posts. Offsets are into the local region (mr) and the peer's. */
enum gdr_xop_kind {
	GDR_XOP_WRITE = 0,
	GDR_XOP_WRITE_DATA, /* write, then a receive completion at the peer carrying data */
	GDR_XOP_READ,
	GDR_XOP_SEND,
	GDR_XOP_SEND_DATA, /* send whose receive completion carries data */
	GDR_XOP_FADD,	   /* 8 bytes at roff += add; the old value to loff */
	GDR_XOP_CSWAP,	   /* 8 bytes at roff: if == cmp then swap; the old value to loff */
};
struct gdr_xop {
	uint8_t kind;	/* enum gdr_xop_kind */
	bool inline_ok; /* the payload may be copied at post time (INLINE cap; len small) */
	uint32_t len;
	uint64_t loff, roff;
	uint32_t data; /* *_DATA: the peer's completion data */
	bool rkey_set; /* roff lies in the peer's region of key rkey (a part of its region
			* registered on its own), not the path's region */
	uint64_t rkey;
	uint64_t cmp, add_swap; /* atomics */
	/* write or read, nsge >= 2 (--sge): len bytes at roff, the remote side one range, the
	 * local side nsge entries of len / nsge bytes, entry i at loff + i x sge_stride */
	uint16_t nsge; /* 0 or 1: one local range of len bytes at loff */
	uint64_t sge_stride;
};
#define GDR_XOP_MAX_SGE 32 /* nsge at most (the device's max_sge may allow fewer) */

/* A completion. ctx: what the signalled post or the receive was given. */
#define GDR_XCQE_RECV (1u << 0) /* a receive (or a write's remote data) */
#define GDR_XCQE_DATA (1u << 1) /* data is valid */
struct gdr_xcqe {
	uint64_t ctx;
	uint32_t len;
	uint32_t data;
	uint16_t flags;
	int16_t status; /* 0 ok; else failed: ops->cqe_error says why in one line */
	uint16_t ep;	/* index of the endpoint it came from (gdr_xep_cfg.index) */
};

/* Which completions a poll reaps. */
enum gdr_xcq { GDR_XCQ_SEND = 0, GDR_XCQ_RECV = 1 };

/* How to open a device: the options in the transport's terms. */
struct gdr_xdom_cfg {
	const char *dev;      /* -d (NULL: the first, or the one -x/--provider implies) */
	const char *provider; /* --provider: a libfabric provider by name (NULL: its first) */
	int port;	      /* -i (0: the transport's default) */
	const void *opts;     /* the run's struct gdr_opts, read by the transport's own rows */
	uint32_t cq_depth;    /* completions each CQ must hold */
	uint32_t neps;	      /* endpoints per path x paths, for sizing */
	bool events;	      /* -e: wait() sleeps on events */
};

/* One endpoint: a QP or its equivalent. */
struct gdr_xep_cfg {
	uint16_t index;	   /* reported in gdr_xcqe.ep */
	uint32_t tx_depth; /* operations in flight */
	uint32_t rx_depth; /* receives posted */
	uint32_t max_inline;
	uint32_t max_rd_atomic; /* reads/atomics in flight (verbs: initiator depth) */
};

/* The peer's region on a path, from the exchange. */
struct gdr_xremote {
	uint64_t addr; /* the peer's region start as its transport names it (offsets add to it) */
	uint64_t len;
	uint64_t key;
};

#define GDR_XADDR_MAX 128 /* an endpoint's address blob */
#define GDR_XNODEV 2 /* open returns -GDR_XNODEV: this host has no such device or provider */
#define GDR_XP_LAST (1u << 0) /* post: the last entry carries `last_data` (a send becomes SEND_DATA) */

struct gdr_xport_ops {
	const char *name; /* "verbs", "ofi", "loop" */
	unsigned int caps;

	/* 0; -1 on failure, -GDR_XNODEV when the host lacks it (a test skips): one line. */
	int (*open)(struct gdr_xdom **d, const struct gdr_xdom_cfg *cfg, struct gdr_xlink *link);
	void (*close)(struct gdr_xdom *d);

	/* Register m for the access bits; one line (cause and fix) and -1 on failure. */
	int (*reg)(struct gdr_xdom *d, const struct gdr_xmem *m, unsigned int access,
		   struct gdr_xmr **mr, const char **method /* "host", "dma-buf", "peermem" */);
	uint64_t (*key)(const struct gdr_xmr *mr); /* what the peer names it by */
	void (*dereg)(struct gdr_xmr *mr);

	int (*ep_open)(struct gdr_xdom *d, const struct gdr_xep_cfg *cfg, struct gdr_xep **ep);
	/* This endpoint's address into buf (<= cap bytes): its length, 0 on error. */
	size_t (*addr)(struct gdr_xep *ep, void *buf, size_t cap);
	/* Connect to the peer's endpoint at blob, whose region is rem. */
	int (*connect)(struct gdr_xep *ep, const void *blob, size_t len,
		       const struct gdr_xremote *rem);
	void (*ep_close)(struct gdr_xep *ep);

	/*
	 * The hot path. prep: the size's ring of n operations on mr (once per
	 * size). post: ring entries first..first+n-1 (modulo n_ring), in one
	 * doorbell where the transport can; sig[k] != 0 signals entry k and is
	 * its completion's ctx. post_op: one operation outside the ring, signalled
	 * when ctx != 0 (ctx 0: no completion unless it fails).
	 */
	int (*prep)(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *ops, uint32_t n);
	int (*post)(struct gdr_xep *ep, uint32_t first, uint32_t n, const uint64_t *sig,
		    unsigned int flags, uint32_t last_data);
	int (*post_op)(struct gdr_xep *ep, struct gdr_xmr *mr, const struct gdr_xop *op,
		       uint64_t ctx);
	/* n receives of len bytes at off of mr, each completing with ctx. */
	int (*post_recv)(struct gdr_xep *ep, struct gdr_xmr *mr, uint64_t off, uint32_t len,
			 uint32_t n, uint64_t ctx);
	/* Up to max completions of cq: how many (0 none), -1 on a poll error (printed). */
	int (*poll)(struct gdr_xdom *d, enum gdr_xcq cq, struct gdr_xcqe *e, int max);
	/* Sleep until a completion may be there or max_ms passed (NULL: the caller spins). */
	int (*wait)(struct gdr_xdom *d, int max_ms);
	/* One line for a failed completion (its status), -1. */
	int (*cqe_error)(struct gdr_xdom *d, const struct gdr_xcqe *e, const char *what);
};

/* The registry (xport.c): a transport by name, NULL when there is none by that name. */
const struct gdr_xport_ops *gdr_xport_find(const char *name);
/* The names this build has, "verbs, ofi, loop", for --help and errors. */
const char *gdr_xport_names(void);
/* xp runs the test programs through its ops (driver/path_xport.c): every transport but verbs. */
bool gdr_xport_via_ops(const struct gdr_xport_ops *xp);

#endif
