#!/bin/bash
# How the results/h100-* files were made: run on the H100 machine, from the
# repository root, with the librdmacm-dev .deb in .carry/ and $OUT a folder.
# Builds out of tree, runs the CUDA tests, gdr_stage_bw sweeps, bench-stage.sh.
set -u
src=$PWD b=/tmp/b-h3 o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
hdr() { # file, command
	{ echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
	  echo "# date: $(date -u +%FT%TZ)"
	  echo "# command: $2"; } >"$1"
}
. scripts/gpu/env.sh
L=$o/h100-build.log
hdr "$L" "autoreconf -fi; configure CUDA_H_PATH=/usr/local/cuda/include/cuda.h; make -k -j16"
{ autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
  cd "$b" && "$src/configure" CUDA_H_PATH=/usr/local/cuda/include/cuda.h 2>&1 | tail -8
  make -k -j16 >make.out 2>&1; echo "full make -k: exit $?"
  grep -E 'error|Error' make.out | head -30
  make -k -j16 gdr_stage_bw tests/cuda/t_cuda_topo tests/cuda/t_cuda_backend \
	tests/cuda/t_cuda_nodriver tests/cuda/ref_memcpy 2>&1 | grep -E 'error|warning' ; echo "own targets built"
} >>"$L" 2>&1
cd "$b" || exit 1
T=$o/h100-tests.txt
hdr "$T" "tests/cuda/t_cuda_topo; t_cuda_nodriver; t_cuda_backend; t_stage_cli.sh"
for t in tests/cuda/t_cuda_topo tests/cuda/t_cuda_nodriver tests/cuda/t_cuda_backend; do
	echo "== $t"; ./$t 2>&1; echo "exit $?"
done >>"$T"
{ echo "== tests/cuda/t_stage_cli.sh"; srcdir=$src sh "$src/tests/cuda/t_stage_cli.sh" 2>&1; echo "exit $?"; } >>"$T"
run() { # name, args
	hdr "$o/$1.txt" "gdr_stage_bw ${*:2}"
	./gdr_stage_bw "${@:2}" >>"$o/$1.txt" 2>&1; echo "# exit $?" >>"$o/$1.txt"
}
run h100-stage-pinned -a --csv="$o/h100-stage-pinned.csv"
run h100-stage-pageable --pageable --sizes=64K:256M:4 --csv="$o/h100-stage-pageable.csv"
hdr "$o/h100-stage-streams.txt" "gdr_stage_bw -q --streams=N -s SIZE, N in 1 2 4, SIZE in 256K 1M 16M"
for n in 1 2 4; do for s in 256K 1M 16M; do ./gdr_stage_bw -q --streams=$n -s $s; done; done \
	>>"$o/h100-stage-streams.txt" 2>&1
hdr "$o/h100-bench-stage.txt" "scripts/bench/bench-stage.sh $b (REPS=5)"
sh "$src/scripts/bench/bench-stage.sh" "$b" >>"$o/h100-bench-stage.txt" 2>&1
echo "# exit $?" >>"$o/h100-bench-stage.txt"
cat "$o"/h100-tests.txt "$o"/h100-bench-stage.txt
grep -E "exit|own targets" "$L"
