#!/bin/bash
# How results/h100-final-*.txt were made: run on the H100 machine from the repository
# root (the librdmacm-dev .deb in .carry/, $OUT a folder): the whole tree built with
# --enable-werror and CUDA, make check (CUDA tests run for real there), gdr_stage_bw
# against a plain cuMemcpyAsync loop, and what the test binaries say on a GPU host
# without an RDMA device.
set -u
src=$PWD b=/tmp/b-final o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
hdr() {
	{ echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
	  echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
	  echo "# command: $2"; } >"$1"
}
. scripts/gpu/env.sh
T=$o/h100-final-check.txt
hdr "$T" "autoreconf -fi; configure --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h; make -j16; make -j16 check"
{ autoreconf -fi >/dev/null 2>&1
  cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h 2>&1 | tail -7
  make -j16 >make.out 2>&1; echo "make: exit $?"; grep -E 'error|warning' make.out | head -20
  make -j16 check >check.out 2>&1; echo "make check: exit $?"
  grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS)|^# ' check.out
  for f in tests/cuda/t_cuda_backend.log; do echo "== $f"; cat "$f"; done
} >>"$T" 2>&1
cd "$b" || exit 1
S=$o/h100-final-stage.txt
hdr "$S" "gdr_stage_bw --sizes=2M:128M:8 --dir=h2d / --dir=d2h; scripts/bench/bench-stage.sh"
{ ./gdr_stage_bw --sizes=2M:128M:8 --dir=h2d; ./gdr_stage_bw --sizes=2M:128M:8 --dir=d2h
  sh "$src/scripts/bench/bench-stage.sh" "$b"; echo "bench-stage: exit $?"; } >>"$S" 2>&1
E=$o/h100-final-nonic.txt
hdr "$E" "gdr_write_bw --use_cuda=0 localhost; gdr_write_bw --use_cuda=0 (server); gdr_doctor"
{ for a in "--use_cuda=0 localhost" "--use_cuda=0" "--use_cuda=auto --staged localhost"; do
	echo "\$ gdr_write_bw $a"; timeout 10 ./gdr_write_bw $a; echo "exit $?"; done
  echo "\$ gdr_doctor"; timeout 30 ./gdr_doctor; echo "exit $?"; } >>"$E" 2>&1
cat "$T" "$S" "$E"
