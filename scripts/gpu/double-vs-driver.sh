#!/bin/bash
# Run on the H100 machine from the repository root (the librdmacm-dev .deb in .carry/,
# $OUT a folder): build with CUDA, then run the GPU unit tests twice, once against the
# real driver and once against the CUDA driver double (tests/cuda_double), and put the
# two outputs side by side, so the double is held to the driver's real behaviour
# (bus ids, attributes, allocation alignment, dma-buf export rules, asynchrony, events).
# Writes $OUT/h100-double-vs-driver.txt (machine, date, commit, command at the top).
set -u
src=$PWD b=/tmp/b-dvd o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
R=$o/h100-double-vs-driver.txt
{
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
	echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
	echo "# command: scripts/gpu/double-vs-driver.sh (configure --enable-werror; make check;"
	echo "#          tests/cuda/t_cuda_driver and t_cuda_backend with the real driver, then the double)"
} >"$R"
. scripts/gpu/env.sh
{
	autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
	cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h 2>&1 | tail -3
	make -j16 >make.out 2>&1
	echo "make: exit $?"
	grep -E 'error|warning' make.out | head -20
	make -j16 check >check.out 2>&1
	echo "make check: exit $?"
	grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS)|^# ' check.out
	for t in t_cuda_driver t_cuda_backend; do
		echo
		echo "== $t, real driver ($(ldconfig -p | awk '/libcuda.so.1 /{print $NF; exit}'))"
		env -u GDR_LIBCUDA tests/cuda/$t 2>&1
		echo "exit $?"
		echo "== $t, CUDA driver double (tests/cuda_double/libcuda.so.1)"
		srcdir=$src sh "$src/tests/cuda/${t}_double.sh" 2>&1
		echo "exit $?"
	done
	for f in tests/cuda/*double*.log; do
		echo "== $f"
		cat "$f"
	done
} >>"$R" 2>&1
cat "$R"
