/* SPDX-License-Identifier: MIT */
/*
 * --matrix's two directions of a cell (docs/matrix.md). A cell is one GPU and one NIC port in
 * loopback, so one side's memory is the GPU and the other side's host memory: d2h, GPU ->
 * host memory (the NIC reads the GPU: a sender's figure); h2d, host memory -> GPU (the NIC
 * writes it: a receiver's figure). Pure: no process, no device.
 */
#ifndef GDR_MATRIX_DIR_H
#define GDR_MATRIX_DIR_H

#include <stdbool.h>
#include "opts.h"

enum mx_dir { MX_D2H, MX_H2D, MX_NDIR };

/* Where a cell's packets turn: the rows' loopback field, and the header's words. */
#define GDR_MATRIX_LOOPBACK	 "inside the NIC, not the wire"
#define GDR_MATRIX_LOOPBACK_SAYS "loopback: " GDR_MATRIX_LOOPBACK

/* "d2h", "h2d"; and what it means ("GPU -> host memory (the NIC reads the GPU)"). */
const char *mx_dir_name(int d);
const char *mx_dir_says(int d);
/* Whether direction d runs under --matrix_dir (enum gdr_matrix_dir). */
bool mx_dir_runs(int asked, int d);
/*
 * Whether the GPU is the client's memory in direction d of verb (else the server's): the
 * data leaves the client for write and send, the server for read.
 */
bool mx_gpu_on_client(enum gdr_verb verb, int d);
/*
 * The pairing's figure of a cell from its directions' figures fig[d] (0: did not run): the
 * direction asked, or with both the smaller (a direction that did not run is the smaller);
 * *which: that direction.
 */
double mx_dir_figure(const double fig[MX_NDIR], int asked, int *which);

#endif
