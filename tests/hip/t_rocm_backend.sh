#!/bin/sh
# The ROCm memory backend (src/memory/mem_rocm.c) over the HIP double: GPU choice by index
# and bus id, copies and staging streams, and the one-line refusals of a bad choice.
src=${srcdir:-.}
t=./tests/hip/t_rocm_backend
export GDR_LIBHIP=$PWD/tests/hip_double/libamdhip64.so.6 GDR_LIBHSA=$PWD/tests/hip_double/libamdhip64.so.6 \
	GDR_HIP_DOUBLE_DEVICES=8 \
	GDR_HIP_DOUBLE_FIXTURE=$src/tests/hip_double/mi300x-swapped.fixture GDR_HIP_DOUBLE_DELAY_US=2000
unset GDR_HIP_DOUBLE_FAIL
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
out=$($t 2>&1) || fail "the round trip: $out"
echo "$out"
echo "$out" | grep -q '^GPU 1 gdrperf HIP double (test tool, not a GPU) (0000:af:00.0)$' || fail "GPU 1 of the fixture"
echo "$out" | grep -q '^round trip ok (a stream was seen busy: yes)$' || fail "no copy ran asynchronously"
# The export the transport registers (mem.h): the HSA dma-buf (auto), the address alone
# (amdgpu_peermem asked), the dma-buf alone (--use_rocm_dmabuf); the older double has no
# HSA export: the dma-buf export says why, for the transport's one line
echo "$out" | grep -q '^export: dma-buf fd [0-9]* at offset [0-9]*$' || fail "no dma-buf exported"
out=$($t export peermem 2>&1) && echo "$out" | grep -q '^export peermem: flags 0x2 fd no$' ||
	fail "export, amdgpu_peermem asked: $out"
out=$($t export dmabuf 2>&1) && echo "$out" | grep -q '^export dmabuf: flags 0x1 fd yes$' ||
	fail "export, dma-buf asked: $out"
out=$(GDR_LIBHSA=$PWD/tests/hip_double/libamdhip64.so.5 $t export dmabuf 2>&1) &&
	echo "$out" | grep -q '^export dmabuf: flags 0x1 fd no: .*lacks hsa_amd_portable_export_dmabuf' ||
	fail "export, dma-buf asked, no HSA export: $out"
out=$($t bus 0000:5C:00.0 2>&1) && echo "$out" | grep -q '^GPU 7 .*(0000:5c:00.0)$' || fail "by bus id: $out"
# Refusals: one line each, exit 1.
one() { # WANT COMMAND...
	want=$1
	shift
	err=$("$@" 2>&1 >/dev/null)
	[ $? = 1 ] && [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] && printf '%s\n' "$err" | grep -q -- "$want" ||
		fail "$*: '$err'"
}
one '^t_rocm_backend: error: --use_rocm=8: ROCm sees 8 AMD GPU(s), 0..7$' $t index 8
one '^t_rocm_backend: error: --use_rocm=0000:01:00.0: no AMD GPU at that PCI address (8 visible to ROCm)$' $t bus 0000:01:00.0
GDR_HIP_DOUBLE_FAIL=nodevice one '^t_rocm_backend: error: --use_rocm: .*hipGetDeviceCount: hipErrorNoDevice (100' $t index 0
GDR_HIP_DOUBLE_FAIL=alloc:0 one '^t_rocm_backend: error: hipMalloc of 4194304 bytes on GPU 1 .*hipErrorOutOfMemory' $t
# --use_rocm=auto: the rule of --use_cuda=auto over HIP's order (the doctor's MI300X node,
# each NIC below its GPU's switch): the NIC's GPU by HIP index, not PCI order
fx=tests/hip/fix-rocm.$$
trap 'rm -rf "$fx"' EXIT
sh "$src/tests/doctor/mkfix.sh" "$fx" mi300x || fail "mi300x fixture"
out=$(GDR_SYSFS_ROOT=$fx/sys $t auto mlx5_0 mlx5_5 mlx5_7 2>&1) || fail "auto: $out"
for want in 'mlx5_0 -> GPU 4 .*(0000:0c:00.0) near mlx5_0' 'mlx5_5 -> GPU 1 .*(0000:af:00.0) near mlx5_5' \
	'mlx5_7 -> GPU 3 .*(0000:df:00.0) near mlx5_7' \
	'--use_rocm=auto: GPU 4 (0000:0c:00.0) for mlx5_0 (nearest NIC: '; do
	echo "$out" | grep -q -- "$want" || fail "auto: no '$want' in: $out"
done
# MI300X partitions (QPX): HIP's bus id of partition 3 ends in .3, which sysfs does not have;
# the GPU is function 0 of that device: NUMA node and PCIe position found there, and HIP's
# own string still chooses the partition (--use_rocm=BUS goes to HIP as given).
export GDR_HIP_DOUBLE_FIXTURE=$src/tests/hip_double/mi300x-qpx.fixture
out=$(GDR_SYSFS_ROOT=$fx/sys $t place 3 mlx5_0 2>&1)
echo "$out" | grep -q '^GPU 3 .*(0000:0c:00.0, partition 0000:0c:00.3): NUMA node 0, nearest NIC: same PCIe switch$' ||
	fail "partition 3: $out"
out=$(GDR_SYSFS_ROOT=$fx/sys $t place 6 mlx5_0 2>&1)
echo "$out" | grep -q '^GPU 6 .*(0000:af:00.0, partition 0000:af:00.2): NUMA node 1, nearest NIC: same PCIe root complex$' ||
	echo "$out" | grep -q '^GPU 6 .*(0000:af:00.0, partition 0000:af:00.2): NUMA node 1, ' ||
	fail "partition 6: $out"
out=$(GDR_SYSFS_ROOT=$fx/sys $t place 4 mlx5_0 2>&1)
echo "$out" | grep -q '^GPU 4 .*(0000:af:00.0): NUMA node 1, ' || fail "partition 0 of af: $out"
out=$(GDR_SYSFS_ROOT=$fx/sys $t bus 0000:0c:00.3 2>&1) &&
	echo "$out" | grep -q '^GPU 3 .*(0000:0c:00.0, partition 0000:0c:00.3)$' || fail "partition by bus id: $out"
[ $fails = 0 ] || exit 1
echo "t_rocm_backend.sh: passed"
