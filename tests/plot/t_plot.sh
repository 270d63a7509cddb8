#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/plot.py renders the golden CSV (bandwidth direct/staged + latency)
# into the expected PNG files.
srcdir=${srcdir:-.}
py=
for p in python3 /usr/bin/python3; do
	if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import matplotlib' 2>/dev/null; then
		py=$p
		break
	fi
done
[ -n "$py" ] || { echo "SKIP: no python3 with matplotlib"; exit 77; }
out=t_plot.tmp.d
rm -rf "$out"
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/plot.py" "$srcdir/tests/golden/report.csv" \
	-o "$out" || { echo "FAIL: plot.py exited $?"; exit 1; }
fail=0
for f in bw_vs_size.png lat_write_lat_host.png compare_write_bw.png; do
	if [ ! -s "$out/$f" ]; then
		echo "FAIL: $out/$f not written"
		fail=1
	elif [ "$(head -c 8 "$out/$f" | od -An -tx1 | tr -d ' \n')" != 89504e470d0a1a0a ]; then
		echo "FAIL: $out/$f is not a PNG"
		fail=1
	fi
done
# bad input: one clear error, non-zero exit
if MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/plot.py" /nonexistent.csv -o "$out" 2>/dev/null; then
	echo "FAIL: a missing CSV must fail"
	fail=1
fi
[ $fail = 0 ] && rm -rf "$out" && echo "ok: 3 PNGs rendered"
exit $fail
