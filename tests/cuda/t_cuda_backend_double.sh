#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_cuda_backend against the CUDA driver double (the real driver runs it as well).
. "${srcdir:-.}/tests/cuda/double-env.sh"
exec tests/cuda/t_cuda_backend
