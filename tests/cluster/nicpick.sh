#!/bin/sh
# SPDX-License-Identifier: MIT
# Unit test of src/cluster/nicpick.c (a rank's NIC when none is named): the eight-GPU
# fixture of tests/doctor/mkfix.sh (hgx8) and the same node without RDMA devices, the GPUs
# of tests/cuda_double/eight-gpus.fixture (with the CUDA driver double, and with the HIP
# double for ROCm: local rank r's GPU and its NIC).
set -e
src=${srcdir:-.}
dir=tests/cluster/fix-nicpick.$$
trap 'rm -rf "$dir"' EXIT
sh "$src/tests/doctor/mkfix.sh" "$dir/hgx8" hgx8
sh "$src/tests/doctor/mkfix.sh" "$dir/nonic" hgx8_nonic
sh "$src/tests/doctor/mkfix.sh" "$dir/gb200" gb200
sh "$src/tests/doctor/mkfix.sh" "$dir/pix2" pix2
./tests/cluster/t_nicpick "$dir/hgx8" "$dir/nonic" "$src/tests/cuda_double/eight-gpus.fixture" \
	"$dir/gb200" "$dir/pix2"
# and a local rank's GPU to its NIC through the CUDA driver double (a CUDA build)
if grep -q '^#define HAVE_CUDA 1' config.h 2>/dev/null; then
	sh "$src/tests/doctor/mkfix.sh" "$dir/hgx8" hgx8 # afresh: the run above removed NICs
	sh "$src/tests/doctor/mkfix.sh" "$dir/gb200" gb200 # afresh: the run above renamed NICs
	# shellcheck source=tests/cuda/double-env.sh
	. "$src/tests/cuda/double-env.sh"
	GDR_DOUBLE_DEVICES=8 GDR_DOUBLE_FIXTURE=$src/tests/cuda_double/eight-gpus.fixture \
		./tests/cluster/t_nicpick "$dir/hgx8" "$dir/nonic" "$src/tests/cuda_double/eight-gpus.fixture" \
		"$dir/gb200" "$dir/pix2"
fi
# the same through the HIP double (--use_rocm; any build: ROCm is loaded at run time)
sh "$src/tests/doctor/mkfix.sh" "$dir/hgx8" hgx8
sh "$src/tests/doctor/mkfix.sh" "$dir/gb200" gb200
GDR_LIBHIP=$PWD/tests/hip_double/libamdhip64.so.6 GDR_HIP_DOUBLE_DEVICES=8 \
	GDR_HIP_DOUBLE_FIXTURE=$src/tests/cuda_double/eight-gpus.fixture \
	./tests/cluster/t_nicpick "$dir/hgx8" "$dir/nonic" "$src/tests/cuda_double/eight-gpus.fixture" \
	"$dir/gb200" "$dir/pix2"
