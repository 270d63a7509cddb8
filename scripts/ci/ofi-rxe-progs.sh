#!/bin/bash
# SPDX-License-Identifier: MIT
# ofi-rxe-progs.sh - run inside rxe-vm.sh: the six test programs (write, read, send; bw and
# lat) over --transport=ofi --provider='verbs;ofi_rxm' on Soft-RoCE (rxe0), server and
# client in the VM, each with --validate on 2 sizes: tests/xport/t_progs.sh with that one
# row and the server at 10.9.0.1. From the build folder:
#   bash ../../scripts/ci/rxe-vm.sh ../../scripts/ci/ofi-rxe-progs.sh /tmp/ofi-rxe-progs
# FI_UNIVERSE_SIZE=16: without it ofi_rxm's fi_enable fails on rxe (scripts/ci/ofi-rxe.sh).
# Exit: t_progs.sh's status (77: no verbs;ofi_rxm provider here).
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${RXE_VM_OUT:-.}
export FI_UNIVERSE_SIZE=16 T_PROGS_ADDR=10.9.0.1 T_PROGS_CUDA=0
export T_PROGS_ROWS='ofi verbs;ofi_rxm|--transport=ofi --provider=verbs;ofi_rxm'
srcdir=$here/../.. sh "$here/../../tests/xport/t_progs.sh" 2>&1 | tee "$out/t_progs-verbs.txt"
rc=${PIPESTATUS[0]}
echo "t_progs.sh verbs;ofi_rxm: exit $rc"
exit "$rc"
