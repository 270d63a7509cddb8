#!/bin/bash
# SPDX-License-Identifier: MIT
# The stager (the copy leg of --staged, measured by gdr_stage_bw) against a plain
# cuMemcpyAsync loop (tests/cuda/ref_memcpy) at the same chunk, H2D, D2H and both at
# once, chunks 256 KiB..64 MiB (goal: ratio >= 0.95); then 64 KiB messages as --staged
# copies them with the default chunk (runs of 16 messages = 1 MiB copies; goal >= 40 GB/s
# each way, >= 80 GB/s both at once), beside a copy per message (the old pipeline).
# Run on the H100 machine from the repository root (librdmacm-dev .deb in .carry/, as
# scripts/gpu/final-run.sh); writes $OUT/h100-stager.txt. About 1-2 minutes.
set -u
src=$PWD b=/tmp/b-stager o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
R=$o/h100-stager.txt
{ echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
  echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
  echo "# command: scripts/gpu/stager.sh (gdr_stage_bw -s CHUNK --dir=D --streams=4 vs ref_memcpy D CHUNK ITERS 3)"; } >"$R"
. scripts/gpu/env.sh
{ autoreconf -fi >/dev/null 2>&1
  cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
  make -j16 gdr_stage_bw >make.out 2>&1 && make -j16 tests/cuda/ref_memcpy >>make.out 2>&1
  echo "build: exit $?"; grep -E 'error' make.out | head; } >>"$R" 2>&1
cd "$b" || exit 1
stage() { ./gdr_stage_bw -q -s "$1" --dir="$2" --streams=4 -n "$3" --reps=3 | awk -v s="$1" '$1 == s { print $5 }'; }
{ printf '%-10s %-6s %-6s %-12s %-12s %-6s %s\n' "#chunk" dir iters stager_GB/s ref_GB/s ratio goal
  bad=0
  for c in 262144 1048576 4194304 16777216 67108864; do
	n=$((1073741824 / c)); [ $n -ge 16 ] || n=16
	for d in h2d d2h bidir; do
		s=$(stage $c $d $n) r=$(./tests/cuda/ref_memcpy $d $c $n 3 | awk '{ print $3 }')
		q=$(awk -v s="${s:-0}" -v r="${r:-0}" 'BEGIN { printf "%.3f", (r > 0 ? s / r : 0) }')
		ok=$(awk -v q="$q" 'BEGIN { print (q >= 0.95) ? "ok" : "BELOW" }'); [ "$ok" = ok ] || bad=1
		printf '%-10s %-6s %-6s %-12s %-12s %-6s %s\n' $c $d $n "${s:--}" "${r:--}" "$q" "$ok (>= 0.95)"
	done
  done
  echo
  echo "# 64 KiB messages: --staged copies runs of 16 (one 1 MiB copy, the default chunk) vs one copy per message"
  printf '%-22s %-6s %-12s %s\n' "#copy" dir GB/s goal
  for d in h2d d2h bidir; do
	g=40; [ $d = bidir ] && g=80
	s=$(stage 1048576 $d 2048) p=$(stage 65536 $d 16384)
	ok=$(awk -v s="${s:-0}" -v g=$g 'BEGIN { print (s >= g) ? "ok" : "BELOW" }'); [ "$ok" = ok ] || bad=1
	printf '%-22s %-6s %-12s %s\n' "runs (1 MiB chunk)" $d "${s:--}" "$ok (>= $g)"
	printf '%-22s %-6s %-12s %s\n' "per message (64 KiB)" $d "${p:--}" "reference"
  done
  echo "stager.sh: $([ $bad = 0 ] && echo 'every goal met' || echo 'some goal missed (BELOW)')"
} >>"$R" 2>&1
cat "$R"
