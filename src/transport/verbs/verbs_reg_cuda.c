/* SPDX-License-Identifier: MIT */
/*
 * CUDA memory registered with the NIC as its export asks (memory/mem_cuda.c):
 * by dma-buf (ibv_reg_dmabuf_mr, or mlx5dv data direct), by address
 * (nvidia-peermem), or dma-buf first and then by address. Each failure is one
 * line with its likely cause and the fix.
 */
#include "config.h"
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include "log.h"
#include "peermem.h"
#include "verbs_reg.h"

/* A hint for a failed registration, from errno and the host's state. */
static void reg_hint(const struct gdr_xmem *x, int err, char *hint, size_t n)
{
	struct rlimit rl;

	if (!getrlimit(RLIMIT_MEMLOCK, &rl) && rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < x->len) {
		snprintf(hint, n, "locked-memory limit is %llu bytes: run 'ulimit -l unlimited'",
			 (unsigned long long)rl.rlim_cur);
		return;
	}
	if (err == EOPNOTSUPP || err == EPROTONOSUPPORT || err == ENOSYS)
		snprintf(hint, n, "the NIC driver or kernel does not support this method");
	else
		snprintf(hint, n,
			 "the GPU and NIC may not be able to reach each other over PCIe "
			 "(run gdr_doctor to check the topology)");
}

/*
 * --use_data_direct: the dma-buf (exported with the PCIe mapping, as perftest's
 * --use_data_direct does) registered through the NIC's data-direct device
 * (mlx5dv), at the buffer's offset in it; the kernel takes only a page-aligned
 * IOVA there (gdr_dd_iova_ok). One error line and NULL when any part is missing.
 */
static struct ibv_mr *reg_data_direct(struct ibv_pd *pd, const struct gdr_xmem *x, int access,
				      const char **method)
{
	struct gdr_data_direct dd;
	char why[256], dev[PATH_MAX];
	struct ibv_mr *mr;
	long page;
	int e;

	if (gdr_data_direct_load(&dd, why, sizeof(why))) {
		gdr_err("--use_data_direct: %s", why);
		return NULL;
	}
	e = dd.sysfs_path(pd->context, dev, sizeof(dev));
	if (e) {
		gdr_err("--use_data_direct: %s has no data-direct device "
			"(mlx5dv_get_data_direct_sysfs_path: %s)",
			ibv_get_device_name(pd->context->device), strerror(e));
		return NULL;
	}
	page = sysconf(_SC_PAGESIZE);
	if (!gdr_dd_iova_ok((uint64_t)(uintptr_t)x->addr, page > 0 ? (size_t)page : 4096)) {
		gdr_err("--use_data_direct: the buffer's address 0x%llx is not aligned to the "
			"%ld-byte page: the kernel registers data direct only at a page-aligned "
			"IOVA",
			(unsigned long long)(uintptr_t)x->addr, page);
		return NULL;
	}
	/* rdma-core gives the path below /sys ("/devices/..."): the caller adds the prefix */
	gdr_info("data direct through %s%s; dma-buf (PCIe mapping) at offset %llu",
		 !strncmp(dev, "/sys/", 5) ? ""
		 : dev[0] == '/'	   ? "/sys"
					   : "/sys/",
		 dev, (unsigned long long)x->dmabuf_off);
	mr = dd.reg_dmabuf_mr(pd, x->dmabuf_off, x->len, (uint64_t)(uintptr_t)x->addr, x->dmabuf_fd,
			      access, GDR_MLX5DV_REG_DMABUF_ACCESS_DATA_DIRECT);
	if (!mr) {
		e = errno;
		gdr_err("mlx5dv_reg_dmabuf_mr (data direct) of %zu bytes on %s: %s", x->len,
			x->desc, strerror(e));
		return NULL;
	}
	*method = "data-direct+pci"; /* data direct always exports with the PCIe mapping */
	return mr;
}

/*
 * Why dma-buf fell back to nvidia-peermem, said once a process: every region of a run (the
 * test buffer, the staged path's, each --matrix cell's side) falls back for the same reason.
 */
static void say_fallback(const char *why)
{
	static bool said;

	if (!said)
		gdr_info("%s; trying nvidia-peermem (said once: each GPU region falls back alike)",
			 why);
	said = true;
}

static struct ibv_mr *reg_dmabuf(struct ibv_pd *pd, const struct gdr_xmem *x, int access,
				 bool forced, const char **method)
{
	gdr_reg_dmabuf_fn reg = gdr_ibv_reg_dmabuf_mr();
	bool pcie = x->flags & GDR_XMEM_PCIE;
	char hint[160];
	struct ibv_mr *mr;

	if (!reg && !(x->flags & GDR_XMEM_DATA_DIRECT)) {
		if (forced)
			gdr_err(
			    "--use_cuda_dmabuf: this host's libibverbs has no ibv_reg_dmabuf_mr "
			    "(rdma-core >= 34 needed): update rdma-core or use "
			    "--use_cuda_peermem");
		return NULL;
	}
	if (x->dmabuf_fd < 0) {
		if (forced && pcie)
			gdr_err("%s: %s", x->desc, x->no_dmabuf);
		else if (forced)
			gdr_err("dma-buf registration of %s: %s: try --use_cuda_peermem", x->desc,
				x->no_dmabuf);
		else {
			snprintf(hint, sizeof(hint), "dma-buf not usable (%.130s)", x->no_dmabuf);
			say_fallback(hint);
		}
		return NULL;
	}
	if (x->flags & GDR_XMEM_DATA_DIRECT)
		return reg_data_direct(pd, x, access, method);
	mr = reg(pd, x->dmabuf_off, x->len, (uint64_t)(uintptr_t)x->addr, x->dmabuf_fd, access);
#if HAVE_DECL_IBV_ACCESS_RELAXED_ORDERING
	/* Optional flags are not masked on this path everywhere: retry without. */
	if (!mr && (access & IBV_ACCESS_RELAXED_ORDERING))
		mr = reg(pd, x->dmabuf_off, x->len, (uint64_t)(uintptr_t)x->addr, x->dmabuf_fd,
			 access & ~IBV_ACCESS_RELAXED_ORDERING);
#endif
	if (!mr) {
		int e = errno;

		reg_hint(x, e, hint, sizeof(hint));
		if (forced)
			gdr_err("ibv_reg_dmabuf_mr of %zu bytes on %s%s: %s: %s", x->len, x->desc,
				pcie ? " (dma-buf mapped through PCIe BAR1)" : "", strerror(e),
				hint);
		else {
			snprintf(hint, sizeof(hint), "ibv_reg_dmabuf_mr failed (%s)", strerror(e));
			say_fallback(hint);
		}
		return NULL;
	}
	*method = pcie ? "dma-buf-pcie" : "dma-buf";
	return mr;
}

static struct ibv_mr *reg_peermem(struct ibv_pd *pd, const struct gdr_xmem *x, int acc,
				  bool tried_dmabuf, const char **method)
{
	struct ibv_mr *mr = ibv_reg_mr(pd, x->addr, x->len, acc);
	char hint[320];
	int e;

	if (mr) {
		*method = "peermem";
		return mr;
	}
	e = errno;
	if (!gdr_peermem_loaded(""))
		snprintf(hint, sizeof(hint),
			 GDR_PEERMEM_NONE ": run 'sudo modprobe nvidia-peermem'%s",
			 tried_dmabuf ? "" : " or try --use_cuda_dmabuf");
	else
		reg_hint(x, e, hint, sizeof(hint));
	gdr_err("registering %zu bytes of %s with the NIC%s failed: %s: %s", x->len, x->desc,
		tried_dmabuf ? " (dma-buf, then nvidia-peermem)" : " (nvidia-peermem)", strerror(e),
		hint);
	return NULL;
}

struct ibv_mr *gdr_vx_reg_cuda(struct ibv_pd *pd, const struct gdr_xmem *x, int access,
			       const char **method)
{
	/* auto: the export offered a dma-buf, or tried to and said why not */
	bool auto_dmabuf = x->dmabuf_fd >= 0 || x->no_dmabuf[0];

	if (x->flags & GDR_XMEM_BY_DMABUF)
		return reg_dmabuf(pd, x, access, true, method);
	if (x->flags & GDR_XMEM_BY_ADDR)
		return reg_peermem(pd, x, access, false, method);
	if (auto_dmabuf && !gdr_ibv_reg_dmabuf_mr()) {
		say_fallback("dma-buf not usable (this host's libibverbs has no ibv_reg_dmabuf_mr: "
			     "rdma-core >= 34 needed)");
		auto_dmabuf = false;
	}
	if (auto_dmabuf) {
		struct ibv_mr *mr = reg_dmabuf(pd, x, access, false, method);

		if (mr)
			return mr;
	}
	return reg_peermem(pd, x, access, auto_dmabuf, method);
}
