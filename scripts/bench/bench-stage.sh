#!/bin/sh
# bench-stage.sh: gdr_stage_bw (pinned, one stream) against ref_memcpy, the
# plainest cuMemcpy*Async loop, at 2 MiB, 16 MiB and 128 MiB, H2D and D2H.
# Goal: ratio >= 0.95 at every size. Needs a GPU.
# Usage: scripts/bench/bench-stage.sh [BUILDDIR] [CSV]   (BUILDDIR holds gdr_stage_bw)
set -eu
b=${1:-.}
csv=${2:-}
reps=${REPS:-5}
stage=$b/gdr_stage_bw
ref=$b/tests/cuda/ref_memcpy
for x in "$stage" "$ref"; do
	[ -x "$x" ] || { echo "bench-stage.sh: $x not found: build first (make && make check)" >&2; exit 1; }
done
[ -n "$csv" ] && echo "bytes,dir,iters,stage_gbps,ref_gbps,ratio" >"$csv"
printf '%-10s %-4s %-6s %-12s %-12s %-6s %s\n' "#bytes" dir iters stage_GB/s ref_GB/s ratio goal
bad=0
for size in 2097152 16777216 134217728; do
	iters=$((2147483648 / size))
	[ $iters -gt 20 ] || iters=20
	for dir in h2d d2h; do
		s=$("$stage" -q -s "$size" --dir=$dir -n $iters --reps=$reps | awk -v s="$size" '$1 == s { print $5 }')
		r=$("$ref" $dir "$size" $iters $reps | awk '{ print $3 }')
		[ -n "$s" ] && [ -n "$r" ] || { echo "bench-stage.sh: no figure for $size $dir" >&2; exit 1; }
		ratio=$(awk -v s="$s" -v r="$r" 'BEGIN { printf "%.3f", s / r }')
		ok=$(awk -v q="$ratio" 'BEGIN { print (q >= 0.95) ? "ok" : "BELOW" }')
		[ "$ok" = ok ] || bad=1
		printf '%-10s %-4s %-6s %-12s %-12s %-6s %s\n' "$size" $dir $iters "$s" "$r" "$ratio" "$ok"
		[ -z "$csv" ] || echo "$size,$dir,$iters,$s,$r,$ratio" >>"$csv"
	done
done
exit $bad
