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

/*
 * Receive the probed message *msg (count bytes) into buf, polled until
 * timeout_ms: a message larger than the eager limit moves only after its
 * envelope, so a blocking MPI_Mrecv would wait forever on a peer whose network
 * stalled in between. 0 received; -1 timed out or failed (the request and buf
 * are then left to MPI: the caller must not reuse buf).
 */
int gdr_mpi_mrecv(void *buf, int count, MPI_Message *msg, int timeout_ms);

#endif
