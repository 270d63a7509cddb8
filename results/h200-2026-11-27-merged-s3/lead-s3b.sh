#!/bin/bash
# t_copier_sm with the real driver (failed once in lead-s3.sh's make check), and proxy-null in 7 rounds
set -u
src=$PWD b=/tmp/b-final o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
hdr() { echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader | head -1); $(uname -srm); $(nproc) CPUs"
        echo "# date: $(date -u +%FT%TZ); commit: $GDR_COMMIT"; echo "# command: $1"; }
. scripts/gpu/env.sh
autoreconf -fi >/dev/null 2>&1
cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
make -j16 >make.out 2>&1 || { tail make.out; exit 1; }
make -j16 check TESTS="tests/cuda/t_copier_sm" >/dev/null 2>&1
{ hdr "make check TESTS=tests/cuda/t_copier_sm, three times (real driver)"
  for r in 1 2 3; do make check TESTS="tests/cuda/t_copier_sm" >/dev/null 2>&1; echo "round $r: exit $?"; cat tests/cuda/t_copier_sm.log | tail -30; done; } >"$o/copier_sm.txt" 2>&1
{ hdr "ROUNDS=7 PROBES=.carry/probes scripts/gpu/proxy-null.sh gdr_proxy_bw 20000"
  ROUNDS=7 PROBES=$src/.carry/probes timeout 300 bash "$src/scripts/gpu/proxy-null.sh" ./gdr_proxy_bw 20000; echo "exit $?"; } >"$o/proxy-null.txt" 2>&1
grep -E "round|FAIL|fail|error" "$o/copier_sm.txt" | head -30; grep -v "^# anchor\|^# product" "$o/proxy-null.txt"
