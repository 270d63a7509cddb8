/* SPDX-License-Identifier: MIT */
/* The ping-pong's null NIC (gp_null.h). */
#include "config.h"
#include "gp_null.h"

static int deliver(void *ctx, unsigned int q, const struct gdr_gp_desc *d)
{
	struct gdr_gp_null *nic = ctx;

	(void)q;
	*nic->peer_rx = GDR_GP_MARK(d->seq);
	nic->posted++;
	return 0;
}

static int complete(void *ctx, unsigned int q)
{
	struct gdr_gp_null *nic = ctx;
	uint64_t k = nic->posted - nic->completed;

	(void)q;
	nic->completed = nic->posted;
	return (int)k;
}

struct gdr_gp_backend gdr_gp_null_backend(struct gdr_gp_null *nic)
{
	return (struct gdr_gp_backend){.post = deliver, .poll = complete, .ctx = nic};
}
