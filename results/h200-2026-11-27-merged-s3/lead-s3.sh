#!/bin/bash
# lead's session-3 device call: merged main with the real driver (make check: the gproxy tests
# incl. t_gproxy ping/hang on real kernels), proxy-null beside the anchor, the ping row
set -u
src=$PWD b=/tmp/b-final o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
hdr() { echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader | head -1); $(uname -srm); $(nproc) CPUs"
        echo "# date: $(date -u +%FT%TZ); commit: $GDR_COMMIT"; echo "# command: $1"; }
. scripts/gpu/env.sh
{ hdr "configure --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h; make -j16; make -j16 check (real driver)"
  autoreconf -fi >/dev/null 2>&1
  cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
  make -j16 >make.out 2>&1; echo "make: exit $?"; grep -E 'error|warning' make.out | head
  make -j16 check >check.out 2>&1; echo "make check: exit $?"
  grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS)|^# ' check.out
  for t in ping order hang stall; do echo "## tests/cuda/t_gproxy $t"; timeout 60 tests/cuda/t_gproxy $t 2>&1 | tail -4; echo "exit $?"; done
  (cd "$src" && bash scripts/gpu/sm-ptx.sh --check gp; echo "sm-ptx --check gp: exit $?"); } >"$o/check.txt" 2>&1
cd "$b"
{ hdr "PROBES=.carry/probes scripts/gpu/proxy-null.sh gdr_proxy_bw 20000"
  PROBES=$src/.carry/probes timeout 200 bash "$src/scripts/gpu/proxy-null.sh" ./gdr_proxy_bw 20000; echo "exit $?"; } >"$o/proxy-null.txt" 2>&1
{ hdr "gdr_proxy_bw -n 20000 --ping --no_rate (three times)"
  for r in 1 2 3; do timeout 60 ./gdr_proxy_bw -n 20000 --ping --no_rate; echo "exit $?"; done; } >"$o/ping.txt" 2>&1
tail -12 "$o/check.txt"; tail -15 "$o/proxy-null.txt"; cat "$o/ping.txt"
