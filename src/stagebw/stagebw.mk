# fragment: src/stagebw/stagebw.mk -- gdr_stage_bw, owner H3
bin_PROGRAMS += gdr_stage_bw
gdr_stage_bw_SOURCES = src/stagebw/main.c src/stagebw/stage.h src/stagebw/stage_opts.c \
	src/stagebw/stage_run.c src/stagebw/stage_copy.c src/stagebw/stage_copy.h \
	src/stagebw/stage_multi.c src/stagebw/stage_multi.h src/stagebw/stage_out.c \
	src/stagebw/stage_kv.c src/stagebw/stage_kv.h
dist_man_MANS += man/gdr_stage_bw.1
dist_noinst_SCRIPTS += scripts/bench/bench-stage.sh
TESTS += tests/cuda/t_stage_cli.sh
EXTRA_DIST += tests/cuda/t_stage_cli.sh
# --time: a measurement's copies from the warm-up's rate (a model of the copies, no GPU)
check_PROGRAMS += tests/unit/t_stage_timed
TESTS += tests/unit/t_stage_timed
tests_unit_t_stage_timed_SOURCES = tests/unit/t_stage_timed.c src/stagebw/stage_copy.c
tests_unit_t_stage_timed_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/stagebw
# --block's measuring loop: offsets, lanes, gather, scatter, the contiguous reference (memcpy copier)
check_PROGRAMS += tests/unit/t_stage_kv
TESTS += tests/unit/t_stage_kv
tests_unit_t_stage_kv_SOURCES = tests/unit/t_stage_kv.c src/stagebw/stage_kv.c src/stagebw/stage_copy.c
tests_unit_t_stage_kv_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/src/stagebw -I$(top_srcdir)/tests/unit
