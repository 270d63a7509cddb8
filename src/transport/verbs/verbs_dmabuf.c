/* SPDX-License-Identifier: MIT */
/* ibv_reg_dmabuf_mr and mlx5dv data direct, resolved at run time (see verbs_reg.h). */
#include "config.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "verbs_reg.h"

static gdr_reg_dmabuf_fn reg_fn;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void resolve(void)
{
	/* The binaries link libibverbs: its symbols are in the global scope. */
	void *sym = dlsym(RTLD_DEFAULT, "ibv_reg_dmabuf_mr");
	void *lib;

	if (!sym && (lib = dlopen("libibverbs.so.1", RTLD_NOW | RTLD_NOLOAD))) {
		sym = dlsym(lib, "ibv_reg_dmabuf_mr");
		dlclose(lib);
	}
	*(void **)&reg_fn = sym;
}

int gdr_dd_iova_ok(uint64_t iova, size_t page)
{
	return page && !(page & (page - 1)) && !(iova & (page - 1));
}

gdr_reg_dmabuf_fn gdr_ibv_reg_dmabuf_mr(void)
{
	pthread_once(&once, resolve);
	return reg_fn;
}

int gdr_data_direct_load(struct gdr_data_direct *dd, char *why, size_t n)
{
	const char *path = getenv("GDR_LIBMLX5");
	void *lib;

	if (!path || !*path)
		path = "libmlx5.so.1";
	lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(why, n, "%s not found (rdma-core's mlx5 provider)", path);
		return -1;
	}
	*(void **)&dd->sysfs_path = dlsym(lib, "mlx5dv_get_data_direct_sysfs_path");
	*(void **)&dd->reg_dmabuf_mr = dlsym(lib, "mlx5dv_reg_dmabuf_mr");
	if (!dd->sysfs_path || !dd->reg_dmabuf_mr) {
		snprintf(why, n, "%s has no %s (an rdma-core with data direct is needed)", path,
			 !dd->sysfs_path ? "mlx5dv_get_data_direct_sysfs_path"
					 : "mlx5dv_reg_dmabuf_mr");
		dlclose(lib);
		return -1;
	}
	return 0; /* the library stays loaded: its MRs outlive this call */
}
