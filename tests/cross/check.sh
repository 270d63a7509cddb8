#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/cross/check.sh BUILD [JOBS] - the aarch64 cross build and its unit tests under
# qemu-user (scripts/ci/test.sh step arm64; packages: scripts/ci/deps.sh arm64).
#   1. configure in BUILD: --host=aarch64-linux-gnu --enable-werror --with-cuda (cuda.h of
#      CUDA_H_PATH, default /usr/local/cuda/include/cuda.h: a header, the same for every
#      architecture), --without-mpi (no arm64 MPI is installed), with the arm64 .pc files
#   2. make: every program must be an aarch64 ELF file
#   3. make check, each test through tests/cross/run.sh: test programs under
#      qemu-aarch64-static, test scripts natively with tests/cross/execshim.c preloaded so
#      the programs they start run under qemu too (no binfmt_misc registration needed)
#   4. every SKIP must be one of the expected ones below, printed with its reason
# Exit status 0 when all of it passed.
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
b=${1:?usage: check.sh BUILD [JOBS]}
jobs=${2:-$(nproc 2>/dev/null || echo 2)}
triplet=aarch64-linux-gnu
qemu=$(command -v qemu-aarch64-static) || {
	echo "cross: qemu-aarch64-static not found (scripts/ci/deps.sh arm64)"
	exit 1
}
command -v $triplet-gcc >/dev/null || {
	echo "cross: $triplet-gcc not found (scripts/ci/deps.sh arm64)"
	exit 1
}
# The programs' dynamic loader comes from libc6:arm64 (/lib/ld-linux-aarch64.so.1, pulled in
# by the :arm64 development packages), with the libc it was built with. No -L
# /usr/aarch64-linux-gnu: that would pair the cross toolchain's ld.so with the multiarch
# libc, two builds of glibc, and pthread_create then loops forever in its stack cache.
[[ -e /lib/ld-linux-aarch64.so.1 ]] || {
	echo "cross: /lib/ld-linux-aarch64.so.1 missing: install libc6:arm64 (scripts/ci/deps.sh arm64)"
	exit 1
}

# Tests that may skip here, and why; any other SKIP fails the step.
declare -A may_skip=(
	[tests/cuda/t_cuda_backend]="no CUDA driver on this host; t_cuda_backend_double.sh runs it against the CUDA double"
	[tests/cuda/t_cuda_driver]="no CUDA driver on this host; t_cuda_driver_double.sh runs it against the CUDA double"
	[tests/cuda/t_copier_sm]="no CUDA driver on this host; t_copier_sm_double.sh runs it against the CUDA double (its kernel protocol)"
	[tests/cuda/t_sm_list_proto]="no CUDA driver on this host; t_sm_list_proto_double.sh runs it against the CUDA double (the block-list descriptor)"
	[tests/cuda/t_sm_ptx]="no nvcc on this host; scripts/gpu/sm-ptx.sh --check compares the committed PTX where nvcc is"
	[tests/cuda/t_gp_ptx]="no nvcc on this host; scripts/gpu/sm-ptx.sh --check gp compares the committed PTX where nvcc is"
	[tests/cuda/t_gproxy]="no CUDA driver on this host; t_gproxy_double.sh runs it against the CUDA double (its kernel protocol)"
	[tests/cuda/t_matrix_copyleg_double.sh]="--matrix execs gdr_stage_bw, which an emulated aarch64 program cannot start without binfmt_misc; the x86-64 build runs the test"
	[tests/cluster/host-mpi.sh]="the aarch64 build has no MPI (configured --without-mpi)"
	[tests/hip/real_lib.sh]="no aarch64 HIP runtime (Debian's libamdhip64 is amd64 only); the x86-64 build runs it against the real library"
	[tests/xport/t_xport.sh]="qemu-user has no process_vm_readv/writev (the loop transport says so at open) and no aarch64 libfabric1 is installed (ofi); the x86-64 build runs every row"
	[tests/cuda/t_kv_staged_double.sh]="qemu-user has no process_vm_readv/writev (the loop transport says so at open); the x86-64 build runs it"
	[tests/cuda/t_kv_staged_batch_double.sh]="qemu-user has no process_vm_readv/writev (the loop transport says so at open); the x86-64 build runs it"
	[tests/xport/t_kv_regions.sh]="qemu-user has no process_vm_readv/writev (the loop transport says so at open); the x86-64 build runs it"
	[tests/xport/t_kv_sge.sh]="qemu-user has no process_vm_readv/writev (the loop transport says so at open); the x86-64 build runs it"
	[tests/xport/t_loop_notice]="qemu-user has no process_vm_readv/writev (the loop transport says so at open); the x86-64 build runs it"
	[tests/xport/t_loop_limits]="qemu-user has no process_vm_readv/writev (the loop transport says so at open); the x86-64 build runs it"
	[tests/xport/t_ofi]="no aarch64 libfabric1 is installed here; the x86-64 build runs it over tcp;ofi_rxm and shm"
	[tests/xport/t_progs.sh]="qemu-user has no process_vm_readv/writev (loop) and no aarch64 libfabric1 is installed (ofi): every row skips; the x86-64 build runs every row"
	[tests/conformance/t_conformance_timeslice_double.sh]="it times hand-offs and skips when the host is too busy to time them (under qemu-user on a loaded 2-core host it can be); the x86-64 build runs it"
)

mkdir -p "$b" && cd "$b" || exit 1
b=$(pwd)
echo "cross: configure in $b"
PKG_CONFIG_LIBDIR=/usr/lib/$triplet/pkgconfig:/usr/share/pkgconfig \
	"$src/configure" --host=$triplet --enable-werror --with-cuda --without-mpi || exit 1
grep -q '^#define HAVE_CUDA 1' config.h || {
	echo "cross: the build has no CUDA support"
	exit 1
}
make -j"$jobs" || exit 1
bad=0
progs=$(find . -maxdepth 1 -name 'gdr_*' -type f -perm -u+x | sort)
[[ -n $progs ]] || {
	echo "cross: no gdr_* program built"
	exit 1
}
for p in $progs; do
	m=$(LC_ALL=C readelf -h "$p" 2>/dev/null | awk -F: '/Machine:/ { gsub(/^ +/, "", $2); print $2 }')
	[[ $m == AArch64 ]] || {
		echo "cross: $p is not an aarch64 program (${m:-not ELF})"
		bad=1
	}
done
[[ $bad == 0 ]] || exit 1

echo "cross: the exec shim for test scripts (host compiler ${CC_FOR_BUILD:-gcc})"
${CC_FOR_BUILD:-gcc} -std=gnu11 -Wall -Wextra -Werror -O2 -shared -fPIC \
	-o "$b/cross-execshim.so" "$src/tests/cross/execshim.c" -ldl || exit 1

echo "cross: make check under $qemu ($($qemu --version | head -1))"
export GDR_CROSS_QEMU=$qemu GDR_CROSS_EM=183 GDR_CROSS_SHIM=$b/cross-execshim.so
make -j"$jobs" check LOG_COMPILER="$src/tests/cross/run.sh"
rc=$?
[[ $rc -ne 0 ]] && [[ -f test-suite.log ]] && cat test-suite.log

# every SKIP: expected, with its reason; and the test's own line
while read -r t; do
	[[ -n $t ]] || continue
	why=$(grep -i -m1 'skip' "$t.log" | head -c 200)
	if [[ -n ${may_skip[$t]:-} ]]; then
		echo "cross: SKIP $t: ${may_skip[$t]} (it said: $why)"
	else
		echo "cross: unexpected SKIP $t (it said: $why)"
		rc=1
	fi
done < <(find . -name '*.trs' -exec grep -l '^:test-result: SKIP' {} + | sed 's|^\./||; s|\.trs$||')
exit $rc
