#!/bin/sh
# SPDX-License-Identifier: MIT
# gdr_stage_bw's fraction of each GPU's PCIe ceiling, on the CUDA double's eight GPUs over
# mkfix.sh's hgx8 sysfs tree (same bus ids): GPU 0 at Gen5 x16, GPU 1 idling at Gen1 (its
# Gen5 maximum taken), GPU 2 trained at x8. The ceilings are worked out here by hand:
# GT/s x lanes x 128/130 / 8 x 256/(256+24) (MPS not readable: 256 B assumed), x2 for bidir.
# With --copier=sm the fractions are the same and the copier is the last column.
set -u
. "${srcdir:-.}/tests/cuda/double-env.sh"
. "${srcdir:-.}/tests/cuda/stage-prelude.sh"

sh "${srcdir:-.}/tests/doctor/mkfix.sh" "$tmp/fix" hgx8
d=$tmp/fix/sys/bus/pci/devices
echo "2.5 GT/s PCIe" >"$d/0000:2a:00.0/current_link_speed"
echo 8 >"$d/0000:3a:00.0/current_link_width"
export GDR_DOUBLE_FIXTURE="${srcdir:-.}/tests/cuda_double/eight-gpus.fixture"
export GDR_DOUBLE_DEVICES=8 GDR_DOUBLE_DELAY_US=20 GDR_SYSFS_ROOT=$tmp/fix/sys
x16=$(awk 'BEGIN { printf "%.6f", 32 * 16 * 128 / 130 / 8 * 256 / 280 }') # 57.614066 GB/s
x8=$(awk 'BEGIN { printf "%.6f", 32 * 8 * 128 / 130 / 8 * 256 / 280 }')   # 28.807033 GB/s

# $1 CSV: every row's pcie_ceiling_gbps as wanted per GPU ($2: "x16 x16 x8" for 0 1 2; the
# aggregate their sum), x2 for bidir; pcie_fraction = gbps / ceiling
check_multi() {
	awk -F, -v want="$2" '
	function fail(m) { print "FAIL: multi: " m; bad = 1 }
	function off(a, b) { d = a - b; if (d < 0) d = -d; return d > 1e-6 * (b < 0 ? -b : b) }
	BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) sum += w[i] }
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ gsub(/"[^"]*"/, "q") }
	$col["schema_version"] != 2 { fail("schema_version " $col["schema_version"]) }
	{
		c = $col["row"] == "gpu" ? w[$col["gpu_index"] + 1] : sum
		if ($col["dir"] == "bidir") c *= 2
		if (off($col["pcie_ceiling_gbps"], c)) fail($0 ": ceiling, want " c)
		if (off($col["pcie_fraction"], $col["gbps"] / c)) fail($0 ": fraction, want " $col["gbps"] / c)
		rows++
	}
	END { if (rows != 12) fail(rows " rows, want 12"); exit bad }' "$1" || no "CSV: $(cat "$1")"
}

if timeout 120 "$bin" --use_cuda=0,1,2 -s 1M -n 8 --reps=1 --csv="$tmp/m.csv" \
	--json="$tmp/m.json" >"$out" 2>"$err"; then
	check_multi "$tmp/m.csv" "$x16 $x16 $x8"
	grep -q '0000:2a:00.0: PCIe Gen5 x16 (its maximum; idle now), MPS 256 B assumed: ceiling 57.6 GB/s' \
		"$err" || no "multi: GPU 1's ceiling line: $(cat "$err")"
	grep -q '0000:3a:00.0: PCIe Gen5 x8, MPS 256 B assumed: ceiling 28.8 GB/s' "$err" ||
		no "multi: GPU 2's ceiling line: $(cat "$err")"
	[ "$(grep -c '"pcie_fraction": 0\.' "$tmp/m.json")" = 12 ] || no "multi: JSON fractions"
	head -1 "$out" | grep -q ' of_PCIe$' || no "multi: text header $(head -1 "$out")"
	[ "$(grep -c '^1048576 .* 0\.[0-9][0-9]' "$out")" = 12 ] || no "multi: text fractions: $(cat "$out")"
else
	no "multi run failed: $(cat "$err")"
fi

# one GPU: the text column and the CSV's last column
if timeout 60 "$bin" --use_cuda=2 -s 1M -n 8 --reps=1 --dir=all --csv="$tmp/s.csv" >"$out" 2>"$err"; then
	awk -F, -v c="$x8" '
	NR == 1 { if ($NF != "pcie_fraction") { print "FAIL: one: header " $0; bad = 1 }; next }
	{
		w = $6 / (($2 == "bidir" ? 2 : 1) * c); d = $NF - w; if (d < 0) d = -d
		if (d > 1e-4 + 1e-4 / c) { print "FAIL: one: " $0 ": fraction, want " w; bad = 1 }
		rows++
	}
	END { if (rows != 3) { print "FAIL: one: " rows " rows"; bad = 1 }; exit bad }' "$tmp/s.csv" ||
		no "one GPU CSV: $(cat "$tmp/s.csv")"
	[ "$(grep -c '^1048576 .* 0\.[0-9][0-9]$' "$out")" = 3 ] || no "one GPU: text: $(cat "$out")"
else
	no "one GPU run failed: $(cat "$err")"
fi

# --copier given: the same fractions, the copier named last in the text and the CSV
if timeout 60 "$bin" --use_cuda=2 --copier=sm -s 1M -n 8 --reps=1 --dir=all --csv="$tmp/c.csv" \
	>"$out" 2>"$err"; then
	awk -F, -v c="$x8" '
	NR == 1 { if ($(NF - 1) != "pcie_fraction" || $NF != "copier") { print "FAIL: sm: header " $0; bad = 1 }; next }
	{
		w = $6 / (($2 == "bidir" ? 2 : 1) * c); d = $(NF - 1) - w; if (d < 0) d = -d
		if (d > 1e-4 + 1e-4 / c) { print "FAIL: sm: " $0 ": fraction, want " w; bad = 1 }
		if ($NF != "sm") { print "FAIL: sm: copier " $NF; bad = 1 }
		rows++
	}
	END { if (rows != 3) { print "FAIL: sm: " rows " rows"; bad = 1 }; exit bad }' "$tmp/c.csv" ||
		no "--copier=sm CSV: $(cat "$tmp/c.csv")"
	head -1 "$out" | grep -q ' of_PCIe  *copier$' || no "--copier=sm: text header $(head -1 "$out")"
	[ "$(grep -c '^1048576 .* 0\.[0-9][0-9]  *sm$' "$out")" = 3 ] || no "--copier=sm: text: $(cat "$out")"
else
	no "--copier=sm run failed: $(cat "$err")"
fi

# no link in sysfs: said once, no fraction (empty in CSV, - in text)
mkdir -p "$tmp/empty/sys"
if GDR_SYSFS_ROOT=$tmp/empty/sys timeout 60 "$bin" --use_cuda=0 -s 1M -n 4 --reps=1 --dir=h2d \
	--csv="$tmp/e.csv" >"$out" 2>"$err"; then
	grep -q '0000:18:00.0: PCIe link not readable in sysfs: no PCIe fraction' "$err" ||
		no "no link: not said: $(cat "$err")"
	tail -1 "$tmp/e.csv" | grep -q ',$' || no "no link: CSV $(tail -1 "$tmp/e.csv")"
	tail -1 "$out" | grep -q ' -$' || no "no link: text $(tail -1 "$out")"
else
	no "no-link run failed: $(cat "$err")"
fi
[ $fail = 0 ] && echo "PASS: gdr_stage_bw's PCIe fractions on the hgx8 fixture"
exit $fail
