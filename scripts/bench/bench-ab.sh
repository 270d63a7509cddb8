#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/bench/bench-ab.sh BEFORE_DIR AFTER_DIR - two builds of gdrperf (folders with
# gdr_write_bw), each against Debian's perftest, in ONE boot of the Soft-RoCE VM, at
# -l 32 and at -l 1 (both tools alike: perftest -l 32 with iterations a multiple of 32;
# its default, one WR a post, against ours -l 1). Per batch and build it runs the inner
# part of bench-perftest.sh (the same runs, ratios and callgrind counts) into its own
# folder, the -l 32 pairs first; then prints each folder's table (bench-stats.py) and,
# from the whole-client profiles, our posting and completion functions' instructions per
# message (gdr_bw_post and gdr_bw_poll_send inclusive, the difference of two iteration
# counts), so BENCH_CG_FUNCS's extra profiles are not needed.
# Environment: BENCH_RUNS (3), BENCH_TESTS (write_bw), BENCH_BW_SIZES (64), BENCH_CG_ITERS
# (bench-perftest.sh's), AB_BATCHES ("32 1": the -l values), AB_OUT (the folder; default a
# new /var/tmp/bench-ab.XXXX), RXE_VM_TIMEOUT (3600).
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)

if [[ ${AB_INNER:-0} == 1 ]]; then
	rc=0
	for l in ${AB_BATCHES:-32 1}; do
		for b in after before; do
			bin=$AB_AFTER
			[[ $b == before ]] && bin=$AB_BEFORE
			dir=$RXE_VM_OUT/l$l-$b
			mkdir -p "$dir"
			if [[ $l == 32 ]]; then
				ours="-l 32" theirs="-l 32" mult=32
			else
				ours="-l 1" theirs="" mult=1
			fi
			echo "bench-ab: -l $l, $b ($bin), from $(date -u +%T)"
			BENCH_INNER=1 BENCH_SRC=$src BENCH_BIN=$bin BENCH_DEV=rxe0 BENCH_ADDR=10.9.0.1 \
				BENCH_DIR=$dir BENCH_OURS_ARGS=$ours BENCH_PERFTEST_ARGS=$theirs \
				BENCH_ITERS_MULT=$mult BENCH_CG_FUNCS=0 \
				bash "$src/scripts/bench/bench-perftest.sh" || rc=1
		done
	done
	exit $rc
fi

[[ $# -eq 2 && -x $1/gdr_write_bw && -x $2/gdr_write_bw ]] || {
	echo "bench-ab: error: usage: bench-ab.sh BEFORE_DIR AFTER_DIR (each with gdr_write_bw)" >&2
	exit 2
}
AB_BEFORE=$(cd "$1" && pwd) AB_AFTER=$(cd "$2" && pwd)
export AB_BEFORE AB_AFTER AB_INNER=1
export BENCH_RUNS=${BENCH_RUNS:-3} BENCH_TESTS=${BENCH_TESTS:-write_bw} BENCH_BW_SIZES=${BENCH_BW_SIZES:-64}
out=${AB_OUT:-$(mktemp -d /var/tmp/bench-ab.XXXXXX)}
mkdir -p "$out" || exit 1
echo "bench-ab: $(date -u +%FT%TZ) load average $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) CPUs; outputs in $out"
RXE_VM_ENV="AB_INNER AB_BEFORE AB_AFTER AB_BATCHES BENCH_RUNS BENCH_TESTS BENCH_BW_SIZES BENCH_CG_ITERS" \
	RXE_VM_TIMEOUT=${RXE_VM_TIMEOUT:-3600} RXE_VM_APPEND="clocksource=tsc tsc=reliable" \
	bash "$src/scripts/ci/rxe-vm.sh" "$src/scripts/bench/bench-ab.sh" "$out"
rc=$?
echo "bench-ab: $(date -u +%FT%TZ) load average $(cut -d' ' -f1-3 /proc/loadavg); VM exit $rc"
# incl FILE.cg FUNC: FUNC's inclusive Ir in the profile
incl()
{
	callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
		awk -v f="$2" 'index($0, f) { gsub(",", "", $1); if ($1 ~ /^[0-9]+$/) { print $1; exit } }
			END { print 0 }' | head -1
}
for d in "$out"/l*-*; do
	[[ -s $d/raw.tsv ]] || continue
	echo "## $(basename "$d")"
	cg=()
	[[ -s $d/callgrind.tsv ]] && cg=("$d/callgrind.tsv")
	python3 "$src/scripts/bench/bench-stats.py" "$d/raw.tsv" "${cg[@]}"
	mapfile -t f < <(printf "%s\n" "$d"/cg-ours-write_bw-*.cg | grep -v "\*" | sort -V)
	if ((${#f[@]} == 2)); then
		n0=${f[0]##*-} n1=${f[1]##*-}
		n0=${n0%.cg} n1=${n1%.cg}
		a=$(($(incl "${f[0]}" gdr_bw_post) + $(incl "${f[0]}" gdr_bw_poll_send)))
		b=$(($(incl "${f[1]}" gdr_bw_post) + $(incl "${f[1]}" gdr_bw_poll_send)))
		echo "own post+poll (gdr_bw_post + gdr_bw_poll_send inclusive; a function the compiler" \
			"inlined counts 0): $a Ir at $n0, $b at $n1:" \
			"$(awk -v a="$a" -v b="$b" -v x="$n0" -v y="$n1" 'BEGIN { printf "%.1f", (b - a) / (y - x) }') Ir/msg"
	fi
done
exit $rc
