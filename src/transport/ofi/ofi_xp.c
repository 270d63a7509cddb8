/* SPDX-License-Identifier: MIT */
/* The libfabric transport's ops table (xport.h): its row in xport.c. */
#include "config.h"
#include "ofi_xp.h"

const struct gdr_xport_ops gdr_xport_ofi = {
    .name = "ofi",
    .caps = GDR_OFI_XCAPS,
    .open = gdr_ofi_open,
    .close = gdr_ofi_close,
    .reg = gdr_ofi_reg,
    .key = gdr_ofi_key,
    .dereg = gdr_ofi_dereg,
    .ep_open = gdr_ofi_ep_open,
    .addr = gdr_ofi_addr,
    .connect = gdr_ofi_connect,
    .ep_close = gdr_ofi_ep_close,
    .prep = gdr_ofi_prep,
    .post = gdr_ofi_post,
    .post_op = gdr_ofi_post_op,
    .post_recv = gdr_ofi_post_recv,
    .poll = gdr_ofi_poll,
    .wait = NULL, /* no completion events: the caller spins, and its polls drive progress */
    .cqe_error = gdr_ofi_cqe_error,
};
