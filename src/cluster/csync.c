/* SPDX-License-Identifier: MIT */
/*
 * Round boundaries that survive a lost rank: every rank reports its rows to
 * rank 0 (point to point, polled against a deadline), rank 0 then releases
 * the next round to the ranks that reported and names those that did not.
 * No collective includes a dead rank, so the job goes on without it.
 */
#include "config.h"
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "clock.h"
#include "cluster_mpi.h"
#include "log.h"
#include "oob_mpi.h"

enum { TAG_REPORT = 1, TAG_GO = 2, TAG_SCHED = 3 };

struct report_hdr {
	int32_t round; /* the round whose rows follow; -1: ready */
	int32_t pad;
	char gpu[48];		 /* the GPU the rank used, "" none yet */
	char cnt[GDR_CSIDE_LEN]; /* -W: what moved on its device around its pair ("" none) */
};

struct go_hdr {
	int32_t round; /* the round released; -1: the end */
	int32_t status;
};

int gdr_csync_init(struct gdr_csync *s, MPI_Comm comm, int rank, int size, size_t slot,
		   int wait_ms)
{
	*s = (struct gdr_csync){.rank = rank, .size = size, .slot = slot, .wait_ms = wait_ms};
	s->report_len = sizeof(struct report_hdr) + slot * sizeof(struct gdr_crow);
	s->go_len = sizeof(struct go_hdr) + (size_t)size;
	s->lost = calloc((size_t)size, 1);
	/* sends from sbuf, receives into rbuf: a send may still be in flight */
	s->sbuf = malloc(s->report_len > s->go_len ? s->report_len : s->go_len);
	s->rbuf = malloc(s->report_len > s->go_len ? s->report_len : s->go_len);
	s->reqs = calloc((size_t)size, sizeof(*s->reqs));
	s->gpu = calloc((size_t)size, sizeof(*s->gpu));
	s->cnt = calloc((size_t)size, sizeof(*s->cnt));
	if (!s->gpu || !s->cnt || !s->lost || !s->sbuf || !s->rbuf || !s->reqs) {
		gdr_err("out of memory");
		return -1;
	}
	for (int i = 0; i < size; i++)
		s->reqs[i] = MPI_REQUEST_NULL;
	MPI_Comm_dup(comm, &s->comm);
	/* a send to a dead rank must not end this one */
	MPI_Comm_set_errhandler(s->comm, MPI_ERRORS_RETURN);
	return 0;
}

void gdr_csync_free(struct gdr_csync *s)
{
	bool xsent = true; /* every send of xbuf done: it can go */

	for (int i = 0; s->xreqs && i < s->size; i++) {
		int done = 1;

		if (s->xreqs[i] != MPI_REQUEST_NULL)
			MPI_Test(&s->xreqs[i], &done, MPI_STATUS_IGNORE);
		if (!done) {
			MPI_Request_free(&s->xreqs[i]);
			xsent = false; /* MPI may still read it: never freed */
		}
	}
	if (xsent)
		free(s->xbuf);
	free(s->xreqs);
	for (int i = 0; s->reqs && i < s->size; i++)
		if (s->reqs[i] != MPI_REQUEST_NULL)
			MPI_Request_free(&s->reqs[i]);
	if (s->lost)
		MPI_Comm_free(&s->comm);
	free(s->lost);
	free(s->gpu);
	free(s->cnt);
	free(s->sbuf);
	free(s->rbuf);
	free(s->reqs);
}

/*
 * A probed message into rbuf, polled for at most RECV_S s: one whose data
 * stalls after its envelope (a rendezvous-sized report from a node whose
 * network stopped) leaves rbuf to MPI and takes a fresh one. 0, or -1.
 */
#define RECV_S 10
static int recv_bounded(struct gdr_csync *s, MPI_Message *msg, size_t len)
{
	size_t cap = s->report_len > s->go_len ? s->report_len : s->go_len;
	uint8_t *fresh;

	if (len > cap)
		return -1;
	if (!gdr_mpi_mrecv(s->rbuf, (int)len, msg, RECV_S * 1000))
		return 0;
	fresh = malloc(cap);
	if (fresh)
		s->rbuf = fresh; /* the old one may still be written by MPI: never freed */
	return -1;
}

/* Settle the previous send to rank k: done, or left to MPI (k died). */
static void settle(struct gdr_csync *s, int k)
{
	int done = 0;

	if (s->reqs[k] == MPI_REQUEST_NULL)
		return;
	MPI_Test(&s->reqs[k], &done, MPI_STATUS_IGNORE);
	if (!done)
		MPI_Request_free(&s->reqs[k]);
	s->reqs[k] = MPI_REQUEST_NULL;
}

int gdr_csync_report(struct gdr_csync *s, int round, const struct gdr_crow *rows, const char *gpu,
		     const char *cnt)
{
	struct report_hdr h = {.round = round};

	snprintf(h.gpu, sizeof(h.gpu), "%s", gpu ? gpu : "");
	snprintf(h.cnt, sizeof(h.cnt), "%s", cnt ? cnt : "");
	settle(s, 0);
	memcpy(s->sbuf, &h, sizeof(h));
	if (rows)
		memcpy(s->sbuf + sizeof(h), rows, s->slot * sizeof(*rows));
	else
		for (size_t i = 0; i < s->slot; i++)
			((struct gdr_crow *)(s->sbuf + sizeof(h)))[i].status = GDR_CS_NONE;
	return MPI_Isend(s->sbuf, (int)s->report_len, MPI_BYTE, 0, TAG_REPORT, s->comm,
			 &s->reqs[0]) == MPI_SUCCESS
		   ? 0
		   : -1;
}

int gdr_csync_wait_go(struct gdr_csync *s, int *status)
{
	uint64_t dl = gdr_now_ns() + (uint64_t)s->wait_ms * 2000000 + 10000000000ULL;
	struct go_hdr h;
	MPI_Message msg;
	MPI_Status st;

	if (gdr_mpi_probe(s->comm, 0, TAG_GO, dl, &msg, &st) != 1) {
		gdr_err("rank %d: rank 0 did not start the next round within %g s (rank 0 hung or "
			"died)",
			s->rank, s->wait_ms * 2 / 1000.0 + 10);
		return -2;
	}
	if (recv_bounded(s, &msg, s->go_len)) {
		gdr_err("rank %d: rank 0's release of the next round did not arrive within %d s "
			"of its envelope (network stalled?)",
			s->rank, RECV_S);
		return -2;
	}
	memcpy(&h, s->rbuf, sizeof(h));
	memcpy(s->lost, s->rbuf + sizeof(h), (size_t)s->size);
	s->nlost = 0;
	for (int i = 0; i < s->size; i++)
		s->nlost += s->lost[i] != 0;
	*status = h.status;
	return h.round;
}

/* Rank 0: take one arrived report into rows (slot per rank); 1 if it counted. */
static int take_report(struct gdr_csync *s, MPI_Message *msg, const MPI_Status *st, int round,
		       struct gdr_crow *rows, char *seen)
{
	int src = st->MPI_SOURCE, count = 0;
	struct report_hdr h;

	MPI_Get_count(st, MPI_BYTE, &count);
	if ((size_t)count != s->report_len) {
		char *tmp = malloc(count > 0 ? (size_t)count : 1);

		/* not a report of this run's shape: received (bounded) and dropped */
		if (tmp && !gdr_mpi_mrecv(tmp, count, msg, RECV_S * 1000))
			free(tmp); /* else left to MPI */
		return 0;
	}
	if (recv_bounded(s, msg, s->report_len)) {
		printf("rank %d: its report of round %d stalled after its envelope (%d s); "
		       "counted as lost\n",
		       src, round + 1, RECV_S);
		return 0;
	}
	memcpy(&h, s->rbuf, sizeof(h));
	if (h.round != round || s->lost[src] || seen[src])
		return 0; /* a late report of a rank already given up */
	seen[src] = 1;
	memcpy(s->gpu[src], h.gpu, sizeof(s->gpu[src]));
	s->gpu[src][sizeof(s->gpu[src]) - 1] = '\0';
	memcpy(s->cnt[src], h.cnt, sizeof(s->cnt[src]));
	s->cnt[src][sizeof(s->cnt[src]) - 1] = '\0';
	if (rows)
		memcpy(rows + (size_t)src * s->slot, s->rbuf + sizeof(h),
		       s->slot * sizeof(*rows));
	return 1;
}

int gdr_csync_collect(struct gdr_csync *s, int round, uint64_t since_ns, struct gdr_crow *rows)
{
	uint64_t dl = since_ns + (uint64_t)s->wait_ms * 1000000;
	char *seen = calloc((size_t)s->size, 1);
	int want = 0, got = 0, fresh = 0;

	if (!seen) {
		gdr_err("out of memory");
		return -1;
	}
	for (int k = 1; k < s->size; k++) {
		s->cnt[k][0] = '\0'; /* this round's text or none: never an earlier round's */
		want += !s->lost[k];
		if (rows && s->lost[k])
			for (size_t i = 0; i < s->slot; i++)
				rows[(size_t)k * s->slot + i].status = GDR_CS_NONE;
	}
	while (got < want) {
		MPI_Message msg;
		MPI_Status st;
		int rc = gdr_mpi_probe(s->comm, MPI_ANY_SOURCE, TAG_REPORT, dl, &msg, &st);

		if (rc < 0) {
			free(seen);
			return -1;
		}
		if (!rc)
			break;
		got += take_report(s, &msg, &st, round, rows, seen);
	}
	for (int k = 1; k < s->size; k++) {
		if (s->lost[k] || seen[k])
			continue;
		s->lost[k] = 1;
		s->nlost++;
		fresh++;
		if (rows)
			for (size_t i = 0; i < s->slot; i++)
				rows[(size_t)k * s->slot + i].status = GDR_CS_NONE;
		printf("rank %d lost: no report of round %d within %g s; the job goes on without "
		       "it\n",
		       k, round + 1, s->wait_ms / 1000.0);
	}
	fflush(stdout);
	free(seen);
	return fresh;
}

int gdr_csync_go(struct gdr_csync *s, int round, int status)
{
	struct go_hdr h = {.round = round, .status = status};

	for (int k = 1; k < s->size; k++)
		settle(s, k);
	memcpy(s->sbuf, &h, sizeof(h));
	memcpy(s->sbuf + sizeof(h), s->lost, (size_t)s->size);
	for (int k = 1; k < s->size; k++)
		if (!s->lost[k] && MPI_Isend(s->sbuf, (int)s->go_len, MPI_BYTE, k, TAG_GO, s->comm,
					     &s->reqs[k]) != MPI_SUCCESS)
			return -1;
	return 0;
}

/* The message: nrounds, npairs, start[0 .. nrounds], then the pairs (server, client). */
int gdr_csync_sched_send(struct gdr_csync *s, const struct gdr_sched *x)
{
	size_t len = 2 + (size_t)x->nrounds + 1 + 2 * (size_t)x->npairs;

	if (s->xbuf || len > INT_MAX / sizeof(uint32_t)) {
		gdr_err("--cluster: added rounds: sent once, of at most %zu pairs",
			(size_t)(INT_MAX / sizeof(uint32_t) / 2 - 4));
		return -1;
	}
	s->xbuf = malloc(len * sizeof(uint32_t));
	s->xreqs = malloc((size_t)s->size * sizeof(*s->xreqs));
	if (!s->xbuf || !s->xreqs) {
		gdr_err("out of memory");
		return -1;
	}
	s->xbuf[0] = x->nrounds;
	s->xbuf[1] = x->npairs;
	memcpy(s->xbuf + 2, x->start, ((size_t)x->nrounds + 1) * sizeof(uint32_t));
	memcpy(s->xbuf + 3 + x->nrounds, x->pair, 2 * (size_t)x->npairs * sizeof(uint32_t));
	for (int k = 0; k < s->size; k++)
		s->xreqs[k] = MPI_REQUEST_NULL;
	for (int k = 1; k < s->size; k++)
		if (!s->lost[k] && MPI_Isend(s->xbuf, (int)(len * sizeof(uint32_t)), MPI_BYTE, k,
					     TAG_SCHED, s->comm, &s->xreqs[k]) != MPI_SUCCESS)
			return -1;
	return 0;
}

int gdr_csync_sched_recv(struct gdr_csync *s, struct gdr_sched *x)
{
	uint64_t dl = gdr_now_ns() + (uint64_t)s->wait_ms * 1000000 + 10000000000ULL;
	uint32_t *buf = NULL;
	MPI_Message msg;
	MPI_Status st;
	int count = 0;

	memset(x, 0, sizeof(*x));
	if (gdr_mpi_probe(s->comm, 0, TAG_SCHED, dl, &msg, &st) != 1) {
		gdr_err("rank %d: rank 0's added rounds did not arrive within %g s", s->rank,
			s->wait_ms / 1000.0 + 10);
		return -1;
	}
	MPI_Get_count(&st, MPI_BYTE, &count);
	buf = malloc(count > 0 ? (size_t)count : 1);
	if (!buf || gdr_mpi_mrecv(buf, count, &msg, RECV_S * 1000)) {
		gdr_err("rank %d: rank 0's added rounds: %s", s->rank,
			buf ? "stalled after their envelope" : "out of memory");
		return -1; /* buf, if any, left to MPI */
	}
	if (count < 12 || (size_t)count != (3 + (size_t)buf[0] + 2 * (size_t)buf[1]) * 4) {
		gdr_err("rank %d: rank 0's added rounds: %d bytes, not their shape", s->rank,
			count);
		free(buf);
		return -1;
	}
	x->nrounds = buf[0];
	x->npairs = buf[1];
	x->start = malloc(((size_t)x->nrounds + 1) * sizeof(*x->start));
	x->pair = malloc(((size_t)x->npairs + 1) * sizeof(*x->pair));
	if (!x->start || !x->pair) {
		gdr_err("out of memory");
		free(buf);
		gdr_sched_free(x);
		return -1;
	}
	memcpy(x->start, buf + 2, ((size_t)x->nrounds + 1) * sizeof(uint32_t));
	memcpy(x->pair, buf + 3 + x->nrounds, 2 * (size_t)x->npairs * sizeof(uint32_t));
	free(buf);
	return 0;
}
