#!/bin/bash
# SPDX-License-Identifier: MIT
# Run on the GPU machine from the repository root (the librdmacm-dev .deb in .carry/,
# $OUT a folder): can the gdrcopy copier run there? Says whether libgdrapi.so.2 and
# /dev/gdrdrv are present, then runs tests/cuda/t_copier_gdrcopy with the real CUDA driver
# and whatever libgdrapi.so.2 the host has (the copier's one reason line when it cannot
# open: today "libgdrapi.so.2 not found" is expected there), and once more on both
# doubles. Nothing is simulated: without gdrdrv no gdrcopy figure exists.
# Writes $OUT/gdrcopy-probe.txt (machine, date, commit, command at the top).
set -u
src=$PWD b=/tmp/b-gdrcopy o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
R=$o/gdrcopy-probe.txt
{
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
	echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
	echo "# command: scripts/h100/gdrcopy.sh (configure --enable-werror; make check programs;"
	echo "#          tests/cuda/t_copier_gdrcopy on the real driver and libgdrapi, then both doubles)"
} >"$R"
. scripts/h100/env.sh
{
	echo "libgdrapi.so.2: $(ldconfig -p | awk '/libgdrapi.so.2 /{print $NF; f=1; exit} END{if(!f)print "absent"}')"
	echo "/dev/gdrdrv: $(ls -l /dev/gdrdrv 2>&1)"
	echo "gdrdrv module: $(grep -w gdrdrv /proc/modules 2>/dev/null || echo 'not loaded')"
	autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
	cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h 2>&1 | tail -1
	make -j16 >make.out 2>&1 &&
		make -j16 tests/cuda/t_copier_gdrcopy tests/cuda_double/libcuda.so.1 \
			tests/gdrcopy_double/libgdrapi.so.2 >>make.out 2>&1
	echo "make: exit $?"
	grep -E 'error|warning' make.out | head -20
	echo
	echo "== t_copier_gdrcopy, real driver, the host's libgdrapi.so.2 (77 = cannot run here, reason above it)"
	env -u GDR_LIBCUDA -u GDR_LIBGDRAPI tests/cuda/t_copier_gdrcopy 2>&1
	echo "exit $?"
	echo "== t_copier_gdrcopy, CUDA driver double and gdrcopy double"
	srcdir=$src sh "$src/tests/cuda/t_copier_gdrcopy_double.sh" 2>&1
	echo "exit $?"
} >>"$R" 2>&1
cat "$R"
