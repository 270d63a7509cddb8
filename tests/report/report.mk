# fragment: tests/report/report.mk (scripts/tools/report.py and plot.py on cluster CSVs)
TESTS += tests/report/t_report.sh
dist_noinst_SCRIPTS += tests/report/browser.sh
EXTRA_DIST += tests/report/t_report.sh tests/report/t_report.py \
	tests/report/shot_check.py tests/report/odd.csv tests/report/vm-badrail.csv \
	tests/report/vm-badrail.summary tests/report/vm-bw.csv tests/report/vm-lat.csv \
	tests/report/topo.csv
