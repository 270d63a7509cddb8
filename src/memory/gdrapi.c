/* SPDX-License-Identifier: MIT */
/* Run-time loading of gdrcopy's libgdrapi.so.2 (see gdrapi.h). */
#include "config.h"
#include "gdrapi.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "dlib.h"

#define GDRAPI_LIB "libgdrapi.so.2"

struct sym {
	const char *name;
	size_t off;
};

#define S(n)                                                                                       \
	{                                                                                          \
#n, offsetof(struct gdr_gdrapi, n)                                                 \
	}

static const struct sym syms[] = {
    S(gdr_open), S(gdr_close), S(gdr_pin_buffer),      S(gdr_unpin_buffer),
    S(gdr_map),	 S(gdr_unmap), S(gdr_copy_to_mapping), S(gdr_copy_from_mapping),
};

static struct gdr_gdrapi api;
static struct gdr_dlib lib = GDR_DLIB_INIT;

static void do_load(void)
{
	void *h = gdr_dlib_open(&lib, "GDR_LIBGDRAPI", GDRAPI_LIB, "gdrcopy is not installed");
	void *fn;
	size_t i;

	if (!h)
		return;
	for (i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		fn = dlsym(h, syms[i].name);
		if (!fn) {
			snprintf(lib.why, sizeof(lib.why), "%s lacks %s: not a gdrcopy 2.x library",
				 lib.path, syms[i].name);
			dlclose(h);
			return;
		}
		memcpy((char *)&api + syms[i].off, &fn, sizeof(fn));
	}
	/* 2.x headers name the v2 call gdr_get_info; the plain symbol is the older layout. */
	fn = dlsym(h, "gdr_get_info_v2");
	api.info_v2 = fn != NULL;
	if (!fn)
		fn = dlsym(h, "gdr_get_info");
	if (!fn) {
		snprintf(lib.why, sizeof(lib.why),
			 "%s lacks gdr_get_info: not a gdrcopy 2.x library", lib.path);
		dlclose(h);
		return;
	}
	memcpy(&api.gdr_get_info, &fn, sizeof(fn));
	/* The library stays loaded for the life of the process. */
	lib.rc = 0;
}

int gdr_gdrapi_load(const struct gdr_gdrapi **out, char *why, size_t n)
{
	if (gdr_dlib_once(&lib, do_load, why, n))
		return -1;
	*out = &api;
	return 0;
}

void *gdr_gdrapi_open(const struct gdr_gdrapi *a, char *why, size_t n)
{
	void *g = a->gdr_open();
	int fd, err;

	if (g)
		return g;
	/* The library logs nothing by default: find out what stopped it. */
	fd = open(GDR_GDRDRV_NODE, O_RDWR | O_CLOEXEC);
	err = errno;
	if (fd >= 0) {
		close(fd);
		snprintf(why, n,
			 "gdr_open failed though %s opens: gdrdrv older than this libgdrapi "
			 "(need gdrdrv 2.0 or newer)",
			 GDR_GDRDRV_NODE);
	} else if (err == ENOENT || err == ENXIO || err == ENODEV) {
		snprintf(why, n, "gdrdrv module not loaded (no %s)", GDR_GDRDRV_NODE);
	} else {
		snprintf(why, n, "gdr_open failed: cannot open %s: %s", GDR_GDRDRV_NODE,
			 strerror(err));
	}
	return NULL;
}
