# tests/hip_double: the HIP runtime double, a libamdhip64 on host memory for tests (never
# installed), built twice: .so.6 with the HSA dma-buf export (ROCm >= 5.6), .so.5 without it.
# Tests load it with GDR_LIBHIP (and GDR_LIBHSA for the export); docs/rocm.md.
HIP_DOUBLE_SRC = tests/hip_double/hdbl.h tests/hip_double/hdbl_conf.c \
	tests/hip_double/hdbl_mem.c tests/hip_double/hdbl_stream.c \
	tests/doubles/dbl_env.h tests/doubles/dbl_env.c
check_PROGRAMS += tests/hip_double/libamdhip64.so.6 tests/hip_double/libamdhip64.so.5
tests_hip_double_libamdhip64_so_6_SOURCES = $(HIP_DOUBLE_SRC)
tests_hip_double_libamdhip64_so_6_CPPFLAGS = -I$(top_srcdir)/tests/doubles -DHDBL_HSA_EXPORT -DHDBL_RUNTIME_VERSION=60443483
tests_hip_double_libamdhip64_so_6_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
tests_hip_double_libamdhip64_so_6_LDFLAGS = $(AM_LDFLAGS) -shared \
	-Wl,-soname,libamdhip64.so.6 -Wl,--no-undefined
tests_hip_double_libamdhip64_so_6_LDADD = -lpthread
tests_hip_double_libamdhip64_so_5_SOURCES = $(HIP_DOUBLE_SRC)
tests_hip_double_libamdhip64_so_5_CPPFLAGS = -I$(top_srcdir)/tests/doubles -DHDBL_RUNTIME_VERSION=50221153
tests_hip_double_libamdhip64_so_5_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
tests_hip_double_libamdhip64_so_5_LDFLAGS = $(AM_LDFLAGS) -shared \
	-Wl,-soname,libamdhip64.so.5 -Wl,--no-undefined
tests_hip_double_libamdhip64_so_5_LDADD = -lpthread
# The loader and the double together: devices and fixtures, faults, the export present or absent.
check_PROGRAMS += tests/hip/t_hip_double
TESTS += tests/hip/t_hip_double.sh
EXTRA_DIST += tests/hip/t_hip_double.sh tests/hip_double/mi300x.fixture \
	tests/hip_double/mi300x-swapped.fixture tests/hip_double/mi300x-qpx.fixture
# The ROCm memory backend over the double (registration is the e2e suite's: it needs verbs).
check_PROGRAMS += tests/hip/t_rocm_backend
TESTS += tests/hip/t_rocm_backend.sh
EXTRA_DIST += tests/hip/t_rocm_backend.sh
# gdr_stage_bw --use_rocm over the double: the ce copier on HIP streams, one GPU, all, a list.
TESTS += tests/hip/t_rocm_stage.sh
EXTRA_DIST += tests/hip/t_rocm_stage.sh
