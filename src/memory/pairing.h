/* SPDX-License-Identifier: MIT */
/*
 * The pairing file: the GPU-NIC pairing --matrix measured (--pairing=FILE),
 * read back by --use_cuda=auto in place of the pairing rule. Lines starting
 * with '#' say where it came from; then one pair a line:
 *   GPU-PCI-ADDRESS NIC:PORT DIRECT-GB/s
 *   0000:3b:00.0 mlx5_1:1 48.20
 */
#ifndef GDR_PAIRING_H
#define GDR_PAIRING_H

#include <stddef.h>

struct gdr_pairing_row {
	char gpu[32]; /* "0000:3b:00.0" */
	char nic[64];
	int port;
	double gbps; /* the pair's direct figure, GB/s (10^9 bytes/s); 0 not measured */
};

/* Writes rows[0..n) after the comment lines of about (may hold '\n'). 0, or -1 (printed). */
int gdr_pairing_write(const char *file, const char *about, const struct gdr_pairing_row *rows,
		      int n);

/*
 * Whether file can be written, asked before a --matrix run spends its time: a file that did
 * not exist is left absent. 0, or -1 (printed).
 */
int gdr_pairing_writable(const char *file);

/*
 * The row of file that pairs port port of NIC dev (port 0: any, the first line naming
 * dev) into *row: 1 found, 0 the file names no such NIC and port, -1 unreadable or
 * malformed (why says which line). A dual-port NIC's ports may pair with different GPUs.
 */
int gdr_pairing_find(const char *file, const char *dev, int port, struct gdr_pairing_row *row,
		     char *why, size_t n);

#endif
