#!/bin/sh
# SPDX-License-Identifier: MIT
# Unit test of src/cluster/nicpick.c (a rank's NIC when none is named): the eight-GPU
# fixture of tests/doctor/mkfix.sh (hgx8) and the same node without RDMA devices, the GPUs
# of tests/cuda_double/eight-gpus.fixture.
set -e
src=${srcdir:-.}
dir=tests/cluster/fix-nicpick.$$
trap 'rm -rf "$dir"' EXIT
sh "$src/tests/doctor/mkfix.sh" "$dir/hgx8" hgx8
sh "$src/tests/doctor/mkfix.sh" "$dir/nonic" hgx8_nonic
./tests/cluster/t_nicpick "$dir/hgx8" "$dir/nonic" "$src/tests/cuda_double/eight-gpus.fixture"
