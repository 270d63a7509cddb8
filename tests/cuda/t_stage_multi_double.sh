#!/bin/sh
# SPDX-License-Identifier: MIT
# gdr_stage_bw --use_cuda=all / a list against the CUDA driver double with 8 devices: one
# row per GPU plus the aggregate per size and direction, the aggregate recomputed here from
# the GPU rows (all bytes / (last end - first start)); bad lists and no driver give one
# line and exit 3 (usage) or 2 (could not run); a copy fault on one GPU ends the run with an error, not a hang.
# --copier=sm and --copier=gdrcopy (with the gdrcopy double) give the same rows, each
# copier through its own path (a fault of one path fails that copier only), and a
# copier that cannot run is refused in one line before any row.
set -u
. "${srcdir:-.}/tests/cuda/double-env.sh"
. "${srcdir:-.}/tests/cuda/gdrcopy-env.sh"
. "${srcdir:-.}/tests/cuda/stage-prelude.sh"

# $1 = CSV, $2 = the GPU indexes expected in each group, $3 = directions expected
check_csv() {
	awk -F, -v want="$2" -v dirs="$3" '
	function fail(m) { print "FAIL: " FILENAME ": " m; bad = 1 }
	NR == 1 {
		for (i = 1; i <= NF; i++) col[$i] = i
		split("schema_version row gpu_index bytes dir bytes_moved start_s end_s gbps", need, " ")
		for (k in need) if (!(need[k] in col)) fail("no column " need[k])
		next
	}
	# quoted fields hold no comma in these columns except gpu_name and cpus: strip them
	{ gsub(/"[^"]*"/, "q") }
	$col["schema_version"] != 2 { fail("schema_version " $col["schema_version"]) }
	$col["row"] == "gpu" {
		got = got (got == "" ? "" : " ") $col["gpu_index"]
		bytes += $col["bytes_moved"]
		if (n == 0 || $col["start_s"] < first) first = $col["start_s"]
		if (n == 0 || $col["end_s"] > last) last = $col["end_s"]
		n++
		next
	}
	$col["row"] == "aggregate" {
		seen = seen (seen == "" ? "" : " ") $col["dir"]
		if (got != want) fail($col["dir"] ": GPU rows " got ", want " want)
		if ($col["bytes_moved"] != bytes) fail($col["dir"] ": aggregate bytes " $col["bytes_moved"] " != " bytes)
		wall = last - first
		agg = bytes / wall / 1e9
		d = $col["gbps"] - agg; if (d < 0) d = -d
		if (wall <= 0 || d > 1e-6 * agg) fail($col["dir"] ": aggregate " $col["gbps"] " GB/s, bytes/wall gives " agg)
		if ($col["end_s"] - last > 1e-9 || last - $col["end_s"] > 1e-9) fail("aggregate end " $col["end_s"] " != last GPU end " last)
		got = ""; bytes = 0; n = 0; groups++
		next
	}
	{ fail("row kind " $col["row"]) }
	END {
		if (seen != dirs) fail("directions " seen ", want " dirs)
		exit bad
	}' "$1" || no "CSV $1: $(cat "$1" | head -3)"
}

export GDR_DOUBLE_DEVICES=8 GDR_DOUBLE_DELAY_US=20

# all eight GPUs, three directions
if timeout 120 "$bin" --use_cuda=all -s 1M -n 8 --reps=2 --csv="$tmp/all.csv" \
	--json="$tmp/all.json" >"$out" 2>"$err"; then
	check_csv "$tmp/all.csv" "0 1 2 3 4 5 6 7" "h2d d2h bidir"
	[ "$(grep -c '^1048576 ' "$out")" = 27 ] || no "all: text rows: $(cat "$out")"
	[ "$(grep -c '^1048576 .* all(8) ' "$out")" = 3 ] || no "all: text aggregate rows: $(cat "$out")"
	[ "$(grep -c 'bounce buffers on node' "$err")" = 8 ] || no "all: header lacks the GPUs' nodes: $(cat "$err")"
	[ "$(grep -c '"row": ' "$tmp/all.json")" = 27 ] || no "all: JSON rows"
	if command -v python3 >/dev/null 2>&1 &&
		! python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["rows"]) == 27' \
			"$tmp/all.json"; then
		no "all: JSON not well formed"
	fi
else
	no "--use_cuda=all failed: $(cat "$err")"
fi

# a list, one direction
if timeout 120 "$bin" --use_cuda=0,2,5 -s 64K -n 8 --reps=1 --dir=d2h --csv="$tmp/list.csv" \
	>"$out" 2>"$err"; then
	check_csv "$tmp/list.csv" "0 2 5" "d2h"
else
	no "--use_cuda=0,2,5 failed: $(cat "$err")"
fi

# one GPU by index: today's table (host_mem column), not the multi-GPU one
timeout 60 "$bin" --use_cuda=1 -s 64K -n 4 --reps=1 --dir=h2d >"$out" 2>"$err" ||
	no "--use_cuda=1 failed: $(cat "$err")"
head -1 "$out" | grep -q '^#bytes  *dir  *host_mem  *streams' || no "--use_cuda=1: header $(head -1 "$out")"

bad "GPU 0 is listed twice" --use_cuda=0,0
bad "not a GPU index, 'all' or a list" --use_cuda=1,
bad "not a GPU index, 'all' or a list" --use_cuda=every
bad "exclude each other" --use_cuda=all --use_cuda_bus_id=0000:1a:00.0
bad "--json needs --use_cuda=all or a list" --use_cuda=0 --json="$tmp/x.json"
GDR_DOUBLE_DEVICES=2 cannot "--use_cuda=9: this host has 2 GPUs (valid: 0..1)" --use_cuda=9 -s 64K
GDR_DOUBLE_DEVICES=2 cannot "GPU 9 does not exist: this host has 2 GPUs" --use_cuda=0,9 -s 64K
GDR_LIBCUDA=/nonexistent/libcuda.so.1 cannot "--use_cuda: /nonexistent/libcuda.so.1 not found" \
	--use_cuda=all -s 64K

# the other copiers: the same rows on three GPUs, the copier named in the header
for c in sm gdrcopy; do
	if timeout 120 "$bin" --use_cuda=0,3,7 --copier=$c -s 64K -n 8 --reps=1 \
		--csv="$tmp/$c.csv" >"$out" 2>"$err"; then
		check_csv "$tmp/$c.csv" "0 3 7" "h2d d2h bidir"
		grep -q "best of 1, copier $c;" "$err" || no "--copier=$c: header: $(cat "$err")"
	else
		no "--copier=$c on 0,3,7 failed: $(cat "$err")"
	fi
done

# each copier through its own path: a fault in one path fails that copier alone
# ($1 fault variable=value, $2 the copier it must stop, $3 what the line says; the others run)
fingerprint() {
	for c in ce sm gdrcopy; do
		timeout 60 env "$1" "$bin" --use_cuda=0 --copier=$c -s 4K -n 4 --reps=1 --dir=h2d \
			>"$out" 2>"$err"
		rc=$?
		if [ "$c" = "$2" ]; then
			[ $rc = 2 ] && grep -q "^gdr_stage_bw: error: .*$3" "$err" ||
				no "$1 --copier=$c: exit $rc, want 2 with '$3': $(cat "$err")"
		else
			[ $rc = 0 ] || no "$1 --copier=$c: exit $rc, want 0 (not its path): $(cat "$err")"
		fi
	done
}
fingerprint GDR_DOUBLE_FAIL=launch sm "--copier=sm cannot run here: cuLaunchKernel"
fingerprint GDR_GDRCOPY_DOUBLE_FAIL=pin gdrcopy "--copier=gdrcopy cannot run here: gdr_pin_buffer"
# a cuMemcpyAsync fault: the copy engine's path (sm's open also touches the GPU: skipped)
timeout 60 env GDR_DOUBLE_FAIL=copy:1 "$bin" -q --copier=ce -s 4K -n 4 --reps=1 --dir=h2d \
	>"$out" 2>"$err" && no "copy fault: --copier=ce ran"
timeout 60 env GDR_DOUBLE_FAIL=copy:1 "$bin" -q --copier=gdrcopy -s 4K -n 4 --reps=1 --dir=h2d \
	>"$out" 2>"$err" || no "copy fault: --copier=gdrcopy failed: $(cat "$err")"

# refusals: one line, exit 2 (could not run), no row
GDR_LIBGDRAPI=/nonexistent/libgdrapi.so.2 cannot \
	"--copier=gdrcopy cannot run here: /nonexistent/libgdrapi.so.2 not found" \
	-q --copier=gdrcopy -s 64K
GDR_LIBGDRAPI=/nonexistent/libgdrapi.so.2 cannot \
	"GPU [0-7]: --copier=gdrcopy cannot run here: /nonexistent/libgdrapi.so.2 not found" \
	-q --use_cuda=0,1 --copier=gdrcopy -s 64K
GDR_GDRCOPY_DOUBLE_FAIL=open cannot "--copier=gdrcopy cannot run here: " -q --copier=gdrcopy -s 64K
[ -s "$out" ] && no "refused copier: rows printed: $(cat "$out")"

# a copy fault on one GPU: an error, exit 2, in bounded time
timeout 60 env GDR_DOUBLE_FAIL=copy:40 "$bin" --use_cuda=all -s 64K -n 8 --reps=1 >"$out" 2>"$err"
rc=$?
[ "$rc" = 2 ] || no "copy fault: exit $rc, want 2 (could not run) ($(cat "$err"))"
grep -q "^gdr_stage_bw: error: GPU [0-7]: its .* copies of 65536 bytes failed" "$err" ||
	no "copy fault: no GPU named: $(cat "$err")"
exit $fail
