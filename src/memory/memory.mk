# src/memory: test memory backends (host, CUDA), the CUDA driver loaded at run time, GPU topology.
libgdrcore_a_SOURCES += src/memory/mem.c src/memory/mem.h src/memory/stager.c src/memory/stager.h src/memory/cuda_topo.c \
	src/memory/cuda_topo.h
check_PROGRAMS += tests/cuda/t_cuda_topo
TESTS += tests/cuda/t_cuda_topo
tests_cuda_t_cuda_topo_LDADD = $(GDR_LIBS)
if HAVE_CUDA
libgdrcore_a_SOURCES += src/memory/cuda_api.c src/memory/cuda_api.h src/memory/mem_cuda.c
check_PROGRAMS += tests/cuda/t_cuda_backend tests/cuda/t_cuda_nodriver tests/cuda/ref_memcpy
TESTS += tests/cuda/t_cuda_backend tests/cuda/t_cuda_nodriver
tests_cuda_t_cuda_backend_LDADD = $(GDR_LIBS)
tests_cuda_t_cuda_nodriver_LDADD = $(GDR_LIBS)
tests_cuda_ref_memcpy_LDADD = $(GDR_LIBS)
endif
