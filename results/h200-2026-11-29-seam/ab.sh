#!/bin/bash
# (kept here as run; it was carried as .carry/ab.sh with b211b7b's tree in .carry/old, made by `git archive b211b7b | tar -x -C .carry/old`)
# sm copier A/B in one call: b211b7b (before gpukern) vs HEAD, ROUNDS=3 each, alternated; doctor.sh log
set -u
src=$PWD o=${OUT:-/tmp/out}
. scripts/gpu/env.sh
(cd .carry/old && autoreconf -fi >/dev/null 2>&1; mkdir -p /tmp/b-old && cd /tmp/b-old && $src/.carry/old/configure CUDA_H_PATH=/usr/local/cuda/include/cuda.h >/dev/null 2>&1 && make -j16 >/dev/null 2>&1 && make -j16 tests/cuda/sm_bench >/dev/null 2>&1); echo "old build: $?"
(autoreconf -fi >/dev/null 2>&1; mkdir -p /tmp/b-seam && cd /tmp/b-seam && $src/configure CUDA_H_PATH=/usr/local/cuda/include/cuda.h >/dev/null 2>&1 && make -j16 >/dev/null 2>&1 && make -j16 tests/cuda/sm_bench >/dev/null 2>&1); echo "new build: $?"
for r in 1 2; do
 for v in old seam; do
  { echo "# round $r: $v ($( [ $v = old ] && echo b211b7b || echo $GDR_COMMIT))"; ROUNDS=3 PROBES=$src/.carry/probes timeout 100 bash "$src/scripts/gpu/sm-anchor.sh" /tmp/b-$v/tests/cuda/sm_bench 20000 | tail -15; } >>"$o/sm-ab.txt" 2>&1
 done
done
cd /tmp/b-seam && timeout 100 make check TESTS=tests/doctor/doctor.sh >/dev/null 2>&1; cp tests/doctor/doctor.sh.log "$o/doctor.log"; tail -20 "$o/doctor.log"
grep -E "^(8|64|256|4096) |round|sm-anchor:" "$o/sm-ab.txt"
