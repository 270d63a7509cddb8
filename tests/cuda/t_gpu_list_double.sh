#!/bin/sh
# SPDX-License-Identifier: MIT
# The launchers' fork rule (tests/cuda/t_gpu_list.c) over the CUDA driver double, whose two
# GPUs are listed out of PCI order; then without a driver.
. "${srcdir:-.}/tests/cuda/double-env.sh"
fix=tests/cuda/t_gpu_list.$$.fixture
trap 'rm -f "$fix"' EXIT
printf '0000:c1:00.0 1\n0000:41:00.0 0\n' >"$fix" || exit 99
GDR_DOUBLE_FIXTURE=$fix GDR_DOUBLE_DEVICES=2 tests/cuda/t_gpu_list || exit 1
# not exec: the EXIT trap removes the fixture (distcheck finds what a test leaves)
GDR_LIBCUDA=/nonexistent/libcuda.so.1 tests/cuda/t_gpu_list nodriver
