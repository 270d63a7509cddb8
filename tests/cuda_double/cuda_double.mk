# tests/cuda_double: the CUDA driver double, a libcuda.so.1 on host memory for tests (never
# installed). Built by `make check`; tests and the e2e GPU cases load it with GDR_LIBCUDA.
if HAVE_CUDA
check_PROGRAMS += tests/cuda_double/libcuda.so.1
tests_cuda_double_libcuda_so_1_SOURCES = tests/cuda_double/dbl.h tests/cuda_double/dbl_conf.c \
	tests/cuda_double/dbl_proc.c tests/cuda_double/dbl_dev.c tests/cuda_double/dbl_mem.c \
	tests/cuda_double/dbl_stream.c tests/cuda_double/dbl_kernel.c tests/cuda_double/dbl_gp.c tests/cuda_double/dbl_slice.c \
	tests/cuda_double/dbl_batch.c \
	tests/doubles/dbl_env.h tests/doubles/dbl_env.c
tests_cuda_double_libcuda_so_1_CPPFLAGS = $(CUDA_CPPFLAGS) -I$(top_srcdir)/src/staging \
	-I$(top_srcdir)/src/gproxy -I$(top_srcdir)/tests/doubles
tests_cuda_double_libcuda_so_1_CFLAGS = $(AM_CFLAGS) -fPIC -fvisibility=hidden
tests_cuda_double_libcuda_so_1_LDFLAGS = $(AM_LDFLAGS) -shared -Wl,-soname,libcuda.so.1 \
	-Wl,--no-undefined
tests_cuda_double_libcuda_so_1_LDADD = -lpthread

# The GPU unit tests once more, against the double (the real driver runs them as well).
TESTS += tests/cuda/t_cuda_backend_double.sh tests/cuda/t_cuda_driver_double.sh
# The launchers' fork rule: the GPU list from a child, the check before a fork without exec.
check_PROGRAMS += tests/cuda/t_gpu_list
TESTS += tests/cuda/t_gpu_list_double.sh
# gdr_stage_bw --use_cuda=all and lists on eight double devices.
TESTS += tests/cuda/t_stage_multi_double.sh
# --matrix without an ACTIVE RDMA port: the copy leg per GPU and on both at once.
TESTS += tests/cuda/t_matrix_copyleg_double.sh
# gdr_stage_bw's fraction of each GPU's PCIe ceiling, over the hgx8 sysfs fixture.
TESTS += tests/cuda/t_stage_pcie_double.sh
# --use_cuda=auto on the GB200 and HGX fixtures, the GB200 pairs as gdr_doctor's.
check_PROGRAMS += tests/cuda/t_cuda_pick
TESTS += tests/cuda/t_cuda_pick_double.sh
# gdr_doctor's GPU-GPU links on the eight-GPU fixture, NVLink from the double.
TESTS += tests/doctor/gpulinks_double.sh
check_PROGRAMS += tests/cuda/t_cuda_driver
# The sm copier: with the real driver (skips without one), then with the double playing its kernel.
check_PROGRAMS += tests/cuda/t_copier_sm tests/cuda/sm_bench
TESTS += tests/cuda/t_copier_sm tests/cuda/t_copier_sm_double.sh
TESTS += tests/cuda/t_cuda_driver
# A copier's block list (a KV batch's gather, scatter): memcpy, then the copy engine on the double.
check_PROGRAMS += tests/cuda/t_copier_list
TESTS += tests/cuda/t_copier_list_double.sh
# The sm kernel's block-list descriptor by hand: a list lands; one rung without its table faults.
check_PROGRAMS += tests/cuda/t_sm_list_proto
TESTS += tests/cuda/t_sm_list_proto tests/cuda/t_sm_list_proto_double.sh
# The batch copier: one cuMemcpyBatchAsync a list (both forms), refused on a driver without it.
check_PROGRAMS += tests/cuda/t_copier_batch
TESTS += tests/cuda/t_copier_batch_double.sh
# The staged path of KV-cache-shaped rows over loop on the double (write, read; --compare).
TESTS += tests/cuda/t_kv_staged_double.sh
# gdr_stage_bw --block: block lists beside the contiguous copy, each checked; a wrong copy caught.
TESTS += tests/cuda/t_stage_kv_double.sh
# gdr_stage_bw --block --copier=batch: one batched call a list; refused on a driver without it.
TESTS += tests/cuda/t_stage_kv_batch_double.sh
# The staged KV path with --stage_copy=batch over loop; refused before any network step on 12.4.
TESTS += tests/cuda/t_kv_staged_batch_double.sh
tests_cuda_t_cuda_driver_LDADD = $(GDR_LIBS)
# Every run's first CUDA error is named (a --persistent server's later clients too).
check_PROGRAMS += tests/cuda/t_cuda_errors
TESTS += tests/cuda/t_cuda_errors_double.sh
# The gpu-proxy kernel and proxy threads: with the real driver (skips without one), then with the
# double playing the kernel; gdr_proxy_bw's rows and faults.
check_PROGRAMS += tests/cuda/t_gproxy
TESTS += tests/cuda/t_gproxy tests/cuda/t_gproxy_double.sh
# Two processes' persistent kernels on one GPU take turns (the double's time slice); under MPS not.
check_PROGRAMS += tests/cuda/ts_ping
TESTS += tests/cuda/t_timeslice_double.sh
endif
EXTRA_DIST += tests/cuda/t_cuda_backend_double.sh tests/cuda/t_cuda_driver_double.sh \
	tests/cuda/t_cuda_errors_double.sh tests/cuda/t_gproxy_double.sh tests/cuda/t_gpu_list_double.sh \
	tests/cuda/t_timeslice_double.sh \
	tests/cuda/t_stage_multi_double.sh tests/cuda/t_matrix_copyleg_double.sh tests/cuda/t_stage_pcie_double.sh \
	tests/doctor/gpulinks_double.sh \
	tests/cuda_double/eight-gpus.fixture tests/cuda/double-env.sh tests/cuda_double/two-gpus.fixture tests/cuda_double/gb200.fixture \
	tests/cuda/t_cuda_pick_double.sh tests/e2e/gpu.tab tests/cuda/t_copier_sm_double.sh \
	tests/cuda/t_copier_list_double.sh tests/cuda/t_sm_list_proto_double.sh \
	tests/cuda/t_copier_batch_double.sh \
	tests/cuda/t_stage_kv_batch_double.sh tests/cuda/t_kv_staged_batch_double.sh \
	tests/cuda/t_kv_staged_double.sh tests/cuda/t_stage_kv_double.sh \
	docs/cuda-double.md
