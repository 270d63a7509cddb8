# src/report: results model and the reporters (text, CSV, JSON); sweep runner and plots.
libgdrcore_a_SOURCES += src/report/report.c src/report/report_priv.h src/report/report_cells.c \
	src/report/report_sbuf.c src/report/report_text.c src/report/report_number.c src/report/report_csv.c src/report/report_json.c \
	src/report/verdict.c src/report/verdict.h src/report/report_prom.c src/report/prom.c src/report/prom.h \
	src/report/repeat.c src/report/repeat.h src/report/cmp_verdict.c src/report/cmp_verdict.h
libgdrcore_a_SOURCES += src/report/report.h src/report/reporter.h src/report/results.h

check_PROGRAMS += tests/unit/t_report
tests_unit_t_report_SOURCES = tests/unit/t_report.c
tests_unit_t_report_CPPFLAGS = $(AM_CPPFLAGS) -DGDR_GOLDEN_DIR='"$(abs_top_srcdir)/tests/golden"'
TESTS += tests/unit/t_report tests/unit/t_report_json.sh tests/plot/t_plot.sh tests/plot/t_plot_kv.sh \
	tests/unit/t_sweep.sh tests/plot/t_py_circles.sh

# the user tools and the module they import (installed beside them, so they run from there)
dist_pkgdata_SCRIPTS += scripts/tools/sweep.sh scripts/tools/plot.py scripts/tools/report.py
dist_pkgdata_DATA += scripts/tools/clustercsv.py scripts/tools/clusterfab.py
dist_noinst_SCRIPTS += scripts/ci/python-with.sh
EXTRA_DIST += tests/unit/t_report_json.sh tests/plot/t_plot.sh tests/plot/matrix.csv tests/plot/t_py_circles.sh \
	tests/plot/t_plot_kv.sh tests/plot/kv.csv \
	tests/unit/t_sweep.sh \
	tests/golden/report.csv tests/golden/report.json tests/golden/report_bw.txt \
	tests/golden/report_lat.txt tests/golden/report_bw_gbits.txt results/README.md

# acceptance: verdicts, counters (sysfs fixture), the Prometheus file and its parser check
check_PROGRAMS += tests/unit/t_accept
tests_unit_t_accept_SOURCES = tests/unit/t_accept.c
# --prom keeps its own copy of a row's path label (the matrix frees a cell's rows after it)
check_PROGRAMS += tests/unit/t_prom_keep
TESTS += tests/unit/t_prom_keep
tests_unit_t_prom_keep_SOURCES = tests/unit/t_prom_keep.c
TESTS += tests/unit/t_prom.sh tests/unit/t_prom_run.sh
EXTRA_DIST += tests/unit/t_prom.sh tests/unit/t_prom_run.sh
# A pair's text table with a floor: each judged row's PASS/FAIL and the verdict line.
check_PROGRAMS += tests/unit/t_text_verdict
TESTS += tests/unit/t_text_verdict
tests_unit_t_text_verdict_LDADD = $(GDR_LIBS)
