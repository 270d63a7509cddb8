# src/staging: the staged path's one owner: copiers (copy engine, gdrcopy, GPU kernel, memcpy),
# the per-size plan, the copy-rate probe and the staged posting loop.
libgdrcore_a_SOURCES += src/staging/staging.h src/staging/plan.h src/staging/plan.c \
	src/staging/copier.h src/staging/copier.c src/staging/copier_ce.c \
	src/staging/copier_memcpy.c src/staging/staging_prep.c src/staging/staging_bw.c \
	src/staging/probe.c src/staging/row.c
check_PROGRAMS += tests/unit/t_stage_plan tests/unit/t_copier
TESTS += tests/unit/t_stage_plan tests/unit/t_copier
tests_unit_t_stage_plan_LDADD = $(GDR_LIBS)
tests_unit_t_copier_LDADD = $(GDR_LIBS)
# gdrcopy: the CPU through a BAR1 mapping (libgdrapi.so.2 loaded at run time by src/memory/gdrapi.c)
libgdrcore_a_SOURCES += src/staging/copier_gdrcopy.c src/staging/copier_gdrcopy.h
