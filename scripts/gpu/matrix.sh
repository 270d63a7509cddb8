#!/bin/bash
# SPDX-License-Identifier: MIT
# The GPU x NIC matrix (issue 36, docs/matrix.md) on a multi-GPU host: gdr_write_bw
# --matrix=all with --matrix_shared, text and CSV/JSON, and gdr_read_bw --matrix=all. On a
# host without an RDMA device (the lent GPU machines) the mode says that the NIC columns did
# not run and measures the copy leg of the staged path alone, each GPU and then every GPU at
# once (gdr_stage_bw --time=--matrix_time, 1 MiB and 64 MiB: each measurement 2 s whatever
# the copy's rate). gdr_doctor beside nvidia-smi topo -m.
# Run from the repository root on the GPU machine (4 GPUs intended; any count works); the
# librdmacm-dev .deb in .carry/ where the machine lacks its headers (scripts/gpu/env.sh).
# Writes $OUT/matrix-build.txt, matrix-host.txt, matrix-run.txt (each with a machine/date/
# command header), and where a NIC port ran matrix-write.csv/.json, matrix-pairing.txt and
# matrix-about.txt (their header). A few minutes.
set -u
src=$PWD b=/tmp/b-matrix o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
nics() { local l; l=$(ls /sys/class/infiniband 2>/dev/null | tr '\n' ' '); echo "${l:-none}"; }
. scripts/gpu/hdr.sh
hdr() { gpu_hdr "$1" "$2" "RDMA devices: $(nics)"; }
. scripts/gpu/env.sh
B=$o/matrix-build.txt
hdr "$B" "autoreconf -fi; configure --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h; make gdr_write_bw gdr_read_bw gdr_stage_bw gdr_doctor"
{ autoreconf -fi >/dev/null 2>&1
  cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
  echo "configure: exit $?"
  make -j"$(nproc)" gdr_write_bw gdr_read_bw gdr_stage_bw gdr_doctor >make.out 2>&1; echo "make: exit $?"
  grep -E 'error|warning' make.out | head -20; } >>"$B" 2>&1
cd "$b" || { cat "$B"; exit 1; }

H=$o/matrix-host.txt
hdr "$H" "nvidia-smi -L; nvidia-smi topo -m; ls -l /sys/class/infiniband; gdr_doctor"
{ nvidia-smi -L; echo; nvidia-smi topo -m; echo; ls -l /sys/class/infiniband 2>&1; echo
  echo "\$ gdr_doctor"; timeout 60 ./gdr_doctor; echo "exit $?"; } >>"$H" 2>&1

# every matrix command into one file, each with its command line and exit status
R=$o/matrix-run.txt
hdr "$R" "the commands below, one after another"
run() {
	local t=$1
	shift
	{ echo; echo "\$ $*"; timeout "$t" "./$@"; echo "exit $?"; } >>"$R" 2>&1
}
if [[ $(nics) == none ]]; then # no cell to write: --csv/--json are refused there (exit 3)
	run 900 gdr_write_bw --matrix=all --matrix_shared
else
	run 900 gdr_write_bw --matrix=all --matrix_shared --pairing="$o/matrix-pairing.txt" \
		--csv="$o/matrix-write.csv" --json="$o/matrix-write.json"
fi
run 900 gdr_write_bw --matrix=all -s 64M
run 900 gdr_read_bw --matrix=all
# the CSV and JSON (written only where a NIC port ran) say where they come from beside them
hdr "$o/matrix-about.txt" "gdr_write_bw --matrix=all --matrix_shared --pairing=matrix-pairing.txt --csv=matrix-write.csv --json=matrix-write.json"
cat "$B" "$H" "$R"
