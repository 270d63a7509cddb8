#!/bin/bash
# SPDX-License-Identifier: MIT
# gdr_stage_bw --copier on a real GPU (issue 28): the copy leg of the copy engine (ce) and of
# the kernel copier (sm) alone, per size, through the code --staged runs. One stream: a copy
# is queued only when the previous one of its direction completed, so usec/copy is each
# copier's time per copy (8 B..64 KiB, x2), then bandwidth at 64 KiB..256 MiB (x4) with 4
# streams; GDR_SM_BLOCKS 4 (default) and 8 for the large sizes; then --copier=gdrcopy, which
# on a host without gdrdrv must be refused in one line. Run from the repository root on the
# GPU machine (librdmacm-dev .deb in .carry/, as the other scripts); writes
# $OUT/stage-copier.txt and one CSV per table. About 2-3 minutes.
set -u
src=$PWD b=/tmp/b-stage-copier o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
R=$o/stage-copier.txt
. scripts/gpu/env.sh
# $1 label (CSV name), rest: gdr_stage_bw arguments
run() {
	local l=$1
	shift
	echo
	echo "== gdr_stage_bw $* --csv=$l.csv"
	timeout 240 ./gdr_stage_bw "$@" --csv="$o/$l.csv"
	echo "# exit status: $?"
}
{
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
	echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
	echo "# command: scripts/gpu/stage-copier.sh (gdr_stage_bw --copier=ce|sm|gdrcopy, lines below)"
	autoreconf -fi >/dev/null 2>&1
	(cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1 &&
		make -j"$(nproc)" gdr_stage_bw >make.out 2>&1) || { echo "build failed"; tail -20 "$b/make.out"; }
	cd "$b" || exit 1
	run lat-ce --copier=ce --sizes=8:64K:2 --dir=all -n 5000 --reps=3
	run lat-sm --copier=sm --sizes=8:64K:2 --dir=all -n 5000 --reps=3
	run bw-ce --copier=ce --sizes=64K:256M:4 --dir=all --streams=4 --reps=3
	run bw-sm --copier=sm --sizes=64K:256M:4 --dir=all --streams=4 --reps=3
	GDR_SM_BLOCKS=8 run bw-sm8 --copier=sm --sizes=64K:256M:4 --dir=all --streams=4 --reps=3
	echo
	echo "== gdr_stage_bw --copier=gdrcopy -s 4K (no gdrdrv here: one line, exit 1 expected)"
	ls -l /dev/gdrdrv 2>&1
	timeout 60 ./gdr_stage_bw --copier=gdrcopy -s 4K -n 100 --reps=1
	echo "# exit status: $?"
} >"$R" 2>&1
cat "$R"
