# fragment: src/core/cuda.mk -- CUDA backend (driver API loaded at run time), owner H3
libgdrcore_a_SOURCES += src/core/cuda_topo.c src/core/cuda_topo.h
check_PROGRAMS += tests/cuda/t_cuda_topo
TESTS += tests/cuda/t_cuda_topo
tests_cuda_t_cuda_topo_LDADD = $(GDR_LIBS)
if HAVE_CUDA
libgdrcore_a_SOURCES += src/core/cuda_api.c src/core/cuda_api.h src/core/mem_cuda.c
check_PROGRAMS += tests/cuda/t_cuda_backend tests/cuda/t_cuda_nodriver tests/cuda/ref_memcpy
TESTS += tests/cuda/t_cuda_backend tests/cuda/t_cuda_nodriver
tests_cuda_t_cuda_backend_LDADD = $(GDR_LIBS)
tests_cuda_t_cuda_nodriver_LDADD = $(GDR_LIBS)
tests_cuda_ref_memcpy_LDADD = $(GDR_LIBS)
endif
