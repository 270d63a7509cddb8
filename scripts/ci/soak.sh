#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/ci/soak.sh HOURS [OUTDIR] - hours of running (not in CI): every test binary
# served by its own --persistent server and driven by clients back to back on
# Soft-RoCE (scripts/ci/rxe-vm.sh; on this host when it has an RDMA device), each gdr_*
# process's RSS, open fds and pinned/locked memory sampled all along; fails on growth.
#
# Growth: per server process, and per client test (all its runs together), after a
# warm-up (SOAK_WARMUP s, default a tenth of the soak, at least 2 samples): the
# samples left are cut in thirds by time; a metric grew when the last third's
# maximum is above the first third's maximum by more than its bound:
#   rss_kb  SOAK_RSS_KB (2048) + 2 %   fds  SOAK_FDS (2)   pin_kb, lck_kb  SOAK_PIN_KB (1024)
# A server (it lives the whole soak) with under 3 samples fails; a client test (sampled
# only while one of its runs is under way) with under 3 is listed, not judged.
# scripts/ci/soak.sh --analyze OUTDIR judges the samples of an earlier soak again.
# Environment: SOAK_SAMPLE seconds between samples (60), SOAK_RUN -D of each client
# (30), SOAK_BIN the build folder (build/w), RXE_VM_SMP etc. as rxe-vm.sh.
# Output: OUTDIR (default /tmp/soak-<date>) holds soak.tsv (every sample), runs.tsv
# (every client run), summary.txt; the summary is also printed.
# Exit: 0 no growth and every run passed, 1 growth or a failed run, 2 usage.
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
usage()
{
	sed -n '3,/^set -uo/p' "$0" | sed -e 's/^# \{0,1\}//' -e '/^set -uo/d' >&2
	exit 2
}
analyze=0
if [[ ${1:-} == --analyze ]]; then
	[[ $# -eq 2 && -f $2/soak.tsv ]] || usage
	analyze=1
	set -- "$(awk -F'\t' 'NR > 1 && $1 > m { m = $1 } END { printf "%.4f", m / 3600 }' "$2/soak.tsv")" "$2"
fi
[[ $# -ge 1 && $# -le 2 && $1 =~ ^[0-9]*\.?[0-9]+$ ]] || usage
secs=$(awk -v h="$1" 'BEGIN { printf "%d", h * 3600 }')
((secs >= 60)) || {
	echo "soak: HOURS=$1 is under a minute" >&2
	exit 2
}
out=${2:-/tmp/soak-$(date -u +%Y%m%d-%H%M)}
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
export SOAK_BIN=$(cd "${SOAK_BIN:-$src/build/w}" && pwd) SOAK_SECS=$secs
export SOAK_SAMPLE=${SOAK_SAMPLE:-60} SOAK_RUN=${SOAK_RUN:-30}
[[ -x $SOAK_BIN/gdr_write_bw ]] || {
	echo "soak: $SOAK_BIN/gdr_write_bw not found: build first or set SOAK_BIN" >&2
	exit 2
}
warm=${SOAK_WARMUP:-$((secs / 10))}
((warm < 2 * SOAK_SAMPLE)) && warm=$((2 * SOAK_SAMPLE))

t0=$(date -u +%FT%TZ)
if [[ $analyze == 1 ]]; then
	# the run's own summary is kept as summary-run.txt; summary.txt is judged again
	[[ -f $out/summary-run.txt ]] || cp "$out/summary.txt" "$out/summary-run.txt" 2>/dev/null
	grc=$(sed -n 's/^rxe-vm: script exit status \([0-9]*\).*/\1/p' "$out/guest.log" | tail -n 1)
	grc=${grc:-126}
else
echo "soak: ${secs} s from $t0, sample every ${SOAK_SAMPLE} s, clients -D ${SOAK_RUN}; out: $out"
dev=$(ibv_devices 2>/dev/null | awk 'NR > 2 && $1 != "" { print $1; exit }')
if [[ -n $dev ]]; then
	(cd "$out" && SOAK_DEV=$dev SOAK_ADDR=${SOAK_ADDR:?set SOAK_ADDR: the address of $dev} \
		bash "$src/scripts/ci/soak-vm.sh") >"$out/guest.log" 2>&1
else
	RXE_VM_ENV="SOAK_BIN SOAK_SECS SOAK_SAMPLE SOAK_RUN" \
		RXE_VM_TIMEOUT=$((secs + 900)) bash "$src/scripts/ci/rxe-vm.sh" \
		"$src/scripts/ci/soak-vm.sh" "$out" >"$out/guest.log" 2>&1
fi
grc=$?
fi

# growth check: one line per (process, metric); GREW lines make the soak fail
awk -F'\t' -v warm="$warm" -v brss="${SOAK_RSS_KB:-2048}" -v bfds="${SOAK_FDS:-2}" \
	-v bpin="${SOAK_PIN_KB:-1024}" '
NR == 1 { for (i = 5; i <= 8; i++) metric[i] = $i; next }
$1 < warm { next }
{
	k = $2 == "server" ? "server " $3 " (pid " $4 ")" : "client " $3 " (all runs)"
	if (!(k in first)) { first[k] = $1; keys[++nk] = k }
	last[k] = $1
	n[k]++
	t[k, n[k]] = $1
	for (i = 5; i <= 8; i++) v[k, n[k], i] = $i
}
END {
	bad = 0
	printf "%-32s %-7s %6s %12s %12s %10s  %s\n", "process", "metric", "samples", "max 1st 1/3", "max last 1/3", "bound", "verdict"
	for (j = 1; j <= nk; j++) {
		k = keys[j]
		span = last[k] - first[k]
		if (span <= 0 || n[k] < 3) {
			srv = k ~ /^server/
			printf "%-32s %d samples after warm-up: %s\n", k, n[k], srv ? "too few (FAIL)" : "too few to judge"
			bad += srv
			continue
		}
		for (i = 5; i <= 8; i++) {
			a = -1; b = -1
			for (s = 1; s <= n[k]; s++) {
				x = v[k, s, i] + 0
				if (t[k, s] <= first[k] + span / 3 && x > a) a = x
				if (t[k, s] >= last[k] - span / 3 && x > b) b = x
			}
			bound = i == 5 ? brss + a * 0.02 : i == 6 ? bfds : bpin
			grew = b > a + bound
			bad += grew
			printf "%-32s %-7s %6d %12d %12d %10d  %s\n", k, metric[i], n[k], a, b, bound, grew ? "GREW" : "ok"
		}
	}
	exit bad ? 1 : 0
}' "$out/soak.tsv" >"$out/growth.txt" 2>&1
arc=$?
runs=$(awk -F'\t' 'NR > 1 { n++; f += $3 != 0 } END { printf "%d client runs, %d failed", n, f }' "$out/runs.tsv" 2>/dev/null)
{
	if [[ $analyze == 1 ]]; then
		grep -m 1 '^soak: .*started' "$out/summary-run.txt" 2>/dev/null
		echo "judged again on $(date -u +%FT%TZ): scripts/ci/soak.sh --analyze $out (warm-up ${warm} s); the run was:"
		grep '^command:' "$out/summary-run.txt" 2>/dev/null
	else
		echo "soak: $(uname -n), $(nproc) CPUs; started $t0, ended $(date -u +%FT%TZ)"
		echo "command: scripts/ci/soak.sh $* (SOAK_SAMPLE=$SOAK_SAMPLE SOAK_RUN=$SOAK_RUN RXE_VM_SMP=${RXE_VM_SMP:-2}); commit $(git -C "$src" rev-parse --short HEAD 2>/dev/null)"
	fi
	echo "runs: ${runs:-none recorded}; guest exit $grc; samples: $(($(wc -l <"$out/soak.tsv" 2>/dev/null || echo 1) - 1)) (warm-up ${warm} s left out)"
	grep '^soak:' "$out/guest.log" | grep -v 'booting'
	cat "$out/growth.txt"
	if [[ $arc -ne 0 ]]; then
		echo "FAIL: growth (lines marked GREW) or too few samples"
	elif [[ $grc -ne 0 ]]; then
		echo "FAIL: the run itself failed (guest exit $grc; see $out/guest.log)"
	else
		echo "PASS: no growth"
	fi
} | tee "$out/summary.txt"
[[ $arc -eq 0 && $grc -eq 0 ]]
