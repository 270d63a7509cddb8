#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/tools/plot.py renders the golden CSV (bandwidth direct/staged + latency)
# into the expected PNG files; the latency y axis is log when the values span more than
# two decades (else linear), --logy/--linear force one (read back from the PNG's text chunk).
srcdir=${srcdir:-.}
py=$(sh "$srcdir/scripts/ci/python-with.sh" matplotlib) || { echo "SKIP: no python3 with matplotlib"; exit 77; }
out=t_plot.tmp.d
rm -rf "$out"
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$srcdir/tests/golden/report.csv" \
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
# --matrix (docs/matrix.md): a GPU x NIC heatmap per path from a --matrix run's CSV (the
# VM's fault_matrix: GPU 0 x rxe0, rxe1); none from the golden CSV (one GPU, one NIC)
[ ! -e "$out/matrix_write_bw_direct.png" ] || { echo "FAIL: a heatmap from a one-cell CSV"; fail=1; }
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$srcdir/tests/plot/matrix.csv" \
	-o "$out/mx" >/dev/null || { echo "FAIL: plot.py matrix.csv exited $?"; fail=1; }
for f in matrix_write_bw_direct.png matrix_write_bw_staged.png; do
	[ "$(head -c 8 "$out/mx/$f" 2>/dev/null | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
		{ echo "FAIL: $out/mx/$f not written as a PNG"; fail=1; }
	cp "$out/mx/$f" "$out/$f" 2>/dev/null
done
# a matrix CSV's cells are one size each: its heatmaps alone, no line over sizes (issue 44:
# bw_vs_size.png and compare_write_bw.png were a smear at 64 KiB)
[ "$(cd "$out/mx" && ls ./*.png | tr '\n' ' ')" = "./matrix_write_bw_direct.png ./matrix_write_bw_staged.png " ] ||
	{ echo "FAIL: a matrix CSV plotted more than its heatmaps: $(ls "$out/mx")"; fail=1; }
# bad input: one clear error, non-zero exit
if MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" /nonexistent.csv -o "$out" 2>/dev/null; then
	echo "FAIL: a missing CSV must fail"
	fail=1
fi
# pngtext FILE KEY: the PNG's text chunk KEY, read with PIL (matplotlib's own dependency)
pngtext() {
	"$py" -c 'import sys
from PIL import Image
print(Image.open(sys.argv[1]).text.get(sys.argv[2], ""))' "$1" "$2" 2>/dev/null
}
# the matrix's cells carry their PCIe relation (CSV schema 5's topology) under the figure;
# a CSV from before it (the schema 4 fixture) has none
case $(pngtext "$out/matrix_write_bw_direct.png" Comment) in
"cells: 0000:03:00.0 x rxe0:1 0.00369; 0000:03:00.0 x rxe1:1 0.00902") ;;
*) echo "FAIL: schema 4 heatmap cells: $(pngtext "$out/matrix_write_bw_direct.png" Comment)"; fail=1 ;;
esac
topo=$out/matrix5.csv
"$py" -c 'import csv, sys
r = csv.DictReader(open(sys.argv[1], newline=""))
f = r.fieldnames[:r.fieldnames.index("gpu_pci") + 1] + ["topology"] + \
    r.fieldnames[r.fieldnames.index("gpu_pci") + 1:]
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), f)
w.writeheader()
for row in r:
    w.writerow(dict(row, schema_version="5", topology="PIX" if row["rdma_dev"] == "rxe0" else "SYS"))' \
	"$srcdir/tests/plot/matrix.csv" "$topo" || { echo "FAIL: schema 5 matrix CSV"; exit 1; }
rm -f "$out/matrix_write_bw_direct.png"
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$topo" -o "$out" >/dev/null ||
	{ echo "FAIL: plot.py matrix5.csv exited $?"; fail=1; }
case $(pngtext "$out/matrix_write_bw_direct.png" Comment) in
"cells: 0000:03:00.0 x rxe0:1 0.00369 PIX; 0000:03:00.0 x rxe1:1 0.00902 SYS") ;;
*) echo "FAIL: heatmap cells without their relation: $(pngtext "$out/matrix_write_bw_direct.png" Comment)"; fail=1 ;;
esac
# the measured pairing (its "pairing" rows, gdrperf --matrix): its cells framed on the heatmap
paired=$out/paired.csv
awk -F, 'NR == 1 { print; next } { print } /,rxe1,/ && /,direct,/ { sub(/,direct,/, ",pairing,"); print }' \
	"$topo" >"$paired"
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$paired" -o "$out/pair" >/dev/null ||
	{ echo "FAIL: plot.py paired.csv exited $?"; fail=1; }
case $(pngtext "$out/pair/matrix_write_bw_direct.png" Comment) in
"cells: 0000:03:00.0 x rxe0:1 0.00369 PIX; 0000:03:00.0 x rxe1:1 0.00902 SYS paired") ;;
*) echo "FAIL: the pairing's cell not marked: $(pngtext "$out/pair/matrix_write_bw_direct.png" Comment)"; fail=1 ;;
esac
# schema 6 (--matrix_dir): a heatmap per direction, the pairing (its row in one direction)
# framed in each
dirs=$out/dirs.csv
"$py" -c 'import csv, sys
r = csv.DictReader(open(sys.argv[1], newline=""))
f = r.fieldnames[:r.fieldnames.index("topology") + 1] + ["direction", "loopback"] + \
    r.fieldnames[r.fieldnames.index("topology") + 1:]
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), f)
w.writeheader()
for row in r:
    for d, k in (("d2h", 1), ("h2d", 2)):
        if row["path"] == "pairing" and d == "d2h":
            continue
        row = dict(row, schema_version="6", direction=d, loopback="inside the NIC, not the wire")
        if row["path"] == "direct" and d == "h2d":
            row["bw_avg_MiBps"] = str(float(row["bw_avg_MiBps"]) * k)
            row["bw_avg_Gbps"] = str(float(row["bw_avg_Gbps"]) * k)
        w.writerow(row)' "$paired" "$dirs" || { echo "FAIL: schema 6 matrix CSV"; exit 1; }
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$dirs" -o "$out/dirs" >/dev/null ||
	{ echo "FAIL: plot.py dirs.csv exited $?"; fail=1; }
[ "$(cd "$out/dirs" && ls ./*.png | tr '\n' ' ')" = "./matrix_write_bw_direct_d2h.png ./matrix_write_bw_direct_h2d.png ./matrix_write_bw_staged_d2h.png ./matrix_write_bw_staged_h2d.png " ] ||
	{ echo "FAIL: not a heatmap per path and direction: $(ls "$out/dirs")"; fail=1; }
case $(pngtext "$out/dirs/matrix_write_bw_direct_d2h.png" Comment) in
"cells: 0000:03:00.0 x rxe0:1 0.00369 PIX; 0000:03:00.0 x rxe1:1 0.00902 SYS paired") ;;
*) echo "FAIL: d2h heatmap: $(pngtext "$out/dirs/matrix_write_bw_direct_d2h.png" Comment)"; fail=1 ;;
esac
case $(pngtext "$out/dirs/matrix_write_bw_direct_h2d.png" Comment) in
"cells: 0000:03:00.0 x rxe0:1 0.00738 PIX; 0000:03:00.0 x rxe1:1 0.018 SYS paired") ;;
*) echo "FAIL: h2d heatmap: $(pngtext "$out/dirs/matrix_write_bw_direct_h2d.png" Comment)"; fail=1 ;;
esac
# legends: beside the plot, never over its data, naming only lines drawn (issue 44)
for f in bw_vs_size.png compare_write_bw.png lat_write_lat_host.png; do
	case $(pngtext "$out/$f" Legend) in
	*"; outside") ;;
	*) echo "FAIL: $f: the legend over the data or none: $(pngtext "$out/$f" Legend)"; fail=1 ;;
	esac
done
# yscale CSV [OPTION]: the y scale written into lat_write_lat_host.png
yscale() {
	rm -f "$out/lat_write_lat_host.png"
	MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$1" -o "$out" ${2:+"$2"} >/dev/null ||
		{ echo "FAIL: plot.py $1 $2 exited $?"; return 1; }
	pngtext "$out/lat_write_lat_host.png" Description | sed 's/^y axis: //'
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
if MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$wide" -o "$out" --logy --linear 2>/dev/null; then
	echo "FAIL: --logy with --linear must fail"
	fail=1
fi
# compare plots (issue 23 item 6): the staged model equals the direct line at 4 KiB in the
# golden CSV, so it must be drawn thin, dashed and beneath every measured line (the styles
# are read back from matplotlib's lines into the PNG's Comment chunk)
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$srcdir/tests/golden/report.csv" -o "$out" >/dev/null
lines=$(pngtext "$out/compare_write_bw.png" Comment)
"$py" -c 'import sys
assert sys.argv[1].startswith("lines: "), "no line styles in the PNG: %r" % sys.argv[1]
lines = [l.rsplit(": ", 1) for l in sys.argv[1][len("lines: "):].split("; ")]
model = [st.split(", ") for n, st in lines if n.startswith("staged model")]
meas = [st.split(", ") for n, st in lines
        if not n.startswith("staged model") and not n.endswith(" ceiling")]
assert model and len(meas) >= 2, sys.argv[1]
style, width, z = model[0]
assert style == "--", "model line style %s, want dashed" % style
assert all(float(width) < float(m[1]) for m in meas), "model line not thinner: %s" % sys.argv[1]
assert all(float(z) < float(m[2]) for m in meas), "model line not beneath: %s" % sys.argv[1]' "$lines" ||
	{ echo "FAIL: compare_write_bw.png: model line ($lines)"; fail=1; }
# ceilings (CSV schema 4): each bandwidth path's ceiling dashed, in bw_vs_size.png and the
# compare plot; a CSV from before them (its ceiling columns dropped) still plots, without
ceil=$(pngtext "$out/bw_vs_size.png" Comment)
"$py" -c 'import sys
def ceilings(comment):
    lines = [l.rsplit(": ", 1) for l in comment[len("lines: "):].split("; ")]
    return [st.split(", ")[0] for n, st in lines if n.endswith(" ceiling")]
assert ceilings(sys.argv[1]) == ["--", "--"], "want 2 dashed ceilings: %r" % sys.argv[1]
assert ceilings(sys.argv[2]) == ["--", "--"], "compare: want 2 dashed ceilings: %r" % sys.argv[2]' \
	"$ceil" "$lines" || { echo "FAIL: ceiling lines ($ceil | $lines)"; fail=1; }
old3=$out/schema3.csv
"$py" -c 'import csv, sys
r = csv.DictReader(open(sys.argv[1], newline=""))
drop = ("ceiling_Gbps", "limit", "of_ceiling", "ceiling_note")
f = [c for c in r.fieldnames if c not in drop]
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), f, extrasaction="ignore")
w.writeheader()
for row in r:
    w.writerow(row)' "$srcdir/tests/golden/report.csv" "$old3" || { echo "FAIL: schema 3 CSV"; exit 1; }
rm -f "$out/bw_vs_size.png"
if MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$old3" -o "$out" >/dev/null; then
	case $(pngtext "$out/bw_vs_size.png" Comment) in
	*ceiling*) echo "FAIL: a CSV without ceilings drew one"; fail=1 ;;
	"") echo "FAIL: bw_vs_size.png not written from a schema 3 CSV"; fail=1 ;;
	esac
else
	echo "FAIL: plot.py on a CSV without ceiling columns exited non-zero"
	fail=1
fi
# a latency --compare sweep: host 1-3 us at small sizes, staged in ms at 4 MiB (golden's
# write_lat rows, plus staged rows and a large size): the compare plot's axis must be log
lcmp=$out/latcmp.csv
"$py" -c 'import csv, sys
r = csv.DictReader(open(sys.argv[1], newline=""))
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), r.fieldnames)
w.writeheader()
for row in r:
    if row["kind"] != "lat":
        continue
    big = dict(row, bytes="4194304", t_median_us="350", t_avg_us="351")
    for path, f in (("host", 1), ("staged", 9)):
        for x in (row, big):
            w.writerow(dict(x, path=path, t_median_us=str(float(x["t_median_us"]) * f)))' \
	"$srcdir/tests/golden/report.csv" "$lcmp" || { echo "FAIL: latency compare CSV"; exit 1; }
rm -f "$out/compare_write_lat.png"
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$lcmp" -o "$out" >/dev/null
got=$(pngtext "$out/compare_write_lat.png" Description | sed 's/^y axis: //')
[ "$got" = log ] || { echo "FAIL: compare_write_lat.png: y axis '$got', want log (1 us .. 3 ms)"; fail=1; }
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$lcmp" -o "$out" --linear >/dev/null
got=$(pngtext "$out/compare_write_lat.png" Description | sed 's/^y axis: //')
[ "$got" = linear ] || { echo "FAIL: compare_write_lat.png --linear: y axis '$got'"; fail=1; }
# a slow link under a fast port (issue 34.11): data near 50 MiB/s, the port's 10 Gb/s
# ceiling (1192 MiB/s) 24x above, a -w floor of 0.3 Gb/s (35.8 MiB/s). The ceiling must not
# set the axis (the data's shape must stay readable), the floor is drawn dotted. The golden
# CSV's ceiling (400 Gb/s, 2.5x its data) still sets its axis.
slow=$out/slow.csv
"$py" -c 'import csv, sys
r = csv.DictReader(open(sys.argv[1], newline=""))
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), r.fieldnames)
w.writeheader()
for i, row in enumerate(r):
    if row["kind"] != "bw" or row["path"] != "direct":
        continue
    mib = 40 + 5 * i
    w.writerow(dict(row, bw_avg_MiBps=str(mib), bw_peak_MiBps=str(mib),
                    bw_avg_Gbps=str(mib * 1048576 * 8 / 1e9),
                    bw_peak_Gbps=str(mib * 1048576 * 8 / 1e9), ceiling_Gbps="10",
                    limit_Gbps="0.3"))' "$srcdir/tests/golden/report.csv" "$slow" ||
	{ echo "FAIL: slow CSV"; exit 1; }
rm -f "$out/bw_vs_size.png"
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$slow" -o "$out" >/dev/null
"$py" -c 'import sys
top = float(sys.argv[1].split()[1]) if sys.argv[1] else 0
assert 0 < top < 100, "y axis up to %r MiB/s: the 1192 MiB/s ceiling sets it, data 40-65" % top
assert top >= 65, "y axis up to %g cuts the data (65 MiB/s)" % top
lines = [l.rsplit(": ", 1) for l in sys.argv[2][len("lines: "):].split("; ")]
fl = [st.split(", ")[0] for n, st in lines if n.endswith(" floor")]
assert fl == [":"], "want one dotted floor line: %r" % sys.argv[2]' \
	"$(pngtext "$out/bw_vs_size.png" YRange)" "$(pngtext "$out/bw_vs_size.png" Comment)" ||
	{ echo "FAIL: bw_vs_size.png: ceiling sets the axis or no floor"; fail=1; }
# the ceiling above the axis is named in the note, not in the legend (no line of it is seen)
case $(pngtext "$out/bw_vs_size.png" Legend) in
*ceiling*) echo "FAIL: the legend names a ceiling drawn above the axis: $(pngtext "$out/bw_vs_size.png" Legend)"; fail=1 ;;
"write_bw (direct) | write_bw (direct) floor; outside") ;;
*) echo "FAIL: slow CSV legend: $(pngtext "$out/bw_vs_size.png" Legend)"; fail=1 ;;
esac
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$srcdir/tests/golden/report.csv" -o "$out" >/dev/null
"$py" -c 'import sys
top = float(sys.argv[1].split()[1])
assert top >= 400e9 / 8 / 1048576, "golden: the 400 Gb/s ceiling (2.5x the data) is cut: %g" % top' \
	"$(pngtext "$out/bw_vs_size.png" YRange)" || { echo "FAIL: golden ceiling cut"; fail=1; }
# a gpu-proxy row (issue 37): its own line on the compare chart, solid, beside direct and staged
gp=$out/gpu-proxy.csv
awk -F, 'NR == 1 { print; next } { print } $4 == "write_bw" && /,direct,/ { sub(/,direct,/, ",gpu-proxy,"); print }' \
	"$srcdir/tests/golden/report.csv" >"$gp"
rm -f "$out/compare_write_bw.png"
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$gp" -o "$out" >/dev/null
pngtext "$out/compare_write_bw.png" Comment | grep -q 'gpu-proxy (GPU-triggered, CPU-posted): -,' ||
	{ echo "FAIL: compare_write_bw.png has no solid gpu-proxy line: $(pngtext "$out/compare_write_bw.png" Comment)"; fail=1; }
# direct and staged at no common size: no ratio line, so none in the legend
apart=$out/apart.csv
"$py" -c 'import csv, sys
r = csv.DictReader(open(sys.argv[1], newline=""))
w = csv.DictWriter(open(sys.argv[2], "w", newline=""), r.fieldnames)
w.writeheader()
for row in r:
    if row["test"] == "write_bw" and row["path"] == "staged":
        row["bytes"] = str(int(row["bytes"]) * 3)
    w.writerow(row)' "$srcdir/tests/golden/report.csv" "$apart" || { echo "FAIL: apart CSV"; exit 1; }
rm -f "$out/compare_write_bw.png"
MPLCONFIGDIR=$out/mpl "$py" "$srcdir/scripts/tools/plot.py" "$apart" -o "$out" >/dev/null
case $(pngtext "$out/compare_write_bw.png" Legend) in
*"direct / staged"*) echo "FAIL: the legend names a ratio line with no point: $(pngtext "$out/compare_write_bw.png" Legend)"; fail=1 ;;
*staged*"; outside") ;;
*) echo "FAIL: compare legend without staged: $(pngtext "$out/compare_write_bw.png" Legend)"; fail=1 ;;
esac
[ $fail = 0 ] && rm -rf "$out" && echo "ok: 3 PNGs rendered; a matrix CSV its heatmaps alone, the pairing framed; legends outside, naming drawn lines only;" \
	"a gpu-proxy line on the compare chart; latency y axis auto/--logy/--linear;" \
	"compare: model line dashed, thin, beneath; ceilings dashed, old CSVs plot without;" \
	"latency compare on a log axis; a far ceiling leaves the axis to the data, floors dotted"
exit $fail
