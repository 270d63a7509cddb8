# src/staging: the staged path's one owner: copiers (copy engine, gdrcopy, GPU kernel, memcpy),
# the per-size plan, the copy-rate probe and the staged posting loop.
libgdrcore_a_SOURCES += src/staging/copier.h
# gdrcopy: the CPU through a BAR1 mapping (libgdrapi.so.2 loaded at run time by src/memory/gdrapi.c)
libgdrcore_a_SOURCES += src/staging/copier_gdrcopy.c src/staging/copier_gdrcopy.h

# The sm copier: a persistent GPU kernel (sm_copy.cu) whose PTX (sm_copy.ptx, made on a machine
# with nvcc by scripts/h100/sm-ptx.sh) the build embeds as a C string; no nvcc needed here.
libgdrcore_a_SOURCES += src/staging/copier_sm.c src/staging/copier_sm.h src/staging/sm_proto.h
nodist_libgdrcore_a_SOURCES = src/staging/sm_copy_ptx.c
CLEANFILES = src/staging/sm_copy_ptx.c
EXTRA_DIST += src/staging/sm_copy.cu src/staging/sm_copy.ptx scripts/h100/sm-ptx.sh \
	tests/cuda/t_sm_ptx.sh
TESTS += tests/cuda/t_sm_ptx.sh
src/staging/sm_copy_ptx.c: $(top_srcdir)/src/staging/sm_copy.ptx $(top_srcdir)/src/staging/staging.mk
	$(AM_V_GEN)$(MKDIR_P) src/staging && { \
	  echo '/* Generated from src/staging/sm_copy.ptx by staging.mk: do not edit. */'; \
	  echo 'extern const char gdr_sm_copy_ptx[];'; \
	  echo 'const char gdr_sm_copy_ptx[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $(top_srcdir)/src/staging/sm_copy.ptx; \
	  echo ';'; } >$@-t && mv $@-t $@
