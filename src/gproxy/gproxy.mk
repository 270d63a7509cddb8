# src/gproxy: the gpu-proxy path: a persistent kernel (gp_kernel.cu) writing descriptors into
# queues in mapped host memory, CPU proxy threads serving them (gproxy.c). Its PTX
# (gp_kernel.ptx, made on a machine with nvcc by scripts/gpu/sm-ptx.sh gp) is embedded as a C
# string, as the sm copier's; no nvcc needed here.
libgdrcore_a_SOURCES += src/gproxy/gproxy.h src/gproxy/gproxy.c src/gproxy/gp_proto.h \
	src/gproxy/gp_null.h src/gproxy/gp_null.c
nodist_libgdrcore_a_SOURCES += src/gproxy/gp_kernel_ptx.c
CLEANFILES += src/gproxy/gp_kernel_ptx.c
EXTRA_DIST += src/gproxy/gp_kernel.cu src/gproxy/gp_kernel.ptx tests/cuda/t_gp_ptx.sh
TESTS += tests/cuda/t_gp_ptx.sh
src/gproxy/gp_kernel_ptx.c: $(top_srcdir)/src/gproxy/gp_kernel.ptx $(top_srcdir)/src/gpukern/ptx-embed.sh
	$(AM_V_GEN)$(MKDIR_P) src/gproxy && $(SHELL) $(top_srcdir)/src/gpukern/ptx-embed.sh \
	  gdr_gp_kernel_ptx $(top_srcdir)/src/gproxy/gp_kernel.ptx >$@-t && mv $@-t $@
