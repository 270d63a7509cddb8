#!/bin/bash
# lead's device call, 2026-11-29 (session 2): main after the transport seam's first step (issue
# 45) on one H200 with the real driver: make -j16 check; the persistent kernels' one host side
# (scripts/gpu/gpukern-check.sh); memory exports (scripts/gpu/export-check.sh); the sm copier
# and the gpu-proxy null-NIC leg against their anchors (sm-anchor.sh, proxy-null.sh, 3 rounds
# each; the probes carried in .carry/probes); the conformance suite (scripts/gpu/conformance.sh).
set -u
src=$PWD o=${OUT:-/tmp/out} b=/tmp/b-seam
mkdir -p "$o" "$b"
export GDR_COMMIT=${GDR_COMMIT:-unknown}
hdr() { echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader | head -1); $(uname -srm); $(nproc) CPUs"
        echo "# date: $(date -u +%FT%TZ); commit: $GDR_COMMIT"; echo "# command: $1"; }
. scripts/gpu/env.sh
{ hdr "configure --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h; make -j16; make -j16 check (real driver)"
  autoreconf -fi >/dev/null 2>&1
  cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
  make -j16 >make.out 2>&1; echo "make: exit $?"; grep -E 'error|warning' make.out | head
  timeout 200 make -j16 check >check.out 2>&1; echo "make check: exit $?"
  grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS)|^# ' check.out
  for f in $(grep -lE '^(FAIL|ERROR)' tests/*/*.trs tests/*.trs 2>/dev/null); do echo "== ${f%.trs}.log"; tail -30 "${f%.trs}.log"; done
} >"$o/check.txt" 2>&1
cd "$src"
OUT=$o timeout 150 bash scripts/gpu/gpukern-check.sh >/dev/null 2>&1; echo "gpukern-check: exit $?"
OUT=$o timeout 90 bash scripts/gpu/export-check.sh >/dev/null 2>&1; echo "export-check: exit $?"
cd "$b" && make -j16 tests/cuda/sm_bench gdr_proxy_bw >/dev/null 2>&1
{ hdr "ROUNDS=3 PROBES=.carry/probes scripts/gpu/sm-anchor.sh tests/cuda/sm_bench 20000"
  ROUNDS=3 PROBES=$src/.carry/probes timeout 150 bash "$src/scripts/gpu/sm-anchor.sh" ./tests/cuda/sm_bench 20000; echo "exit $?"; } >"$o/sm-anchor.txt" 2>&1
{ hdr "ROUNDS=3 PROBES=.carry/probes scripts/gpu/proxy-null.sh gdr_proxy_bw 20000"
  ROUNDS=3 PROBES=$src/.carry/probes timeout 150 bash "$src/scripts/gpu/proxy-null.sh" ./gdr_proxy_bw 20000; echo "exit $?"; } >"$o/proxy-null.txt" 2>&1
cd "$src"
OUT=$o CONF_TIMEOUT=60 timeout 120 bash scripts/gpu/conformance.sh >/dev/null 2>&1; echo "conformance: exit $?"
tail -4 "$o/check.txt"; tail -3 "$o/gpukern-check.txt"; tail -3 "$o/export-check.txt"
tail -12 "$o/sm-anchor.txt"; tail -10 "$o/proxy-null.txt"; grep -v '^   ' "$o/conformance.txt" | grep -E 'rule|#' | tail -20
