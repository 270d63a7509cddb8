/* SPDX-License-Identifier: MIT */
/*
 * libfabric loaded at run time (libfabric.so.1, or $GDR_LIBFABRIC): the few
 * functions the library exports. Everything else in its API is an inline
 * call through the objects' ops tables, so it needs no symbol.
 */
#ifndef GDR_OFI_API_H
#define GDR_OFI_API_H

#include <stddef.h>
#include <stdint.h>
#include <rdma/fabric.h>

struct gdr_ofi_api {
	int (*fi_getinfo)(uint32_t version, const char *node, const char *service, uint64_t flags,
			  const struct fi_info *hints, struct fi_info **info);
	void (*fi_freeinfo)(struct fi_info *info);
	struct fi_info *(*fi_dupinfo)(const struct fi_info *info);
	int (*fi_fabric)(struct fi_fabric_attr *attr, struct fid_fabric **fabric, void *context);
	const char *(*fi_strerror)(int errnum);
	uint32_t (*fi_version)(void);
};

/* The library's functions, or -1 with why (n bytes): the path tried and how to get it. */
int gdr_ofi_load(const struct gdr_ofi_api **out, char *why, size_t n);

#endif
