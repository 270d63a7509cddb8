/* SPDX-License-Identifier: MIT */
/*
 * Counters around a test (-W): the RDMA port's counters and hw_counters
 * (sysfs /sys/class/infiniband/DEV/ports/N/{counters,hw_counters}) and the
 * PCIe AER counters of the device's PCI function (DEV/device/aer_dev_*) and,
 * with GPU memory, of the GPU's (bus/pci/devices/BDF/aer_dev_*), read before
 * and after, and the ones that moved. GDR_SYSFS_ROOT replaces
 * /sys (tests read a fixture folder).
 */
#ifndef GDR_COUNTERS_H
#define GDR_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GDR_CNT_MAX  256
#define GDR_CNT_NAME 64

struct gdr_cnt {
	char name[GDR_CNT_NAME]; /* "port_rcv_errors", "rcvd_pkts" (hw), "aer:RxErr" */
	char file[GDR_CNT_NAME]; /* the file or AER line it came from: "port_xmit_data" */
	uint64_t v;		 /* data counters in bytes ("port_xmit_data_bytes") */
	uint64_t max;		 /* where it stops counting (IB PortCounters saturate), 0 = never */
	bool hw;		 /* from hw_counters/ (mlx5's are 32-bit and wrap) */
	bool sat;		 /* it sits at max: it counts no more until reset */
};

struct gdr_cnt_snap {
	int n;
	struct gdr_cnt c[GDR_CNT_MAX];
	char unreadable[256]; /* what could not be read: "hw_counters (Permission denied)" */
};

/*
 * One counter that moved, is saturated or was asked for: after - before
 * (negative when it was reset; a 32-bit hw counter that wrapped is counted
 * across the wrap).
 */
struct gdr_cnt_delta {
	char name[GDR_CNT_NAME];
	int64_t d;
	uint64_t max;	 /* sat: the value it sits at (65535, 255, 15 ...) */
	bool sat;	 /* at its maximum after the size: moves no more, errors hide */
	bool wrapped;	 /* a 32-bit hw counter wrapped during the size */
	bool hw32;	 /* a hw counter within 32 bits at both reads: it may be a 32-bit one */
	bool multi_wrap; /* hw32, and the row could count 2^32 or more: whole wraps may hide */
};

/*
 * Reads every counter of dev's port; what cannot be read is named in
 * s->unreadable (the rest is still read). 0, or -1 when nothing was readable.
 */
int gdr_counters_read(struct gdr_cnt_snap *s, const char *dev, int port);

/* Adds the GPU's PCIe AER counters ("gpu_aer:RxErr"; none where the kernel shows none). */
void gdr_counters_read_gpu(struct gdr_cnt_snap *s, const char *bdf);

/*
 * The counters that differ between a and b (same name in both) or sit at
 * their maximum in b, at most max; returns the count.
 */
int gdr_counters_delta(const struct gdr_cnt_snap *a, const struct gdr_cnt_snap *b,
		       struct gdr_cnt_delta *d, int max);
/*
 * With list (perftest's -W LIST: "counters/port_xmit_data,hw_counters/NAME",
 * a folder optional): those counters only, moved or not. NULL = as above.
 */
int gdr_counters_delta_list(const struct gdr_cnt_snap *a, const struct gdr_cnt_snap *b,
			    const char *list, struct gdr_cnt_delta *d, int max);
/* The entries of list that s lacks, "a, b" into buf; returns how many. */
int gdr_counters_missing(const struct gdr_cnt_snap *s, const char *list, char *buf, size_t len);

/*
 * A 32-bit hw counter counts one wrap at most (mlx5's Q counters at 10 M/s
 * wrap every 7 min): marks multi_wrap on each hw32 delta of d when events,
 * the most the row can have counted between the reads (its packet rate x the
 * time between them), reaches 2^32. Returns how many it marked.
 */
int gdr_counters_wrap_risk(struct gdr_cnt_delta *d, int n, double events);

/*
 * "rcvd_pkts +1200, out_of_seq_request +3" ("" when n == 0; "..." when cut);
 * "symbol_error saturated at 65535 (...)", "out_of_sequence +7 (32-bit wrap)",
 * "rx_write_requests +9 (32-bit: may have wrapped more than once, ...)".
 */
void gdr_counters_format(const struct gdr_cnt_delta *d, int n, char *buf, size_t len);

/* The port's rate from sysfs (ports/N/rate, "10 Gb/sec (1X FDR10)") in Gb/s; 0 unknown. */
double gdr_port_rate_sysfs(const char *dev, int port);

#endif
