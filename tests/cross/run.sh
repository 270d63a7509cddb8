#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/cross/run.sh TEST [ARGS...] - LOG_COMPILER of `make check` in a cross build
# (tests/cross/check.sh): runs one test of the foreign machine on this host.
#   an ELF test program   runs under the emulator (GDR_CROSS_QEMU)
#   a script              runs as it is, with GDR_CROSS_SHIM preloaded: each program of
#                         the foreign machine it starts (./gdr_doctor, tests/cuda/t_*...)
#                         runs under the emulator too (tests/cross/execshim.c)
# Environment (check.sh sets it): GDR_CROSS_QEMU, the emulator's absolute path;
# GDR_CROSS_EM, the ELF machine number (183: aarch64); GDR_CROSS_SHIM, execshim.so.
set -u
: "${GDR_CROSS_QEMU:?set GDR_CROSS_QEMU (tests/cross/check.sh sets it)}"
: "${GDR_CROSS_EM:?set GDR_CROSS_EM}" "${GDR_CROSS_SHIM:?set GDR_CROSS_SHIM}"
export GDR_CROSS_QEMU GDR_CROSS_EM
magic=$(head -c 4 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n')
if [[ $magic == 7f454c46 ]]; then
	exec "$GDR_CROSS_QEMU" "$@"
fi
LD_PRELOAD=$GDR_CROSS_SHIM${LD_PRELOAD:+:$LD_PRELOAD} exec "$@"
