#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/tools/report.py and plot.py on the cluster CSVs of tests/report/ (t_report.py; it runs
# itself again under a python3 that has matplotlib, or exits 77 when there is none).
srcdir=${srcdir:-.}
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
out=t_report.tmp.d
rm -rf "$out" && mkdir -p "$out" || exit 1
MPLCONFIGDIR=$out/mpl python3 "$srcdir/tests/report/t_report.py" "$srcdir" "$out"
rc=$?
[ $rc = 0 ] && rm -rf "$out"
exit $rc
