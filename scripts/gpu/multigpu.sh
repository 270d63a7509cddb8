#!/bin/bash
# SPDX-License-Identifier: MIT
# Every GPU of the node at once (issue 18): gdr_stage_bw --use_cuda=all (H2D, D2H and both,
# 4 MiB..256 MiB, per-GPU rows and the aggregate, CSV and JSON), GPU 0 alone at the same
# sizes for comparison, and gdr_doctor (text and JSON) beside nvidia-smi topo -m.
# Run from the repository root on a GPU machine (one GPU works too: one row plus the
# aggregate); the librdmacm-dev .deb in .carry/ where the machine lacks its headers, as
# scripts/gpu/final-run.sh. Writes $OUT/multigpu-*.{txt,csv,json}. A few minutes.
set -u
src=$PWD b=/tmp/b-multigpu o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
. scripts/gpu/hdr.sh
hdr() { gpu_hdr "$1" "$2"; }
. scripts/gpu/env.sh
B=$o/multigpu-build.txt
hdr "$B" "autoreconf -fi; configure --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h; make gdr_stage_bw gdr_doctor"
{ autoreconf -fi >/dev/null 2>&1
  cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
  echo "configure: exit $?"
  make -j"$(nproc)" gdr_stage_bw gdr_doctor >make.out 2>&1; echo "make: exit $?"
  grep -E 'error|warning' make.out | head -20; } >>"$B" 2>&1
cd "$b" || { cat "$B"; exit 1; }

N=$o/multigpu-nvsmi.txt
hdr "$N" "nvidia-smi -L; nvidia-smi topo -m"
{ nvidia-smi -L; echo; nvidia-smi topo -m; } >>"$N" 2>&1

cmd="gdr_stage_bw --use_cuda=all --sizes=4M:256M:4 --dir=all --reps=3 --csv=multigpu-stage.csv --json=multigpu-stage.json"
S=$o/multigpu-stage.txt
hdr "$S" "$cmd"
{ timeout 900 ./gdr_stage_bw --use_cuda=all --sizes=4M:256M:4 --dir=all --reps=3 \
	--csv="$o/multigpu-stage.csv" --json="$o/multigpu-stage.json"
  echo "exit $?"
  echo
  echo "# the same sizes on GPU 0 alone (the figure each GPU would reach by itself)"
  echo "\$ gdr_stage_bw --use_cuda=0 --sizes=4M:256M:4 --dir=all --reps=3"
  timeout 600 ./gdr_stage_bw --use_cuda=0 --sizes=4M:256M:4 --dir=all --reps=3
  echo "exit $?"; } >>"$S" 2>&1
# the CSV and JSON say where they come from in files beside them
for f in multigpu-stage.csv multigpu-stage.json; do
	[ -f "$o/$f" ] && { machine; echo "# command: $cmd"; } >"$o/$f.about"
done

D=$o/multigpu-doctor.txt
hdr "$D" "gdr_doctor; gdr_doctor --json >multigpu-doctor.json"
{ timeout 60 ./gdr_doctor; echo "exit $?"; } >>"$D" 2>&1
timeout 60 ./gdr_doctor --json >"$o/multigpu-doctor.json" 2>>"$D"
cat "$B" "$N" "$S" "$D"
