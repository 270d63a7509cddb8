# src/options: the one option engine (rows, values, parsing, rules, help) and the tests'
# table on it; base below it.
libgdrcore_a_SOURCES += src/options/optengine.h src/options/opt_rows.c src/options/opt_value.c \
	src/options/opt_number.c src/options/opt_engine.c src/options/opt_help.c \
	src/options/opts.h src/options/opts.c src/options/opts_table.h src/options/opts_table.c \
	src/options/opts_hooks.c src/options/opts_values.c src/options/size.c \
	src/options/opt_exact.c src/options/opts_query.c src/options/opts_conn.c src/options/opts_compat.c src/options/opts_kv.c \
	src/options/opt_tool.h src/options/opt_tool.c \
	src/options/verb_def.h src/options/verb_def.c src/options/copier_names.h

check_PROGRAMS += tests/unit/t_opts tests/unit/t_size tests/unit/t_opt_check
tests_unit_t_opt_check_SOURCES = tests/unit/t_opt_check.c
tests_unit_t_opts_SOURCES = tests/unit/t_opts.c
tests_unit_t_size_SOURCES = tests/unit/t_size.c
TESTS += tests/unit/t_opts tests/unit/t_size tests/unit/t_opt_check

# One page for the six tests; each program's page is a .so link to it.
dist_man_MANS += man/gdrperf.1 man/gdr_write_bw.1 man/gdr_read_bw.1 man/gdr_send_bw.1 \
	man/gdr_write_lat.1 man/gdr_read_lat.1 man/gdr_send_lat.1 man/gdr_atomic_bw.1 \
	man/gdr_atomic_lat.1

# Script tests, run from the build directory (the programs are ./gdr_*).
TESTS += tests/badinput.sh tests/readme-options.sh
EXTRA_DIST += tests/badinput.sh tests/readme-options.sh
dist_noinst_SCRIPTS += scripts/ci/readme-options.sh
