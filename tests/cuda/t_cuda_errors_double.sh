#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_cuda_errors against the CUDA driver double, every copy failing (issue 32.15).
. "${srcdir:-.}/tests/cuda/double-env.sh"
GDR_DOUBLE_FAIL=copies:0 exec tests/cuda/t_cuda_errors
