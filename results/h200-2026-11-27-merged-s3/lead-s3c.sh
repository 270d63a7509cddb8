#!/bin/bash
# make -j16 check with the real driver three times: t_copier_sm's log whenever it fails
set -u
src=$PWD b=/tmp/b-final o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
. scripts/gpu/env.sh
autoreconf -fi >/dev/null 2>&1
cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
make -j16 >make.out 2>&1 || { tail make.out; exit 1; }
for r in 1 2 3; do
  make -j16 check >check$r.out 2>&1; echo "round $r: make check exit $?"
  grep -E "^(FAIL|ERROR)" check$r.out
  for f in $(grep -E "^(FAIL|ERROR)" check$r.out | awk '{print $2}'); do cp "$f.log" "$o/r$r-$(basename $f).log"; done
done
for f in "$o"/*.log; do [ -f "$f" ] && { echo "== $f"; grep -v "^  " "$f" | tail -40; }; done
