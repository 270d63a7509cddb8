/* SPDX-License-Identifier: MIT */
/*
 * gdrcopy's user library (libgdrapi.so.2), loaded at run time: no build or
 * run dependency. gdrcopy lets the CPU read and write GPU memory through a
 * BAR1 mapping: pin a GPU range (whole 64 KiB GPU pages), map it into the
 * process, copy with the library's copy-to/copy-from calls (write-combining
 * stores, careful loads), then unmap, unpin and close, in that order.
 *
 * The declarations below are our own, matching the library's C ABI (gdrcopy
 * 2.x): the library handle is an opaque pointer, a pinned range's handle is
 * a struct of one unsigned long passed by value, return codes are 0 or a
 * positive errno value. Members carry the library's names.
 */
#ifndef GDR_GDRAPI_H
#define GDR_GDRAPI_H

#include <stddef.h>
#include <stdint.h>

/* The GPU page: pins cover whole pages, and a mapping starts at a page boundary. */
#define GDR_GPU_PAGE_SHIFT 16
#define GDR_GPU_PAGE_SIZE  ((size_t)1 << GDR_GPU_PAGE_SHIFT)

/* Where gdrdrv, the kernel half, shows itself. */
#define GDR_GDRDRV_NODE "/dev/gdrdrv"

/* A pinned range (the library's gdr_mh_t: one unsigned long, by value). */
struct gdr_gdrapi_mh {
	unsigned long h;
};

/* What gdr_get_info reports on a pinned range (the library's gdr_info_v2 layout). */
struct gdr_gdrapi_info {
	uint64_t va;	      /* start of the pinned GPU range: the pin's address rounded down */
	uint64_t mapped_size; /* bytes pinned, whole GPU pages */
	uint32_t page_size;
	uint64_t tm_cycles;	/* deprecated by the library */
	uint32_t cycles_per_ms; /* deprecated by the library */
	unsigned mapped : 1;
	unsigned wc_mapping : 1;
	int mapping_type; /* 0 none, 1 write-combining, 2 caching, 3 device; v2 only */
};

struct gdr_gdrapi {
	/* NULL when neither gdrdrv nor a dma-buf mmap capable CUDA driver is usable. */
	void *(*gdr_open)(void);
	int (*gdr_close)(void *g);
	/*
	 * Pin [addr, addr + size) of GPU memory (addr a CUdeviceptr); the driver
	 * rounds out to GPU pages. p2p_token and va_space are 0 (deprecated).
	 */
	int (*gdr_pin_buffer)(void *g, unsigned long addr, size_t size, uint64_t p2p_token,
			      uint32_t va_space, struct gdr_gdrapi_mh *mh);
	int (*gdr_unpin_buffer)(void *g, struct gdr_gdrapi_mh mh);
	/* gdr_get_info_v2 where the library has it, else the v1 call (no mapping_type). */
	int (*gdr_get_info)(void *g, struct gdr_gdrapi_mh mh, struct gdr_gdrapi_info *info);
	/*
	 * Map the pinned range; *va is the start of its first GPU page. gdrdrv
	 * refuses (EINVAL) a range pinned at an address that is not GPU page
	 * aligned.
	 */
	int (*gdr_map)(void *g, struct gdr_gdrapi_mh mh, void **va, size_t size);
	int (*gdr_unmap)(void *g, struct gdr_gdrapi_mh mh, void *va, size_t size);
	/* CPU copies into / out of a mapping (map points inside what gdr_map gave). */
	int (*gdr_copy_to_mapping)(struct gdr_gdrapi_mh mh, void *map, const void *src,
				   size_t size);
	int (*gdr_copy_from_mapping)(struct gdr_gdrapi_mh mh, void *dst, const void *map,
				     size_t size);
	int info_v2; /* gdr_get_info is the v2 call: mapping_type is filled in */
};

/*
 * Load the library once (thread-safe, result cached): libgdrapi.so.2, or the
 * file GDR_LIBGDRAPI names (tests: the gdrcopy double). Returns 0 and *api, or
 * -1 with one plain line in why, e.g. "libgdrapi.so.2 not found: gdrcopy is
 * not installed (...)" or "libgdrapi.so.2 lacks gdr_map: ...".
 */
int gdr_gdrapi_load(const struct gdr_gdrapi **api, char *why, size_t n);

/*
 * gdr_open, and when it fails the reason in why: "gdrdrv module not loaded
 * (no /dev/gdrdrv)", or what opening /dev/gdrdrv says. NULL on failure.
 */
void *gdr_gdrapi_open(const struct gdr_gdrapi *api, char *why, size_t n);

#endif
