/* SPDX-License-Identifier: MIT */
/*
 * --matrix (docs/matrix.md): every local GPU with every NIC port it names, one
 * cell at a time, each a loopback pair through that NIC (the --rails
 * machinery: a server and a client process, rows up a pipe) running the
 * test's verb from GPU memory on the host, direct and staged paths, each
 * --matrix_time seconds. Then the GPU x NIC matrix in GB/s with each cell's
 * PCIe relation, the measured pairing (assign.h), one line per pair the
 * topology ranks the other way, the pairing rule's choice beside the measured
 * one; --matrix_shared adds every GPU through each NIC at once (and each GPU
 * through every NIC) against the ports' rate. Rows go through the reporters
 * (CSV, JSON, Prometheus); --pairing=FILE keeps the pairing for
 * --use_cuda=auto. Without an ACTIVE RDMA port it measures what can run: the
 * copy leg of the staged path per GPU and on every GPU at once (gdr_stage_bw),
 * and says the NIC columns did not run.
 */
#ifndef GDR_MATRIX_H
#define GDR_MATRIX_H

#include "opts.h"

#define GDR_MATRIX_TOL 0.05 /* figures within 5% of each other tie */

/* A GDR_EXIT_* status (base/exitcode.h). */
int gdr_matrix_main(const struct gdr_opts *o, const struct gdr_test *t);

#endif
