#!/bin/bash
# helper lat's device call (issue 37, gpu-proxy latency): PTX regenerated and checked, build with
# the real driver, the gproxy unit tests (real driver), proxy-null.sh against the anchor, --ping rows.
set -u
repo=$1 src=$PWD b=/tmp/b-lat o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
ln -sfn "$repo/.carry" "$src/.carry"
hdr() { echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader | head -1); $(uname -srm); $(nproc) CPUs"
        echo "# date: $(date -u +%FT%TZ); commit: $GDR_COMMIT"; echo "# command: $1"; }
. scripts/gpu/env.sh
{ hdr "scripts/gpu/sm-ptx.sh --check gp; SM_PTX_OUT=\$OUT/gp_kernel.ptx scripts/gpu/sm-ptx.sh gp"
  bash scripts/gpu/sm-ptx.sh --check gp; echo "check: exit $?"
  SM_PTX_OUT=$o/gp_kernel.ptx bash scripts/gpu/sm-ptx.sh gp; echo "write: exit $?"
  cmp src/gproxy/gp_kernel.ptx "$o/gp_kernel.ptx" && echo "committed PTX == regenerated PTX"; } >"$o/ptx.txt" 2>&1
{ hdr "configure --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h; make -j16; make check TESTS=gproxy tests (real driver); t_gproxy ping/stall/order"
  autoreconf -fi >/dev/null 2>&1
  cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
  make -j16 >make.out 2>&1; echo "make: exit $?"; grep -E 'error|warning' make.out | head
  make -j16 check TESTS="tests/cuda/t_gproxy tests/cuda/t_gp_ptx.sh tests/cuda/t_gproxy_double.sh" >check.out 2>&1; echo "make check (gproxy tests): exit $?"
  grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS)|^# ' check.out
  echo "== tests/cuda/t_gproxy.log (real driver)"; cat tests/cuda/t_gproxy.log
  for m in ping order stall; do echo "== env -u GDR_LIBCUDA tests/cuda/t_gproxy $m (real driver)"; env -u GDR_LIBCUDA timeout 60 tests/cuda/t_gproxy $m 2>&1; echo "exit $?"; done
} >"$o/check.txt" 2>&1
cd "$b"
{ hdr "PROBES=.carry/probes scripts/gpu/proxy-null.sh gdr_proxy_bw 20000"
  PROBES=$src/.carry/probes timeout 150 bash "$src/scripts/gpu/proxy-null.sh" ./gdr_proxy_bw 20000; echo "exit $?"; } >"$o/proxy-null.txt" 2>&1
{ hdr "gdr_proxy_bw -n 20000 --ping --no_rate (three runs)"
  for r in 1 2 3; do timeout 60 ./gdr_proxy_bw -n 20000 --ping --no_rate 2>&1 | sed "s/^/run $r: /"; done; } >"$o/ping.txt" 2>&1
tail -4 "$o/ptx.txt"; grep -E "exit|^(PASS|FAIL|SKIP)" "$o/check.txt"; tail -14 "$o/proxy-null.txt"; cat "$o/ping.txt"
