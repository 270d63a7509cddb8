# src/memory: test memory backends (host, CUDA), the CUDA driver loaded at run time, GPU topology.
libgdrcore_a_SOURCES += src/memory/mem.c src/memory/mem.h src/memory/mem_api.c src/memory/cuda_topo.c \
	src/memory/gpu_pair.c src/memory/gpu_pair.h src/memory/gpu_pick.c src/memory/gpu_pick.h \
	src/memory/cuda_topo.h src/memory/dmabuf.c src/memory/dmabuf.h src/memory/peermem.c \
	src/memory/peermem.h src/memory/pairing.c src/memory/pairing.h
# gdrcopy's libgdrapi.so.2, loaded at run time (no build or run dependency)
libgdrcore_a_SOURCES += src/memory/gdrapi.c src/memory/gdrapi.h
# the HIP runtime (ROCm) and the HSA dma-buf export, loaded at run time (nothing at build time)
libgdrcore_a_SOURCES += src/memory/hip_api.c src/memory/hip_api.h src/memory/mem_rocm.c \
	src/memory/mem_rocm.h
check_PROGRAMS += tests/unit/t_dmabuf
# the pairing file --matrix writes and --use_cuda=auto reads (pairing.c)
check_PROGRAMS += tests/unit/t_pairing
TESTS += tests/unit/t_pairing
tests_unit_t_pairing_SOURCES = tests/unit/t_pairing.c
# memory exports, the transport registers: no NIC API header in memory or below (t_mem_nic.sh);
# the export a transport registers (xmem.h), host memory's (mem.h; issue 45)
libgdrcore_a_SOURCES += src/memory/xmem.h
check_PROGRAMS += tests/unit/t_mem_export
TESTS += tests/unit/t_mem_export
tests_unit_t_mem_export_SOURCES = tests/unit/t_mem_export.c
TESTS += tests/unit/t_dmabuf tests/unit/t_imports.sh tests/unit/t_mem_kind.sh tests/unit/t_mem_nic.sh
EXTRA_DIST += tests/unit/t_imports.sh tests/unit/t_mem_kind.sh tests/unit/t_mem_nic.sh
check_PROGRAMS += tests/cuda/t_cuda_topo
TESTS += tests/cuda/t_cuda_topo
if HAVE_CUDA
libgdrcore_a_SOURCES += src/memory/cuda_api.c src/memory/cuda_api.h src/memory/mem_cuda.c
check_PROGRAMS += tests/cuda/t_cuda_backend tests/cuda/t_cuda_nodriver tests/cuda/ref_memcpy
TESTS += tests/cuda/t_cuda_backend tests/cuda/t_cuda_nodriver
endif
# The HIP loader against the real HIP runtime (Debian's libamdhip64-5; skips without it).
check_PROGRAMS += tests/hip/hip_load
TESTS += tests/hip/real_lib.sh
EXTRA_DIST += tests/hip/real_lib.sh
