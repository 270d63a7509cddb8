/* SPDX-License-Identifier: MIT */
/* Findings of gdr_doctor, grouped by check, printed as text or JSON. */
#ifndef GDR_DOCTOR_OUT_H
#define GDR_DOCTOR_OUT_H

#include <stdio.h>

enum out_level { OUT_INFO, OUT_OK, OUT_WARN, OUT_FAIL };

struct out_item {
	int group; /* index into out.groups */
	enum out_level level;
	char id[32]; /* stable check name for machines: "rdma.port" */
	char *text;  /* what was found */
	char *next;  /* what to do, or NULL */
};

struct out_pair {
	char gpu[24];
	int gpu_index;
	char nic[64];	/* or the peer GPU's PCI address (peer_index >= 0) */
	int peer_index; /* -1: a GPU-NIC pair; else a GPU-GPU link */
	char rel[8];
};

#define OUT_MAX_GROUPS 16

struct out {
	const char *groups[OUT_MAX_GROUPS];
	int ngroups;
	int cur;
	struct out_item *items;
	int nitems, cap;
	struct out_pair *pairs;
	int npairs, pcap;
};

void out_init(struct out *o);
void out_free(struct out *o);

/* Start (or return to) a group; later items belong to it. */
void out_group(struct out *o, const char *title);

/* Add a finding; next may be NULL. */
void out_add(struct out *o, enum out_level level, const char *id, const char *next, const char *fmt,
	     ...) __attribute__((format(printf, 5, 6)));

/* Record one GPU x RDMA device relation (for --json). */
void out_pair(struct out *o, const char *gpu, int gpu_index, const char *nic, const char *rel);

/* Record one GPU x GPU link (nvidia-smi topo -m word) for --json. */
void out_link(struct out *o, const char *gpu, int gpu_index, const char *peer, int peer_index,
	      const char *link);

/* Number of findings at a level. */
int out_count(const struct out *o, enum out_level level);

const char *out_level_name(enum out_level level);

void out_print_text(const struct out *o, FILE *f, const char *header);
void out_print_json(const struct out *o, FILE *f, const char *host, const char *version);
/* Prometheus text to path (temporary file, then rename): 0, or -1 with an error printed. */
int out_write_prom(const struct out *o, const char *path, const char *host);

#endif
