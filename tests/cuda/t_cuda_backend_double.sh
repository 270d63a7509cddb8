#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_cuda_backend against the CUDA driver double (the real driver runs it as well),
# then on a platform without the PCIe (BAR1) mapping of a dma-buf: the exports that need it
# (--use_cuda_pcie_mapping, --use_data_direct) have none and say why in full, for the
# transport's one line.
. "${srcdir:-.}/tests/cuda/double-env.sh"
tests/cuda/t_cuda_backend || exit 1
out=$(GDR_DOUBLE_PCIE_MAPPING=0 tests/cuda/t_cuda_backend 2>&1) || { echo "$out"; exit 1; }
echo "$out" | grep -E '^  export \(reg 0, (pcie|data direct)\)'
for opt in 'pcie\): flags 0x5, no dma-buf --use_cuda_pcie_mapping' \
	'data direct\): flags 0xd, no dma-buf --use_data_direct \(exports with the PCIe mapping, as perftest does\)'; do
	echo "$out" | grep -qE "^  export \\(reg 0, $opt: the driver refused the PCIe \\(BAR1\\) mapping .*: it needs a driver and platform that offer it$" ||
		{ echo "FAIL: no PCIe mapping: the export's reason (reg 0, $opt ...) is not there in full"; exit 1; }
done
