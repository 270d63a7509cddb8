/* SPDX-License-Identifier: MIT */
/* The -R server's accept loop over rdma_cm events in any order across ids (cm_accept.h). */
#include "cm_accept.h"
#include "config.h"
#include <stdio.h>
#include <string.h>

void gdr_cm_accept_init(struct gdr_cm_accept *a, uint32_t n)
{
	memset(a, 0, sizeof(*a));
	a->n = n < GDR_CM_SLOTS ? n : GDR_CM_SLOTS;
}

bool gdr_cm_accept_done(const struct gdr_cm_accept *a)
{
	return a->requested == a->n && a->established == a->n;
}

/* The slot of an accepted id, or -1. */
static int slot_of(const struct gdr_cm_accept *a, const void *id)
{
	for (uint32_t j = 0; j < a->requested; j++)
		if (a->id[j] == id)
			return (int)j;
	return -1;
}

enum gdr_cm_step gdr_cm_accept_event(struct gdr_cm_accept *a, enum rdma_cm_event_type type,
				     int status, const void *id, uint32_t *slot, char *why,
				     size_t len)
{
	int j = id ? slot_of(a, id) : -1;

	if (type == RDMA_CM_EVENT_CONNECT_REQUEST) {
		if (j >= 0) {
			snprintf(why, len, "a second connection request on connection %d", j + 1);
			return GDR_CM_FAIL; /* the id is the slot's: not destroyed here */
		}
		if (a->requested == a->n) {
			snprintf(why, len, "an extra connection request after the %u expected",
				 a->n);
			return GDR_CM_REFUSE;
		}
		*slot = a->requested;
		a->id[a->requested++] = id;
		return GDR_CM_ACCEPT;
	}
	if (type == RDMA_CM_EVENT_ESTABLISHED && j >= 0 && !a->est[j]) {
		a->est[j] = true;
		a->established++;
		*slot = (uint32_t)j;
		return GDR_CM_COUNTED;
	}
	if (type == RDMA_CM_EVENT_ESTABLISHED)
		snprintf(why, len, "ESTABLISHED %s",
			 j >= 0 ? "twice for one connection" : "for a connection not accepted");
	else if (j >= 0)
		snprintf(why, len, "connection %d of %u: got %s (status %d) while connecting",
			 j + 1, a->n, rdma_event_str(type), status);
	else
		snprintf(why, len, "got %s (status %d) while accepting %u connections",
			 rdma_event_str(type), status, a->n);
	return GDR_CM_FAIL;
}
