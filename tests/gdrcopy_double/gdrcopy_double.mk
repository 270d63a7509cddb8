# tests/gdrcopy_double: the gdrcopy double, a libgdrapi.so.2 over the CUDA driver double's
# memory (a test tool, never installed). Built by `make check`; GDR_LIBGDRAPI loads it.
if HAVE_CUDA
check_PROGRAMS += tests/gdrcopy_double/libgdrapi.so.2
tests_gdrcopy_double_libgdrapi_so_2_SOURCES = tests/gdrcopy_double/gdrdbl.c
tests_gdrcopy_double_libgdrapi_so_2_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
tests_gdrcopy_double_libgdrapi_so_2_LDFLAGS = $(AM_LDFLAGS) -shared -Wl,-soname,libgdrapi.so.2 \
	-Wl,--no-undefined
tests_gdrcopy_double_libgdrapi_so_2_LDADD = -lpthread

# The gdrcopy copier on both doubles: copies, faults, an absent library.
check_PROGRAMS += tests/cuda/t_copier_gdrcopy
TESTS += tests/cuda/t_copier_gdrcopy_double.sh
endif
EXTRA_DIST += tests/cuda/t_copier_gdrcopy_double.sh tests/cuda/gdrcopy-env.sh \
	docs/gdrcopy-double.md
