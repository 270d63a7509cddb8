/* SPDX-License-Identifier: MIT */
/*
 * The ping-pong's null NIC (GDR_GP_PING, gp_proto.h): a backend whose post
 * delivers the message at once, as its marker in the peer's receive byte,
 * and whose poll completes every post. gdr_proxy_bw --ping (two kernels of
 * one process) and tests/cuda/ts_ping (two processes) run on it.
 */
#ifndef GDR_GP_NULL_H
#define GDR_GP_NULL_H

#include <stdint.h>
#include "gproxy.h"

struct gdr_gp_null {
	volatile uint8_t *peer_rx; /* host view of the peer's receive byte */
	uint64_t posted, completed;
};

/* The backend over nic (its counts zeroed by the caller); nic outlives the run. */
struct gdr_gp_backend gdr_gp_null_backend(struct gdr_gp_null *nic);

#endif
