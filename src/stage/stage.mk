# fragment: src/stage/stage.mk -- gdr_stage_bw, owner H3
bin_PROGRAMS += gdr_stage_bw
gdr_stage_bw_SOURCES = src/stage/main.c src/stage/stage.h src/stage/stage_opts.c \
	src/stage/stage_run.c src/stage/stage_copy.c src/stage/stage_copy.h \
	src/stage/stage_multi.c src/stage/stage_multi.h src/stage/stage_out.c
dist_man_MANS += man/gdr_stage_bw.1
dist_noinst_SCRIPTS += scripts/bench/bench-stage.sh
TESTS += tests/cuda/t_stage_cli.sh
EXTRA_DIST += tests/cuda/t_stage_cli.sh
