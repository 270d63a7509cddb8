#!/bin/bash
# SPDX-License-Identifier: MIT
# The persistent kernels' host side (src/gpukern, issue 45 item 6) on the real driver: both
# kernels that use it, the gpu-proxy path (src/gproxy) and the sm copier (staging/copier_sm.c),
# loaded, launched, run and stopped through it. Built with --enable-werror and CUDA, then:
#  - make check of the tests that cover gpukern, gproxy, the sm copier and gdr_proxy_bw: the
#    real driver runs t_gproxy and t_copier_sm here (they skip without one), nvcc regenerates
#    and compares the committed PTX (t_gp_ptx.sh, t_sm_ptx.sh), the *_double.sh tests run
#    against the CUDA double as in CI;
#  - the modes of t_gproxy and t_copier_sm that make check does not run with the real driver
#    (ping, stall, hang, order; runs, GDR_SM_BLOCKS=1 and 8);
#  - each kernel loaded from a pipe (GDR_GP_PTX, GDR_SM_PTX =/dev/stdin): one loader;
#  - gdr_proxy_bw's rows and --ping (the null NIC gp_null.c).
# Every step prints "exit N"; the last line counts the steps that failed. About 3 minutes.
# Run from the repository root on the GPU machine; writes $OUT/gpukern-check.txt.
set -u
src=$PWD b=/tmp/b-gpukern o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
R=$o/gpukern-check.txt
bad=0
{ echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
  echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
  echo "# command: scripts/gpu/gpukern-check.sh"; } >"$R"
[ -f scripts/gpu/env.sh ] && . scripts/gpu/env.sh
{ autoreconf -fi >/dev/null 2>&1 || autoreconf -fi
  cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
  make -j16 >make.out 2>&1
  echo "build: exit $?"; grep -E 'error|warning' make.out | head -20; } >>"$R" 2>&1
cd "$b" || exit 1
export PATH=$PATH:/usr/local/cuda/bin

# step LABEL CMD...: CMD, its output and its exit status; a non-zero status counts as failed
step()
{
	echo "== $1"
	"${@:2}" 2>&1
	local rc=$?
	echo "exit $rc"
	[ $rc -eq 0 ] || bad=$((bad + 1))
}
{
	step "make check (gpukern, gproxy, sm copier, gdr_proxy_bw)" make -j16 check \
		TESTS='tests/cuda/t_gpukern_ptx tests/cuda/t_gproxy tests/cuda/t_gproxy_double.sh tests/cuda/t_copier_sm tests/cuda/t_copier_sm_double.sh tests/cuda/t_timeslice_double.sh tests/cuda/t_gp_ptx.sh tests/cuda/t_sm_ptx.sh tests/cuda/t_stage_cli.sh'
	grep -hE '^(PASS|FAIL|SKIP|ERROR):' tests/cuda/*.log
	for t in t_gproxy t_copier_sm t_gp_ptx.sh t_sm_ptx.sh; do
		echo "-- tests/cuda/$t.log"; cat "tests/cuda/$t.log"
	done
	for m in ping stall hang order; do
		step "t_gproxy $m (real driver)" timeout 60 tests/cuda/t_gproxy $m
	done
	for k in 1 8; do
		step "t_copier_sm GDR_SM_BLOCKS=$k (real driver)" env GDR_SM_BLOCKS=$k timeout 120 tests/cuda/t_copier_sm
	done
	step "t_copier_sm runs (real driver)" timeout 60 tests/cuda/t_copier_sm runs
	step "t_gproxy order, the kernel from a pipe (GDR_GP_PTX=/dev/stdin)" \
		sh -c "cat '$src/src/gproxy/gp_kernel.ptx' | GDR_GP_PTX=/dev/stdin timeout 60 tests/cuda/t_gproxy order"
	step "t_copier_sm runs, the kernel from a pipe (GDR_SM_PTX=/dev/stdin)" \
		sh -c "cat '$src/src/staging/sm_copy.ptx' | GDR_SM_PTX=/dev/stdin timeout 60 tests/cuda/t_copier_sm runs"
	step "gdr_proxy_bw -n 20000" timeout 120 ./gdr_proxy_bw -n 20000
	step "gdr_proxy_bw --ping -n 20000" timeout 120 ./gdr_proxy_bw -q --ping --no_rate -n 20000
	echo "gpukern-check: $bad step(s) failed"
} >>"$R" 2>&1
cat "$R"
[ $bad -eq 0 ]
