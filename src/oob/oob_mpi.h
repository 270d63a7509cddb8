/* SPDX-License-Identifier: MIT */
/* Out-of-band channel over MPI point-to-point messages (cluster mode). */
#ifndef GDR_OOB_MPI_H
#define GDR_OOB_MPI_H

#include <mpi.h>
#include <stdint.h>
#include "oob.h"

/*
 * Talk to rank peer of comm with messages of tag tag (one tag per round, so
 * a late message of a timed-out pair never reaches the next pair). Sends and
 * receives are nonblocking and polled against a deadline; a receive is only
 * posted for a message that has arrived (MPI_Improbe), so a timeout leaves
 * nothing posted and nothing to cancel. 0, or -1 (error printed).
 */
int gdr_oob_mpi_attach(struct gdr_oob *c, MPI_Comm comm, int peer, int tag, const char *peer_name,
		       int timeout_ms);

/*
 * Poll request *r until it completes or timeout_ms passes (< 0: forever is
 * refused, the caller gives a limit). 0 done; -1 timed out (nothing printed;
 * the request is left to MPI with MPI_Request_free).
 */
int gdr_mpi_wait(MPI_Request *r, int timeout_ms);

/*
 * Poll MPI_Improbe(src, tag) until a message arrives or the clock passes
 * deadline_ns (gdr_now_ns). 1 arrived (*msg, *st set), 0 timed out, -1 MPI error.
 */
int gdr_mpi_probe(MPI_Comm comm, int src, int tag, uint64_t deadline_ns, MPI_Message *msg,
		  MPI_Status *st);

#endif
