/* SPDX-License-Identifier: MIT */
/* CUDA double: the exported entry points (cuInit, cuGetProcAddress) and error strings. */
#include "dbl.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#undef cuGetProcAddress

int dbl_inited;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int conf_rc = -1;
/*
 * The driver's fork rule (measured on an H200, driver 580.159.04): a process forked after its
 * parent's cuInit gets CUDA_ERROR_NOT_INITIALIZED from every call, cuInit included; one forked
 * before it works. init_pid is the process whose cuInit succeeded; the child's handler below
 * clears dbl_inited, so every entry point's check refuses, and cuInit compares the pid.
 */
static pid_t init_pid;
static int forked_after_init;

static void forked_child(void)
{
	if (init_pid) {
		forked_after_init = 1;
		dbl_inited = 0;
	}
}

__attribute__((constructor)) static void fork_rule(void)
{
	pthread_atfork(NULL, NULL, forked_child);
}

static void load(void)
{
	conf_rc = dbl_conf_load();
}

DBL_EXPORT CUresult cuInit(unsigned int flags)
{
	if (forked_after_init || (init_pid && init_pid != getpid()))
		return CUDA_ERROR_NOT_INITIALIZED; /* the fork rule: a fresh cuInit does not help */
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_once(&once, load);
	if (conf_rc)
		return CUDA_ERROR_INVALID_VALUE;
	if (!dbl_conf.ndev)
		return CUDA_ERROR_NO_DEVICE;
	init_pid = getpid();
	dbl_inited = 1;
	return CUDA_SUCCESS;
}

DBL_EXPORT CUresult cuDriverGetVersion(int *v)
{
	if (!v)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_once(&once, load);
	*v = conf_rc ? CUDA_VERSION : dbl_conf.version;
	return CUDA_SUCCESS;
}

struct err_str {
	CUresult r;
	const char *name, *str;
};

static const struct err_str errs[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {CUDA_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_ECC_UNCORRECTABLE, "CUDA_ERROR_ECC_UNCORRECTABLE",
     "uncorrectable ECC error encountered (injected by the CUDA double, GDR_DOUBLE_FAIL=copy)"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_LAUNCH_TIMEOUT, "CUDA_ERROR_LAUNCH_TIMEOUT",
     "the launch timed out and was terminated"},
    {CUDA_ERROR_CONTEXT_IS_DESTROYED, "CUDA_ERROR_CONTEXT_IS_DESTROYED",
     "context is destroyed (lost: injected by the CUDA double, GDR_DOUBLE_FAIL=ctxlost)"},
    {CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
     "part or all of the requested memory range is already mapped"},
    {CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
     "pointer does not correspond to a registered memory region"},
    {CUDA_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch (injected by the CUDA double, "
     "GDR_DOUBLE_FAIL=launch)"},
    {CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN",
     "unknown error (injected by the CUDA double, GDR_DOUBLE_FAIL=flush)"},
};

static const struct err_str *err_find(CUresult r)
{
	size_t i;

	for (i = 0; i < sizeof(errs) / sizeof(errs[0]); i++)
		if (errs[i].r == r)
			return &errs[i];
	return NULL;
}

static CUresult get_error_name(CUresult r, const char **s)
{
	const struct err_str *e = err_find(r);

	if (!s)
		return CUDA_ERROR_INVALID_VALUE;
	*s = e ? e->name : NULL;
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult get_error_string(CUresult r, const char **s)
{
	const struct err_str *e = err_find(r);

	if (!s)
		return CUDA_ERROR_INVALID_VALUE;
	*s = e ? e->str : NULL;
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

const struct dbl_fn dbl_proc_fns[] = {
    {"cuInit", (void *)cuInit, 2000},
    {"cuDriverGetVersion", (void *)cuDriverGetVersion, 2020},
    {"cuGetErrorName", (void *)get_error_name, 6000},
    {"cuGetErrorString", (void *)get_error_string, 6000},
    {NULL, NULL, 0},
};

static CUresult lookup(const char *sym, void **pfn, int ver, CUdriverProcAddressQueryResult *st)
{
	const struct dbl_fn *tabs[] = {dbl_proc_fns,   dbl_dev_fns,    dbl_mem_fns,
				       dbl_stream_fns, dbl_kernel_fns, dbl_batch_fns};
	int known = 0, drv;
	size_t t;

	if (!sym || !pfn)
		return CUDA_ERROR_INVALID_VALUE;
	*pfn = NULL;
	pthread_once(&once, load);
	drv = conf_rc ? CUDA_VERSION : dbl_conf.version;
	for (t = 0; t < sizeof(tabs) / sizeof(tabs[0]); t++) {
		const struct dbl_fn *f;

		for (f = tabs[t]; f->name; f++) {
			/* a form newer than the driver's version is not in that driver */
			if (strcmp(f->name, sym) || (tabs[t] == dbl_batch_fns && f->min_ver > drv))
				continue;
			known = 1;
			/* One ABI per entry, newest first: older requests get an older entry or
			 * none. */
			if (ver < f->min_ver)
				continue;
			*pfn = f->fn;
			*st = CU_GET_PROC_ADDRESS_SUCCESS;
			return CUDA_SUCCESS;
		}
	}
	*st = known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT
		    : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	return CUDA_ERROR_NOT_FOUND;
}

DBL_EXPORT CUresult cuGetProcAddress_v2(const char *sym, void **pfn, int ver, cuuint64_t flags,
					CUdriverProcAddressQueryResult *status)
{
	CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
	CUresult r;

	(void)flags;
	r = lookup(sym, pfn, ver, &st);
	if (status)
		*status = st;
	return r;
}

DBL_EXPORT CUresult cuGetProcAddress(const char *sym, void **pfn, int ver, cuuint64_t flags)
{
	CUdriverProcAddressQueryResult st = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;

	(void)flags;
	return lookup(sym, pfn, ver, &st);
}
