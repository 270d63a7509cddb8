#!/bin/bash
# SPDX-License-Identifier: MIT
# The staged path of KV-cache-shaped rows on a real GPU (issue 46 item 2, docs/kv.md): the
# copy engine's block lists (tests/cuda/t_copier_list: a batch gathered and scattered at
# its offsets, checked byte for byte, with the real driver), then gdr_write_bw and
# gdr_read_bw --staged over the loop transport (no NIC needed: the GPU's copies are real,
# the wire is a host copy), 64 KiB blocks, batches of 1 and 32, seq and random placement,
# --validate; then the staged sm copier refused in one line. Run from the repository root
# on the GPU machine (librdmacm-dev .deb in .carry/, as the other scripts); writes
# $OUT/kv-staged.txt and one CSV per run. About 1-2 minutes.
set -u
src=$PWD b=/tmp/b-kv-staged o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
R=$o/kv-staged.txt
. scripts/gpu/env.sh
# $1 label (CSV name), $2 program, rest: client options; server and client on this host
run() {
	local l=$1 p=./gdr_$2 port=$((18515 + RANDOM % 1000))
	shift 2
	echo
	echo "== $p --transport=loop --use_cuda=0 $* --csv=$l.csv"
	timeout 300 "$p" --transport=loop --use_cuda=0 -p $port --listen_timeout=60 >"$o/$l.server" 2>&1 &
	local s=$!
	timeout 300 "$p" --transport=loop --use_cuda=0 "$@" -p $port --connect_timeout=30 \
		--csv="$o/$l.csv" 127.0.0.1
	echo "# client exit status: $?"
	wait $s
	echo "# server exit status: $? (its output: $l.server)"
}
{
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
	echo "# date: $(date -u '+%Y-%m-%d %H:%M UTC'); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
	echo "# command: scripts/gpu/kv-staged.sh"
	autoreconf -fi >/dev/null 2>&1
	(cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1 &&
		make -j"$(nproc)" gdr_write_bw gdr_read_bw tests/cuda/t_copier_list >make.out 2>&1) ||
		{ echo "build failed"; tail -20 "$b/make.out"; }
	cd "$b" || exit 1
	echo "== tests/cuda/t_copier_list (the real driver; a skip means no driver was found)"
	tests/cuda/t_copier_list
	echo "# exit status: $?"
	for prog in write_bw read_bw; do
		run $prog-seq $prog --staged --block=64K --batch=1,32 -n 2000 --validate
		run $prog-random $prog --staged --block=64K --batch=32 --place=random:7 -n 2000 --validate
	done
	run write_bw-cmp write_bw --compare --block=16K,64K --batch=32 --place=random -n 2000 --validate
	echo
	echo "== --stage_copy=sm --staged --block (one line, exit 3 expected)"
	./gdr_write_bw --staged --block=64K --stage_copy=sm 127.0.0.1
	echo "# exit status: $?"
} >"$R" 2>&1
cat "$R"
