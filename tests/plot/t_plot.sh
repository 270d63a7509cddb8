#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/plot.py renders the golden CSV (bandwidth direct/staged + latency)
# into the expected PNG files; the latency y axis is log when the values span more than
# two decades (else linear), --logy/--linear force one (read back from the PNG's text chunk).
srcdir=${srcdir:-.}
py=$(sh "$srcdir/scripts/python-with.sh" matplotlib) || { echo "SKIP: no python3 with matplotlib"; exit 77; }
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
# yscale CSV [OPTION]: the y scale written into lat_write_lat_host.png
yscale() {
	rm -f "$out/lat_write_lat_host.png"
	MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/plot.py" "$1" -o "$out" ${2:+"$2"} >/dev/null ||
		{ echo "FAIL: plot.py $1 $2 exited $?"; return 1; }
	grep -a -o 'y axis: [a-z]*' "$out/lat_write_lat_host.png" | sed 's/y axis: //'
}
# expect WANT CSV [OPTION]
expect() {
	got=$(yscale "$2" "$3")
	[ "$got" = "$1" ] || { echo "FAIL: $2 $3: latency y axis '$got', want '$1'"; fail=1; }
}
# the golden latencies span 1.12 .. 3.45 us; a copy with p99.9 at 30 ms spans 4+ decades
wide=$out/wide.csv
"$py" -c 'import csv, sys
r = csv.DictReader(open(sys.argv[1], newline=""))
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), r.fieldnames)
w.writeheader()
for row in r:
    if row["kind"] == "lat":
        row["t_p99.9_us"] = "30000"
    w.writerow(row)' "$srcdir/tests/golden/report.csv" "$wide" || { echo "FAIL: wide CSV"; exit 1; }
expect linear "$srcdir/tests/golden/report.csv"
expect log "$wide"
expect linear "$wide" --linear
expect log "$srcdir/tests/golden/report.csv" --logy
if MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/plot.py" "$wide" -o "$out" --logy --linear 2>/dev/null; then
	echo "FAIL: --logy with --linear must fail"
	fail=1
fi
[ $fail = 0 ] && rm -rf "$out" && echo "ok: 3 PNGs rendered; latency y axis auto/--logy/--linear"
exit $fail
