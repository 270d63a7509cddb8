/* SPDX-License-Identifier: MIT */
/* Run-time loading of libfabric.so.1 (see ofi_api.h). */
#include "config.h"
#include "ofi_api.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include "dlib.h"

#define OFI_LIB "libfabric.so.1"

struct sym {
	const char *name;
	size_t off;
};

#define S(n)                                                                                       \
	{                                                                                          \
#n, offsetof(struct gdr_ofi_api, n)                                                \
	}

static const struct sym syms[] = {
    S(fi_getinfo), S(fi_freeinfo), S(fi_dupinfo), S(fi_fabric), S(fi_strerror), S(fi_version),
};

static struct gdr_ofi_api api;
static struct gdr_dlib lib = GDR_DLIB_INIT;

static void do_load(void)
{
	void *h =
	    gdr_dlib_open(&lib, "GDR_LIBFABRIC", OFI_LIB,
			  "libfabric is not installed (Debian/Ubuntu: apt-get install libfabric1)");
	void *fn;

	if (!h)
		return;
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		fn = dlsym(h, syms[i].name);
		if (!fn) {
			snprintf(lib.why, sizeof(lib.why),
				 "%s lacks %s: not a libfabric 1.x library", lib.path,
				 syms[i].name);
			dlclose(h);
			return;
		}
		memcpy((char *)&api + syms[i].off, &fn, sizeof(fn));
	}
	/* The library stays loaded for the life of the process (providers keep threads). */
	lib.rc = 0;
}

int gdr_ofi_load(const struct gdr_ofi_api **out, char *why, size_t n)
{
	if (gdr_dlib_once(&lib, do_load, why, n))
		return -1;
	*out = &api;
	return 0;
}
