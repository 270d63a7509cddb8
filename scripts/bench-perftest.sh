#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/bench-perftest.sh - gdrperf against Debian's perftest, same device, same boot.
#
# In ONE boot of the Soft-RoCE VM (scripts/rxe-vm.sh; or on this host's RDMA device
# when ibv_devices lists one, address BENCH_ADDR), runs, interleaved, three times each:
#   gdr_{write,read,send}_bw  vs ib_{write,read,send}_bw   at 64 B, 4 KiB, 64 KiB, 1 MiB
#   gdr_{write,read,send}_lat vs ib_{write,read,send}_lat  at 2 B, 64 B, 4 KiB
# with the same iteration counts, and prints the ratio of medians (ours/theirs) of
# BW average and MsgRate, and of typical latency (our t_median vs their t_typical).
# Our figures come from --csv files (column names from results/README.md), theirs
# from perftest's text table (perftest 4.5 labels MiB/s as "MB/sec").
# The table goes to results/bench-perftest-<date>.md with machine, date and command.
#
# Usage: scripts/bench-perftest.sh [BUILD_DIR]   (folder with gdr_*; default: the
#        first of <repo>/build/{werror,main} that has them, else it builds one)
# Environment: BENCH_RUNS (3), BENCH_OUT (the .md file), BENCH_ADDR.
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)

# ---- inner part: the runs; writes raw.tsv in the current folder ----
wait_listen()
{
	local i
	for ((i = 0; i < 200; i++)); do
		ss -Hltn "sport = :$1" 2>/dev/null | grep -q . && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}
# one TOOL TEST SIZE ITERS RUN: one server+client run; appends a line to raw.tsv
one()
{
	local tool=$1 t=$2 size=$3 n=$4 run=$5 spid crc line f
	port=$((port + 1))
	f=$tool-$t-$size-$run
	if [[ $tool == ours ]]; then
		timeout -k 5 120 "$BENCH_BIN/gdr_$t" -d "$dev" -p $port --listen_timeout 60 >"$f.srv" 2>&1 &
		spid=$!
		wait_listen $port $spid
		timeout -k 5 120 "$BENCH_BIN/gdr_$t" -d "$dev" -p $port -s "$size" -n "$n" \
			--csv "$f.csv" "$addr" >"$f.out" 2>&1
		crc=$?
	else
		timeout -k 5 120 "ib_$t" -d "$dev" -x "$gid" -p $port -s "$size" -n "$n" >"$f.srv" 2>&1 &
		spid=$!
		wait_listen $port $spid
		timeout -k 5 120 "ib_$t" -d "$dev" -x "$gid" -p $port -s "$size" -n "$n" "$addr" >"$f.out" 2>&1
		crc=$?
	fi
	wait $spid
	local src_rc=$?
	if [[ $crc -ne 0 || $src_rc -ne 0 ]]; then
		echo "FAIL $f: client exit $crc, server exit $src_rc" | tee -a errors.txt
		return
	fi
	if [[ $tool == ours ]]; then
		line=$(python3 -c '
import csv, sys
r = list(csv.DictReader(open(sys.argv[1])))[-1]
if sys.argv[2].endswith("bw"):
    print(r["bw_avg_MiBps"], r["msg_rate_Mpps"])
else:
    print(r["t_median_us"], r["t_avg_us"])' "$f.csv" "$t")
	else
		# the first data row after the "#bytes" header line
		if [[ $t == *_bw ]]; then
			line=$(awk '/#bytes/ { h = 1; next } h && $1 ~ /^[0-9]+$/ { print $4, $5; exit }' "$f.out")
		else
			line=$(awk '/#bytes/ { h = 1; next } h && $1 ~ /^[0-9]+$/ { print $5, $6; exit }' "$f.out")
		fi
	fi
	if [[ -z $line ]]; then
		echo "FAIL $f: no result row" | tee -a errors.txt
		return
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$tool" "$t" "$size" "$run" "$line" >>raw.tsv
	printf '%-6s %-10s %8s run %s: %s\n' "$tool" "$t" "$size" "$run" "$line"
}
inner()
{
	dev=$BENCH_DEV addr=$BENCH_ADDR gid=${BENCH_GID:-1} port=18700
	ulimit -l unlimited 2>/dev/null
	cd "$BENCH_DIR" || return 1
	rm -f raw.tsv errors.txt
	local runs=${BENCH_RUNS:-3} t s r n
	for t in write_bw read_bw send_bw; do
		for s in 64 4096 65536 1048576; do
			case $s in 64) n=5000 ;; 4096) n=2000 ;; 65536) n=500 ;; *) n=50 ;; esac
			for ((r = 1; r <= runs; r++)); do
				one ours $t $s $n $r
				one perftest $t $s $n $r
			done
		done
	done
	for t in write_lat read_lat send_lat; do
		for s in 2 64 4096; do
			for ((r = 1; r <= runs; r++)); do
				one ours $t $s 1000 $r
				one perftest $t $s 1000 $r
			done
		done
	done
	[[ ! -s errors.txt ]]
}
if [[ ${BENCH_INNER:-0} == 1 ]]; then
	inner
	exit $?
fi

# ---- outer part ----
bin=${1:-}
if [[ -z $bin ]]; then
	for d in "${GDR_BUILD_ROOT:-$src/build}"/werror "${GDR_BUILD_ROOT:-$src/build}"/main; do
		[[ -x $d/gdr_write_bw ]] && bin=$d && break
	done
fi
if [[ -z $bin ]]; then
	# shellcheck source=scripts/deps.sh
	source "$src/scripts/deps.sh"
	gdr_deps build vm || exit 1
	bin=${GDR_BUILD_ROOT:-$src/build}/main
	[[ -x $src/configure && ! $src/configure.ac -nt $src/configure ]] || (cd "$src" && ./autogen.sh) || exit 1
	mkdir -p "$bin" && (cd "$bin" && "$src/configure" && make -j"$(nproc)") >/dev/null || {
		echo "bench-perftest: error: build failed in $bin" >&2
		exit 1
	}
fi
bin=$(cd "$bin" && pwd)
[[ -x $bin/gdr_write_bw ]] || {
	echo "bench-perftest: error: no gdr_write_bw in $bin" >&2
	exit 1
}
command -v ib_write_bw >/dev/null || {
	echo "bench-perftest: error: ib_write_bw not found: apt-get install perftest" >&2
	exit 1
}
day=$(date +%F)
md=${BENCH_OUT:-$src/results/bench-perftest-$day.md}
work=$(mktemp -d /var/tmp/bench-perftest.XXXXXX) || exit 1
start=$(date -u +%FT%TZ)
t0=$SECONDS
dev=$(ibv_devices 2>/dev/null | awk 'NR > 2 && $1 != "" { print $1; exit }')
if [[ -n $dev ]]; then
	[[ -n ${BENCH_ADDR:-} ]] || {
		echo "bench-perftest: error: RDMA device $dev here: set BENCH_ADDR to its IPv4 address (and BENCH_GID)" >&2
		exit 1
	}
	where="RDMA device $dev of this host"
	BENCH_INNER=1 BENCH_BIN=$bin BENCH_DEV=$dev BENCH_DIR=$work bash "$0"
	rc=$?
else
	where="Soft-RoCE rxe0 on veth0 in a QEMU/TCG VM (scripts/rxe-vm.sh), one boot, host memory, GID index 1"
	BENCH_INNER=1 BENCH_BIN=$bin BENCH_DEV=rxe0 BENCH_ADDR=10.9.0.1 BENCH_DIR=$work \
		RXE_VM_ENV="BENCH_INNER BENCH_BIN BENCH_DEV BENCH_ADDR BENCH_DIR BENCH_RUNS" \
		RXE_VM_LOG=$work/console.log bash "$src/scripts/rxe-vm.sh" "$src/scripts/bench-perftest.sh" "$work"
	rc=$?
fi
[[ -s $work/raw.tsv ]] || {
	echo "bench-perftest: error: no results (exit $rc; outputs in $work)" >&2
	exit 1
}

ptver=$(dpkg-query -W -f='${Version}' perftest 2>/dev/null || echo unknown)
ourver=$("$bin/gdr_write_bw" --version 2>/dev/null | head -1)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
python3 - "$work/raw.tsv" >"$work/table.md" <<'PY'
import sys, statistics
from collections import defaultdict
d = defaultdict(list)
for ln in open(sys.argv[1]):
    tool, test, size, run, a, b = ln.split()
    d[(tool, test, int(size))].append((float(a), float(b)))
def med(tool, test, size, i):
    v = [x[i] for x in d.get((tool, test, size), [])]
    return (statistics.median(v), len(v)) if v else (None, 0)
def f(x, p=2):
    return "-" if x is None else ("%.*f" % (p, x))
def g(x):
    return "-" if x is None else ("%.3g" % x)
def ratio(a, b):
    return "-" if a is None or b is None or b == 0 else "%.2f" % (a / b)
print("| test | size (B) | ours BW avg MiB/s | perftest BW avg | ratio | ours MsgRate Mpps | perftest MsgRate | ratio | runs |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---|")
for test in ("write_bw", "read_bw", "send_bw"):
    for size in (64, 4096, 65536, 1048576):
        ob, n1 = med("ours", test, size, 0); tb, n2 = med("perftest", test, size, 0)
        om, _ = med("ours", test, size, 1); tm, _ = med("perftest", test, size, 1)
        print("| %s | %d | %s | %s | %s | %s | %s | %s | %d/%d |" % (test, size, f(ob), f(tb), ratio(ob, tb),
              g(om), g(tm), ratio(om, tm), n1, n2))
print()
print("| test | size (B) | ours t_median us | perftest t_typical us | ratio | ours t_avg | perftest t_avg | runs |")
print("|---|---:|---:|---:|---:|---:|---:|---|")
for test in ("write_lat", "read_lat", "send_lat"):
    for size in (2, 64, 4096):
        ol, n1 = med("ours", test, size, 0); tl, n2 = med("perftest", test, size, 0)
        oa, _ = med("ours", test, size, 1); ta, _ = med("perftest", test, size, 1)
        print("| %s | %d | %s | %s | %s | %s | %s | %d/%d |" % (test, size, f(ol), f(tl), ratio(ol, tl),
              f(oa), f(ta), n1, n2))
PY
mkdir -p "$(dirname "$md")"
{
	echo "# gdrperf vs perftest, $day"
	echo
	echo "- Command: \`scripts/bench-perftest.sh\` (started $start, $((SECONDS - t0)) s)"
	echo "- Machine: $(uname -n), $cpu, $(nproc) CPUs, $(uname -sr)"
	echo "- Where: $where"
	echo "- Tools: $ourver; perftest $ptver (Debian). Iterations (both tools): bw 64 B 5000,"
	echo "  4 KiB 2000, 64 KiB 500, 1 MiB 50; lat 1000. ${BENCH_RUNS:-3} runs each, interleaved."
	echo "- Figures: median of the runs; ratio = ours / perftest (bw: > 1 is faster; latency:"
	echo "  < 1 is faster). perftest's \"MB/sec\" is MiB/s (2^20 B/s), as ours."
	echo "  Latency: ours t_median vs perftest t_typical (its median); write/send half round"
	echo "  trip, read full round trip, in both tools."
	[[ -z $dev ]] && echo "- Soft-RoCE under software emulation: ratios between tools in one boot are"
	[[ -z $dev ]] && echo "  meaningful; absolute figures are not hardware figures."
	[[ -s $work/errors.txt ]] && echo "- Failed runs: $(tr '\n' ';' <"$work/errors.txt")"
	echo
	cat "$work/table.md"
	echo
	echo "Raw per-run figures (tool, test, size, run, bw_avg/t_typical-or-median, msgrate/t_avg):"
	echo
	echo '```'
	cat "$work/raw.tsv"
	echo '```'
} >"$md"
cat "$work/table.md"
echo "bench-perftest: table in $md; run outputs in $work"
exit $rc
