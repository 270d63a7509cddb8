# src/gpukern: the host side of a persistent GPU kernel, written once (gpukern.h): the PTX
# image, the module, the driver's entry points, stream, launch, stop and a silent kernel's
# state. The gpu-proxy path (src/gproxy) and the sm copier (src/staging) bring the kernel.
libgdrcore_a_SOURCES += src/gpukern/gpukern.h src/gpukern/gpukern.c src/gpukern/gk_ptx.c
# a kernel's committed PTX as a C string (gproxy.mk, staging.mk): no nvcc needed to build
EXTRA_DIST += src/gpukern/ptx-embed.sh
# its PTX image loader, no driver needed
check_PROGRAMS += tests/cuda/t_gpukern_ptx
TESTS += tests/cuda/t_gpukern_ptx
