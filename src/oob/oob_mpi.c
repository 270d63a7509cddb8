/* SPDX-License-Identifier: MIT */
/*
 * MPI out-of-band channel: the ops of oob.h on MPI_Isend and MPI_Improbe +
 * MPI_Imrecv, each polled against a deadline with short sleeps between polls
 * (ranks may share cores), never a blocking MPI wait.
 */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "clock.h"
#include "log.h"
#include "oob_mpi.h"

#define FRAME_MAX (GDR_FRAME_HDR + GDR_MAX_PAYLOAD)

struct oob_mpi {
	MPI_Comm comm;
	int peer;
	int tag;
};

/* A pause between polls: none for the first 100, then doubling from 10 us to 1 ms
 * (ranks may share cores with a pair that is measuring). */
static void poll_pause(unsigned n)
{
	struct timespec ts = {0, 10000};

	if (n < 100)
		return;
	n = (n - 100) / 16;
	ts.tv_nsec = n >= 7 ? 1000000 : 10000L << n;
	nanosleep(&ts, NULL);
}

static int64_t left_ms(uint64_t deadline_ns)
{
	uint64_t now = gdr_now_ns();

	return now >= deadline_ns ? 0 : (int64_t)((deadline_ns - now) / 1000000) + 1;
}

int gdr_mpi_wait(MPI_Request *r, int timeout_ms)
{
	uint64_t deadline = gdr_now_ns() + (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * 1000000;
	int done = 0;

	for (unsigned n = 0;; n++) {
		if (MPI_Test(r, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -1;
		if (done)
			return 0;
		if (!left_ms(deadline))
			break;
		poll_pause(n);
	}
	MPI_Request_free(r); /* MPI completes and frees it; no cancel */
	return -1;
}

static int mpi_send(struct gdr_oob *c, const struct gdr_msg *m)
{
	struct oob_mpi *p = c->priv;
	/* the buffer must outlive a send that times out: it is then left to MPI */
	uint8_t *buf = malloc(FRAME_MAX);
	size_t len = buf ? gdr_msg_encode(m, buf, FRAME_MAX) : 0;
	MPI_Request r;

	if (!len) {
		gdr_err("cannot send %s to %s (%s)", gdr_msg_type_name(m->type), c->peer,
			buf ? "a field is out of range: a gdrperf bug" : "out of memory");
		free(buf);
		return -1;
	}
	if (MPI_Isend(buf, (int)len, MPI_BYTE, p->peer, p->tag, p->comm, &r) != MPI_SUCCESS) {
		gdr_err("MPI_Isend of %s to %s failed", gdr_msg_type_name(m->type), c->peer);
		free(buf);
		return -1;
	}
	if (gdr_mpi_wait(&r, c->timeout_ms)) {
		gdr_err("timed out after %g s sending %s to %s (the peer stopped receiving)",
			c->timeout_ms / 1000.0, gdr_msg_type_name(m->type), c->peer);
		return -1; /* buf stays with MPI */
	}
	free(buf);
	return 0;
}

/* Receive the arrived message msg of count bytes and decode it. */
static int take(struct gdr_oob *c, MPI_Message *msg, int count, struct gdr_msg *m)
{
	uint8_t *buf = malloc(count > FRAME_MAX ? (size_t)count : FRAME_MAX);
	int rc = -1;

	if (!buf) {
		gdr_err("out of memory receiving from %s", c->peer);
		return -1;
	}
	if (gdr_mpi_mrecv(buf, count, msg, c->timeout_ms)) {
		gdr_err("timed out after %g s receiving a %d-byte message from %s (its network "
			"stalled?)",
			c->timeout_ms / 1000.0, count, c->peer);
		return -1; /* buf stays with MPI */
	} else if (count > FRAME_MAX)
		gdr_err("%s sent a %d-byte message; no gdrperf message is over %d", c->peer, count,
			FRAME_MAX);
	else if ((rc = gdr_msg_decode(buf, (size_t)count, m)) != 0)
		gdr_err("%s sent a malformed message (%s): same gdrperf version on every rank?",
			c->peer, gdr_msg_strerror(rc));
	free(buf);
	return rc ? -1 : 0;
}

int gdr_mpi_mrecv(void *buf, int count, MPI_Message *msg, int timeout_ms)
{
	MPI_Request r;

	if (MPI_Imrecv(buf, count, MPI_BYTE, msg, &r) != MPI_SUCCESS)
		return -1;
	return gdr_mpi_wait(&r, timeout_ms);
}

int gdr_mpi_probe(MPI_Comm comm, int src, int tag, uint64_t deadline_ns, MPI_Message *msg,
		  MPI_Status *st)
{
	int flag = 0;

	for (unsigned n = 0;; n++) {
		if (MPI_Improbe(src, tag, comm, &flag, msg, st) != MPI_SUCCESS)
			return -1;
		if (flag)
			return 1;
		if (!left_ms(deadline_ns))
			return 0;
		poll_pause(n);
	}
}

static int mpi_recv(struct gdr_oob *c, struct gdr_msg *m, int timeout_ms)
{
	struct oob_mpi *p = c->priv;
	MPI_Message msg;
	MPI_Status st;
	int rc, count = 0;

	if (timeout_ms < 0)
		timeout_ms = c->timeout_ms;
	rc = gdr_mpi_probe(p->comm, p->peer, p->tag, gdr_now_ns() + (uint64_t)timeout_ms * 1000000,
			   &msg, &st);
	if (rc < 0) {
		gdr_err("MPI_Improbe for %s failed", c->peer);
		return -1;
	}
	if (!rc) {
		gdr_err("timed out after %g s waiting for %s from %s (is that rank still "
			"running? --timeout raises the limit)",
			timeout_ms / 1000.0, c->expect ? gdr_msg_type_name(c->expect) : "a message",
			c->peer);
		return -1;
	}
	MPI_Get_count(&st, MPI_BYTE, &count);
	return take(c, &msg, count, m);
}

static void mpi_close(struct gdr_oob *c)
{
	free(c->priv);
	c->priv = NULL;
	c->ops = NULL;
}

static int mpi_ready(struct gdr_oob *c)
{
	struct oob_mpi *p = c->priv;
	int flag = 0;

	return MPI_Iprobe(p->peer, p->tag, p->comm, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
	       flag;
}

static const struct gdr_oob_ops mpi_ops = {
    .send = mpi_send,
    .recv = mpi_recv,
    .close = mpi_close,
    .ready = mpi_ready,
};

int gdr_oob_mpi_attach(struct gdr_oob *c, MPI_Comm comm, int peer, int tag, const char *peer_name,
		       int timeout_ms)
{
	struct oob_mpi *p = malloc(sizeof(*p));

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (!p) {
		gdr_err("out of memory");
		return -1;
	}
	*p = (struct oob_mpi){comm, peer, tag};
	c->ops = &mpi_ops;
	c->priv = p;
	c->timeout_ms = timeout_ms;
	snprintf(c->peer, sizeof(c->peer), "%s", peer_name);
	return 0;
}
