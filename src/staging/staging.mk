# src/staging: the staged path's one owner: copiers (copy engine, gdrcopy, GPU kernel, memcpy),
# the per-size plan, the copy-rate probe and the staged posting loop.
libgdrcore_a_SOURCES += src/staging/staging.h src/staging/plan.h src/staging/plan.c \
	src/staging/copier.h src/staging/copier.c src/staging/copier_ce.c src/staging/copier_ce.h \
	src/staging/copier_batch.c \
	src/staging/copier_memcpy.c src/staging/staging_prep.c src/staging/staging_bw.c \
	src/staging/probe.c src/staging/row.c src/staging/choice.h src/staging/choice.c \
	src/staging/choose.c src/staging/stage_wr.h src/staging/stage_wr.c src/staging/run_copier.c \
	src/staging/peer_gpu.c
check_PROGRAMS += tests/unit/t_stage_plan tests/unit/t_copier tests/unit/t_stage_choice
TESTS += tests/unit/t_stage_plan tests/unit/t_copier tests/unit/t_stage_choice
# the copier names' one list (options/copier_names.h) drives the registry, auto and --stage_copy
check_PROGRAMS += tests/unit/t_copier_names
TESTS += tests/unit/t_copier_names
tests_unit_t_copier_names_SOURCES = tests/unit/t_copier_names.c
tests_unit_t_stage_choice_LDADD = $(GDR_LIBS)
tests_unit_t_stage_plan_LDADD = $(GDR_LIBS)
tests_unit_t_copier_LDADD = $(GDR_LIBS)
# gdrcopy: the CPU through a BAR1 mapping (libgdrapi.so.2 loaded at run time by src/memory/gdrapi.c)
libgdrcore_a_SOURCES += src/staging/copier_gdrcopy.c src/staging/copier_gdrcopy.h

# The sm copier: a persistent GPU kernel (sm_copy.cu) whose PTX (sm_copy.ptx, made on a machine
# with nvcc by scripts/gpu/sm-ptx.sh) the build embeds as a C string; no nvcc needed here.
libgdrcore_a_SOURCES += src/staging/copier_sm.c src/staging/copier_sm.h src/staging/sm_proto.h
nodist_libgdrcore_a_SOURCES = src/staging/sm_copy_ptx.c
CLEANFILES = src/staging/sm_copy_ptx.c
EXTRA_DIST += src/staging/sm_copy.cu src/staging/sm_copy.ptx scripts/gpu/sm-ptx.sh \
	tests/cuda/t_sm_ptx.sh
TESTS += tests/cuda/t_sm_ptx.sh
src/staging/sm_copy_ptx.c: $(top_srcdir)/src/staging/sm_copy.ptx $(top_srcdir)/src/gpukern/ptx-embed.sh
	$(AM_V_GEN)$(MKDIR_P) src/staging && $(SHELL) $(top_srcdir)/src/gpukern/ptx-embed.sh \
	  gdr_sm_copy_ptx $(top_srcdir)/src/staging/sm_copy.ptx >$@-t && mv $@-t $@
