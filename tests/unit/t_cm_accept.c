/* SPDX-License-Identifier: MIT */
/*
 * The -R server's accept loop (cm_accept.c) fed fake rdma_cm event lists: the
 * order of one run, the client's next request before the server's ESTABLISHED
 * of the last (seen once in 9 VM runs of -R -q 2 as "expected ESTABLISHED, got
 * CONNECT_REQUEST"), ESTABLISHED in reverse order, and odd or hostile
 * sequences: each fails at once with one line, none waits for more.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "cm_accept.h"

#include "check.h"

#define REQ RDMA_CM_EVENT_CONNECT_REQUEST
#define EST RDMA_CM_EVENT_ESTABLISHED

struct ev {
	enum rdma_cm_event_type t;
	int id; /* 1.. : a fake cm id */
};

static int ids[32];

/*
 * Feed the list to an accept of n connections. Returns the index of the event
 * that failed (or n_ev when none did); *slots gets the slot of each accepted
 * id in order of the requests, why the failure's line.
 */
static size_t feed(uint32_t n, const struct ev *e, size_t n_ev, struct gdr_cm_accept *a,
		   uint32_t *slots, char *why, size_t len, enum gdr_cm_step *last)
{
	size_t k;

	gdr_cm_accept_init(a, n);
	why[0] = '\0';
	for (k = 0; k < n_ev; k++) {
		uint32_t j = 99;

		*last = gdr_cm_accept_event(a, e[k].t, 0, &ids[e[k].id], &j, why, len);
		if (*last == GDR_CM_FAIL || *last == GDR_CM_REFUSE)
			return k;
		if (*last == GDR_CM_ACCEPT)
			slots[e[k].id] = j;
		else
			CHECK(j == slots[e[k].id], "ESTABLISHED of id %d counted for its slot",
			      e[k].id);
	}
	return k;
}

#define FEED(n, list)                                                                              \
	feed(n, list, sizeof(list) / sizeof(list[0]), &a, slots, why, sizeof(why), &st)

static void orders(void)
{
	struct gdr_cm_accept a;
	uint32_t slots[32];
	enum gdr_cm_step st;
	char why[160];
	const struct ev fixed[] = {{REQ, 1}, {EST, 1}, {REQ, 2}, {EST, 2}};
	/* the flaky -R -q 2 case: request 2 before the ESTABLISHED of 1 */
	const struct ev early[] = {{REQ, 1}, {REQ, 2}, {EST, 1}, {EST, 2}};
	const struct ev reverse[] = {{REQ, 1}, {REQ, 2}, {REQ, 3}, {EST, 3}, {EST, 2}, {EST, 1}};
	const struct ev mixed[] = {{REQ, 1}, {REQ, 2}, {EST, 2}, {REQ, 3},
				   {EST, 1}, {REQ, 4}, {EST, 4}, {EST, 3}};

	CHECK(FEED(2, fixed) == 4 && gdr_cm_accept_done(&a), "one at a time: %s", why);
	CHECK(slots[1] == 0 && slots[2] == 1);
	CHECK(FEED(2, early) == 4 && gdr_cm_accept_done(&a), "request 2 before ESTABLISHED 1: %s",
	      why);
	CHECK(slots[1] == 0 && slots[2] == 1, "slots in the order of the requests");
	CHECK(FEED(3, reverse) == 6 && gdr_cm_accept_done(&a), "ESTABLISHED reversed: %s", why);
	CHECK(slots[1] == 0 && slots[2] == 1 && slots[3] == 2);
	CHECK(FEED(4, mixed) == 8 && gdr_cm_accept_done(&a), "interleaved: %s", why);
	CHECK(slots[4] == 3);
	CHECK(FEED(3, early) == 4 && !gdr_cm_accept_done(&a), "2 of 3 connections: not done");
}

static void odd(void)
{
	struct gdr_cm_accept a;
	uint32_t slots[32];
	enum gdr_cm_step st;
	char why[160];
	const struct ev extra[] = {{REQ, 1}, {EST, 1}, {REQ, 2}};
	const struct ev twice[] = {{REQ, 1}, {REQ, 2}, {EST, 1}, {EST, 1}};
	const struct ev stranger[] = {{REQ, 1}, {EST, 5}};
	const struct ev first[] = {{EST, 1}};
	const struct ev rej[] = {{REQ, 1}, {REQ, 2}, {RDMA_CM_EVENT_REJECTED, 2}};
	const struct ev disc[] = {{REQ, 1}, {EST, 1}, {RDMA_CM_EVENT_DISCONNECTED, 1}};
	const struct ev dev[] = {{RDMA_CM_EVENT_DEVICE_REMOVAL, 9}};
	const struct ev again[] = {{REQ, 1}, {REQ, 1}};

	CHECK(FEED(1, extra) == 2 && st == GDR_CM_REFUSE, "a request past n refused");
	CHECK(strstr(why, "extra connection request after the 1 expected"), "%s", why);
	CHECK(FEED(2, twice) == 3 && st == GDR_CM_FAIL, "a second ESTABLISHED fails");
	CHECK(!strcmp(why, "ESTABLISHED twice for one connection"), "%s", why);
	CHECK(FEED(2, stranger) == 1 && st == GDR_CM_FAIL);
	CHECK(!strcmp(why, "ESTABLISHED for a connection not accepted"), "%s", why);
	CHECK(FEED(1, first) == 0 && st == GDR_CM_FAIL, "ESTABLISHED before any request");
	CHECK(FEED(2, rej) == 2 && st == GDR_CM_FAIL);
	CHECK(strstr(why, "connection 2 of 2: got ") && strstr(why, "REJECTED") &&
		  !strchr(why, '\n'),
	      "%s", why);
	CHECK(FEED(2, disc) == 2 && st == GDR_CM_FAIL);
	CHECK(strstr(why, "connection 1 of 2: got ") && strstr(why, "DISCONNECTED"), "%s", why);
	CHECK(FEED(2, dev) == 0 && st == GDR_CM_FAIL);
	CHECK(strstr(why, "DEVICE_REMOVAL") && strstr(why, "while accepting 2 connections"), "%s",
	      why);
	CHECK(FEED(2, again) == 1 && st == GDR_CM_FAIL, "one id's request twice: not its slot's id "
							"destroyed (FAIL, not REFUSE)");
	CHECK(strstr(why, "second connection request on connection 1"), "%s", why);
}

/* Bounded: every event advances or fails, so n connections end within 2n events. */
static void bounded(void)
{
	struct gdr_cm_accept a;
	uint32_t j;
	char why[160];
	int steps = 0;

	gdr_cm_accept_init(&a, 8);
	for (int k = 0; k < 8; k++, steps++)
		CHECK(gdr_cm_accept_event(&a, REQ, 0, &ids[k], &j, why, sizeof(why)) ==
			  GDR_CM_ACCEPT &&
		      j == (uint32_t)k);
	for (int k = 7; k >= 0; k--, steps++)
		CHECK(gdr_cm_accept_event(&a, EST, 0, &ids[k], &j, why, sizeof(why)) ==
			  GDR_CM_COUNTED &&
		      j == (uint32_t)k);
	CHECK(gdr_cm_accept_done(&a) && steps == 16);
	gdr_cm_accept_init(&a, 100000);
	CHECK(a.n == GDR_CM_SLOTS, "n held to the slots there are");
}

int main(void)
{
	orders();
	odd();
	bounded();
	return CHECK_DONE();
}
