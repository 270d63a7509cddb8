#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/bench/bench-perftest.sh - gdrperf against Debian's perftest 4.5, same device, same boot.
#
# In ONE boot of the Soft-RoCE VM (scripts/ci/rxe-vm.sh; or on this host's RDMA device
# when ibv_devices lists one, address BENCH_ADDR), runs ours and perftest run by run
# (the order alternates each run, so drift hits both alike):
#   gdr_{write,read,send}_bw  vs ib_{write,read,send}_bw   at 64 B, 4 KiB, 64 KiB, 1 MiB
#   gdr_{write,read,send}_lat vs ib_{write,read,send}_lat  at 2 B, 64 B, 4 KiB
# with the same iteration counts, BENCH_RUNS (7) runs per point, and prints per point the
# median ratio (ours / perftest) with a bootstrap 95% interval (scripts/bench/bench-stats.py,
# seeded); a point is flagged only when its interval lies wholly below 1.0 (bandwidth)
# or above 1.0 (latency). Then, with valgrind's callgrind on the client, user-space
# instructions per message of each bandwidth test at 64 B (ours and perftest's), from
# the difference of two iteration counts so that setup cancels.
# Our figures come from --csv files, theirs from perftest's text table (perftest 4.5
# labels MiB/s as "MB/sec"). Also recorded: the guest's clocksource and the cost of a
# clock read (CLOCK_MONOTONIC vs rdtsc), which decide what a timer costs per sample.
# The report goes to results/bench-perftest-<date>.md with machine, date and command.
#
# It refuses to start when the 1-minute load average exceeds BENCH_MAX_LOAD (default:
# a quarter of the CPUs); BENCH_FORCE=1 runs anyway and says so in the report.
#
# Usage: scripts/bench/bench-perftest.sh [BUILD_DIR]   (folder with gdr_*; default: the
#        first of <repo>/build/{werror,main} that has them, else it builds one)
# Environment: BENCH_RUNS (7), BENCH_BW_SIZES ("64 4096 65536 1048576"),
#   BENCH_LAT_SIZES ("2 64 4096"), BENCH_TESTS (the six), BENCH_CALLGRIND (1; 0 skips),
#   BENCH_CG_FUNCS (1: also ours under callgrind collecting only inside its posting and
#   completion functions; 0 skips), BENCH_CG_ITERS ("2000 6000": the two iteration counts
#   whose difference gives instructions per message; a wider gap dilutes what a tool does
#   apart from its messages, which differs from run to run),
#   BENCH_OUT (the .md file), BENCH_ADDR, BENCH_MAX_LOAD, BENCH_FORCE, BENCH_OURS_ARGS
#   (extra client options for ours, e.g. "-l 1" to compare single-WR posting),
#   BENCH_PERFTEST_ARGS (extra client options for perftest, e.g. "-l 32": equal batching),
#   BENCH_ITERS_MULT (bw iterations rounded up to a multiple of it: 32 with perftest -l 32),
#   BENCH_TSC (1: boot the guest with clocksource=tsc, as real hosts read the clock; 0: HPET).
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)

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
		# shellcheck disable=SC2086 # BENCH_OURS_ARGS: words
		timeout -k 5 120 "$BENCH_BIN/gdr_$t" -d "$dev" -p $port -s "$size" -n "$n" \
			${BENCH_OURS_ARGS:-} --csv "$f.csv" "$addr" >"$f.out" 2>&1
		crc=$?
	else
		timeout -k 5 120 "ib_$t" -d "$dev" -x "$gid" -p $port -s "$size" -n "$n" >"$f.srv" 2>&1 &
		spid=$!
		wait_listen $port $spid
		# shellcheck disable=SC2086 # BENCH_PERFTEST_ARGS: words
		timeout -k 5 120 "ib_$t" -d "$dev" -x "$gid" -p $port -s "$size" -n "$n" \
			${BENCH_PERFTEST_ARGS:-} "$addr" >"$f.out" 2>&1
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
# bw_iters SIZE: iterations at SIZE, rounded up to a multiple of BENCH_ITERS_MULT (1; perftest
# refuses -n that is not a multiple of its -l, so a run at -l 32 sets 32)
round_up()
{
	local m=${BENCH_ITERS_MULT:-1}
	echo $((($1 + m - 1) / m * m))
}
bw_iters()
{
	case $1 in 64) round_up 5000 ;; 4096) round_up 2000 ;; 65536) round_up 500 ;; *) round_up 50 ;; esac
}
# Both tools at one point, BENCH_RUNS times, the order alternating run by run.
point()
{
	local t=$1 s=$2 n=$3 r
	for ((r = 1; r <= runs; r++)); do
		if ((r % 2)); then
			one ours $t $s $n $r
			one perftest $t $s $n $r
		else
			one perftest $t $s $n $r
			one ours $t $s $n $r
		fi
	done
}
# The guest's timer: clocksource, and the cost of one clock read (clockprobe, built outside).
clock_info()
{
	{
		echo "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
		[[ -x ${BENCH_PROBE:-} ]] && "$BENCH_PROBE"
		echo "cpu MHz in /proc/cpuinfo (perftest divides cycles by it): $(awk -F': ' '/^cpu MHz/ { print $2; exit }' /proc/cpuinfo)"
	} >clock.txt 2>&1
	cat clock.txt
}
# cg_client TOOL TEST ITERS FILE [VALGRIND OPTIONS...]: one client of TOOL under callgrind
# (its server beside it), the profile into FILE.cg.
cg_client()
{
	local tool=$1 t=$2 n=$3 f=$4 spid
	shift 4
	port=$((port + 1))
	if [[ $tool == ours ]]; then
		timeout -k 5 600 "$BENCH_BIN/gdr_$t" -d "$dev" -p $port --listen_timeout 300 --timeout 300 >"$f.srv" 2>&1 &
		spid=$!
		wait_listen $port $spid
		timeout -k 5 600 valgrind --tool=callgrind --callgrind-out-file="$f.cg" "$@" \
			"$BENCH_BIN/gdr_$t" -d "$dev" -p $port -s 64 -n "$n" --timeout 300 ${BENCH_OURS_ARGS:-} \
			"$addr" >"$f.out" 2>&1
	else
		timeout -k 5 600 "ib_$t" -d "$dev" -x "$gid" -p $port -s 64 -n "$n" >"$f.srv" 2>&1 &
		spid=$!
		wait_listen $port $spid
		timeout -k 5 600 valgrind --tool=callgrind --callgrind-out-file="$f.cg" "$@" \
			"ib_$t" -d "$dev" -x "$gid" -p $port -s 64 -n "$n" ${BENCH_PERFTEST_ARGS:-} "$addr" >"$f.out" 2>&1
	fi
	wait $spid
}
# cg_total FILE.cg: the profile's total Ir ("" when there is none).
cg_total()
{
	awk '/^(summary|totals):/ { print $2; exit }' "$1" 2>/dev/null
}
# callgrind_one TOOL TEST ITERS: the client under callgrind; appends to callgrind.tsv:
#   tool test iters Ir_total Ir_gdr_bw_post - Ir_provider Ir_own_post_poll provider_calls
# Ir_provider, provider_calls: the calls from the tool into the verbs provider (its post and
# poll functions: the same library code under both tools; empty polls included) with their
# inclusive cost, from the whole profile (bench-stats.py --provider: the provider has no
# symbols, so it is found by object); Ir_own_post_poll (ours): callgrind collecting only
# inside gdr_bw_post and gdr_bw_poll_send, our posting and completion functions.
callgrind_one()
{
	local tool=$1 t=$2 n=$3 f total post prov=- calls=- own=-
	f=cg-$tool-$t-$n
	cg_client "$tool" "$t" "$n" "$f"
	total=$(cg_total "$f.cg")
	[[ -n $total ]] || {
		echo "FAIL callgrind $f: no totals (see $f.out)" | tee -a errors.txt
		return
	}
	post=-
	if [[ $tool == ours ]]; then
		post=$(callgrind_annotate --inclusive=yes "$f.cg" 2>/dev/null |
			awk '/gdr_bw_post/ { gsub(",", "", $1); print $1; exit }')
		[[ -n $post ]] || post=-
	fi
	read -r prov calls < <(python3 "$BENCH_SRC/scripts/bench/bench-stats.py" --provider "$f.cg" 2>/dev/null)
	[[ -n $prov && -n $calls ]] || prov=- calls=-
	if [[ ${BENCH_CG_FUNCS:-1} == 1 && $tool == ours ]]; then
		cg_client "$tool" "$t" "$n" "$f-own" --collect-atstart=no \
			--toggle-collect=gdr_bw_post --toggle-collect=gdr_bw_poll_send
		own=$(cg_total "$f-own.cg")
		[[ -n $own ]] || own=-
	fi
	printf '%s\t%s\t%s\t%s\t%s\t-\t%s\t%s\t%s\n' "$tool" "$t" "$n" "$total" "$post" "$prov" "$own" "$calls" >>callgrind.tsv
	printf 'callgrind %-8s %-8s n=%s: Ir %s (posting %s; provider %s in %s calls; own post+poll %s)\n' \
		"$tool" "$t" "$n" "$total" "$post" "$prov" "$calls" "$own"
}
inner()
{
	dev=$BENCH_DEV addr=$BENCH_ADDR gid=${BENCH_GID:-1} port=18700
	ulimit -l unlimited 2>/dev/null
	cd "$BENCH_DIR" || return 1
	rm -f raw.tsv errors.txt callgrind.tsv
	runs=${BENCH_RUNS:-7}
	local t s
	clock_info
	for t in ${BENCH_TESTS:-write_bw read_bw send_bw write_lat read_lat send_lat}; do
		if [[ $t == *_bw ]]; then
			for s in ${BENCH_BW_SIZES:-64 4096 65536 1048576}; do
				point $t $s "$(bw_iters $s)"
			done
		else
			for s in ${BENCH_LAT_SIZES:-2 64 4096}; do
				point $t $s 1000
			done
		fi
	done
	if [[ ${BENCH_CALLGRIND:-1} == 1 ]] && command -v valgrind >/dev/null; then
		for t in ${BENCH_TESTS:-write_bw read_bw send_bw}; do
			[[ $t == *_bw ]] || continue
			for tool in ours perftest; do
				for n in ${BENCH_CG_ITERS:-2000 6000}; do
					callgrind_one $tool $t "$(round_up "$n")"
				done
			done
		done
	fi
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
	# shellcheck source=scripts/ci/deps.sh
	source "$src/scripts/ci/deps.sh"
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
# A loaded machine blurs the figures: refuse, or run and say so (BENCH_FORCE=1).
ncpu=$(nproc)
load=$(cut -d' ' -f1 /proc/loadavg)
maxload=${BENCH_MAX_LOAD:-$(awk -v n="$ncpu" 'BEGIN { printf "%.2f", n / 4 }')}
loadnote="load average $load at the start (limit $maxload, $ncpu CPUs)"
if awk -v l="$load" -v m="$maxload" 'BEGIN { exit !(l > m) }'; then
	if [[ ${BENCH_FORCE:-0} != 1 ]]; then
		echo "bench-perftest: error: $loadnote: the machine is busy and the figures would say more about" >&2
		echo "  the other jobs than about the tools; wait, or set BENCH_FORCE=1 to run anyway" >&2
		exit 1
	fi
	loadnote="$loadnote: ABOVE THE LIMIT, run anyway (BENCH_FORCE=1): the intervals are wider than on a quiet machine"
	echo "bench-perftest: warning: $loadnote" >&2
fi
day=$(date +%F)
md=${BENCH_OUT:-$src/results/bench-perftest-$day.md}
work=$(mktemp -d /var/tmp/bench-perftest.XXXXXX) || exit 1
start=$(date -u +%FT%TZ)
t0=$SECONDS
# clockprobe: ns per clock_gettime(CLOCK_MONOTONIC) and per rdtsc, in a tight loop.
probe=
if cc -O2 -o "$work/clockprobe" -x c - 2>/dev/null <<'PROBE'; then
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>
static uint64_t ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
int main(void)
{
	enum { N = 200000 };
	volatile uint64_t sink = 0;
	uint64_t a = ns();
	for (int i = 0; i < N; i++)
		sink += ns();
	uint64_t b = ns();
	for (int i = 0; i < N; i++)
		sink += __rdtsc();
	uint64_t c = ns();
	printf("clock_gettime(CLOCK_MONOTONIC) %.1f ns per call, rdtsc %.1f ns per read\n",
	       (double)(b - a) / N, (double)(c - b) / N);
	/* the TSC's rate against CLOCK_MONOTONIC over 0.5 s: what perftest's cycles mean */
	struct timespec half = { 0, 500000000 };
	uint64_t n0 = ns(), c0 = __rdtsc();
	nanosleep(&half, NULL);
	uint64_t n1 = ns(), c1 = __rdtsc();
	printf("rdtsc ticks at %.1f MHz of CLOCK_MONOTONIC time\n",
	       (double)(c1 - c0) * 1e3 / (double)(n1 - n0));
	return (int)(sink & 0);
}
PROBE
	probe=$work/clockprobe
fi
export BENCH_RUNS=${BENCH_RUNS:-7}
dev=$(ibv_devices 2>/dev/null | awk 'NR > 2 && $1 != "" { print $1; exit }')
if [[ -n $dev ]]; then
	[[ -n ${BENCH_ADDR:-} ]] || {
		echo "bench-perftest: error: RDMA device $dev here: set BENCH_ADDR to its IPv4 address (and BENCH_GID)" >&2
		exit 1
	}
	where="RDMA device $dev of this host"
	BENCH_SRC=$src BENCH_INNER=1 BENCH_BIN=$bin BENCH_DEV=$dev BENCH_DIR=$work BENCH_PROBE=$probe bash "$0"
	rc=$?
else
	where="Soft-RoCE rxe0 on veth0 in a QEMU/TCG VM (scripts/ci/rxe-vm.sh), one boot, host memory, GID index 1"
	BENCH_SRC=$src BENCH_INNER=1 BENCH_BIN=$bin BENCH_DEV=rxe0 BENCH_ADDR=10.9.0.1 BENCH_DIR=$work BENCH_PROBE=$probe \
		RXE_VM_ENV="BENCH_SRC BENCH_CG_FUNCS BENCH_CG_ITERS BENCH_INNER BENCH_BIN BENCH_DEV BENCH_ADDR BENCH_DIR BENCH_PROBE BENCH_RUNS BENCH_BW_SIZES BENCH_LAT_SIZES BENCH_TESTS BENCH_CALLGRIND BENCH_OURS_ARGS BENCH_PERFTEST_ARGS BENCH_ITERS_MULT" \
		RXE_VM_TIMEOUT=${RXE_VM_TIMEOUT:-7200} RXE_VM_LOG=$work/console.log \
		RXE_VM_APPEND=${RXE_VM_APPEND:-$([[ ${BENCH_TSC:-1} == 1 ]] && echo "clocksource=tsc tsc=reliable")} \
		bash "$src/scripts/ci/rxe-vm.sh" "$src/scripts/bench/bench-perftest.sh" "$work"
	rc=$?
fi
[[ -s $work/raw.tsv ]] || {
	echo "bench-perftest: error: no results (exit $rc; outputs in $work)" >&2
	exit 1
}

ptver=$(dpkg-query -W -f='${Version}' perftest 2>/dev/null || echo unknown)
ourver=$("$bin/gdr_write_bw" --version 2>/dev/null | head -1)
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
cg=()
[[ -s $work/callgrind.tsv ]] && cg=("$work/callgrind.tsv")
python3 "$src/scripts/bench/bench-stats.py" "$work/raw.tsv" "${cg[@]}" >"$work/table.md" || {
	echo "bench-perftest: error: bench-stats.py failed (outputs in $work)" >&2
	exit 1
}
endload=$(cut -d' ' -f1 /proc/loadavg)
cmd="BENCH_RUNS=$BENCH_RUNS"
for v in BENCH_TESTS BENCH_BW_SIZES BENCH_LAT_SIZES BENCH_CALLGRIND BENCH_CG_ITERS BENCH_FORCE BENCH_OURS_ARGS BENCH_PERFTEST_ARGS BENCH_ITERS_MULT BENCH_TSC; do
	[[ -n ${!v:-} ]] && cmd+=" $v=\"${!v}\""
done
mkdir -p "$(dirname "$md")"
{
	echo "# gdrperf vs perftest, $day"
	echo
	echo "- Command: \`$cmd scripts/bench/bench-perftest.sh\` (started $start, $((SECONDS - t0)) s)"
	echo "- Machine: $(uname -n), $cpu, $ncpu CPUs, $(uname -sr); $loadnote; $endload at the end"
	echo "- Where: $where"
	echo "- Guest timer: $(tr '\n' ';' <"$work/clock.txt" 2>/dev/null)"
	echo "- Client options beyond the common ones: ours \`${BENCH_OURS_ARGS:-(none: -l 32, our default)}\`, perftest \`${BENCH_PERFTEST_ARGS:-(none: one WR a post, its default)}\`"
	echo "- Tools: $ourver; perftest $ptver (Debian). Iterations (both tools): bw 64 B 5000,"
	echo "  4 KiB 2000, 64 KiB 500, 1 MiB 50 (each rounded up to a multiple of ${BENCH_ITERS_MULT:-1}); lat 1000. $BENCH_RUNS runs per point, ours and"
	echo "  perftest alternating run by run (the order flips every run)."
	echo "- Figures: median of the runs; ratio = ours / perftest (bw: > 1 is faster; latency:"
	echo "  < 1 is faster), with a bootstrap 95% interval (4000 resamples of each tool's runs,"
	echo "  seeded). A point is flagged SLOWER only when its interval lies wholly below 1.0"
	echo "  (bw) or above 1.0 (latency); \"faster\" when wholly on the other side; otherwise"
	echo "  the runs cannot tell the tools apart. perftest's \"MB/sec\" is MiB/s (2^20 B/s)."
	echo "  Latency: ours t_median vs perftest t_typical (its median); write/send half round"
	echo "  trip, read full round trip, in both tools."
	[[ -z $dev ]] && echo "- Soft-RoCE under software emulation: ratios between tools in one boot are"
	[[ -z $dev ]] && echo "  meaningful; absolute figures are not hardware figures."
	[[ -s $work/errors.txt ]] && echo "- Failed runs: $(tr '\n' ';' <"$work/errors.txt")"
	echo
	cat "$work/table.md"
	echo "Raw per-run figures (tool, test, size, run, bw_avg/t_typical-or-median, msgrate/t_avg):"
	echo
	echo '```'
	cat "$work/raw.tsv"
	echo '```'
} >"$md"
cat "$work/table.md"
echo "bench-perftest: table in $md; run outputs in $work"
exit $rc
