#!/bin/bash
# lead's device call A, 2026-11-29: merged main with the real driver on one H200: make -j16
# check (the real-driver tests, the conformance cases against the double), then --matrix=all on
# a host without an RDMA port (the launcher lists the GPUs from a short-lived child: the fork
# rule), gdr_write_bw --compare on one GPU without a NIC (what a user sees).
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
  timeout 330 make -j16 check >check.out 2>&1; echo "make check: exit $?"
  grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS)|^# ' check.out
  for f in $(grep -lE '^(FAIL|ERROR)' tests/*/*.trs tests/*.trs 2>/dev/null); do echo "== ${f%.trs}.log"; tail -30 "${f%.trs}.log"; done
} >"$o/check.txt" 2>&1
cd "$b"
{ hdr "gdr_write_bw --matrix=all -s 4M --matrix_time 0.5 (no RDMA port: the copy leg)"
  timeout 120 ./gdr_write_bw --matrix=all -s 4M --matrix_time 0.5; echo "exit $?"
  hdr "gdr_write_bw --use_cuda=0 --compare localhost (no RDMA device here)"
  timeout 20 ./gdr_write_bw --use_cuda=0 --compare localhost; echo "exit $?"
} >"$o/matrix.txt" 2>&1
tail -25 "$o/check.txt"; cat "$o/matrix.txt"
