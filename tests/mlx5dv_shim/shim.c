/* SPDX-License-Identifier: MIT */
/*
 * A libmlx5.so.1 stand-in for tests (never installed): the two mlx5dv data-direct
 * entry points gdrperf's --use_data_direct looks up, over any verbs device, so
 * the path runs over real verbs on Soft-RoCE with the CUDA driver double.
 * Environment:
 *   GDR_SHIM_DD_PATH  the data-direct device's sysfs path to report, below /sys as rdma-core
 *                     gives it ("/devices/..."); unset: the
 *                     device has none (ENODEV, as mlx5 says for a NIC without one)
 * mlx5dv_reg_dmabuf_mr checks what data direct requires (the data-direct access
 * flag, a valid fd, and as the kernel's mlx5 reg_user_mr_dmabuf_by_data_direct
 * an iova aligned to the page, else EOPNOTSUPP) and then registers the
 * iova's virtual range with ibv_reg_mr: the CUDA double's device memory is
 * mapped in the process; the dma-buf itself is never read by a device here.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <infiniband/verbs.h>

#define EXPORT		 __attribute__((visibility("default")))
#define DATA_DIRECT	 (1 << 0) /* MLX5DV_REG_DMABUF_ACCESS_DATA_DIRECT */

EXPORT int mlx5dv_get_data_direct_sysfs_path(struct ibv_context *ctx, char *buf, size_t len)
{
	const char *p = getenv("GDR_SHIM_DD_PATH");

	if (!ctx || !buf)
		return EINVAL;
	if (!p || !*p)
		return ENODEV;
	if (strlen(p) >= len)
		return ENOSPC;
	snprintf(buf, len, "%s", p);
	return 0;
}

EXPORT struct ibv_mr *mlx5dv_reg_dmabuf_mr(struct ibv_pd *pd, uint64_t offset, size_t length,
					   uint64_t iova, int fd, int access, int mlx5_access)
{
	long page = sysconf(_SC_PAGESIZE);

	(void)offset; /* any: the MR starts there in the dma-buf */
	if (!pd || !length || fcntl(fd, F_GETFD) < 0 || mlx5_access != DATA_DIRECT) {
		errno = EINVAL;
		return NULL;
	}
	if (page <= 0 || (iova & ((uint64_t)page - 1))) {
		errno = EOPNOTSUPP; /* "the IOVA must be page aligned in KSM mode" */
		return NULL;
	}
	return ibv_reg_mr(pd, (void *)(uintptr_t)iova, length, access);
}
