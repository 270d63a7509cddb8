#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/report.py and plot.py on the cluster CSVs of tests/report/ (t_report.py).
srcdir=${srcdir:-.}
py=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import matplotlib' 2>/dev/null; then
		py=$p
		break
	fi
done
[ -n "$py" ] || { echo "SKIP: no python3 with matplotlib"; exit 77; }
out=t_report.tmp.d
rm -rf "$out" && mkdir -p "$out" || exit 1
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/tests/report/t_report.py" "$srcdir" "$out" || exit 1
rm -rf "$out"
