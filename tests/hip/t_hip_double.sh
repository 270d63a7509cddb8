#!/bin/sh
# The HIP loader (src/memory/hip_api.c) over the HIP double (tests/hip_double): devices of a
# fixture topology, copies on streams, the dma-buf export present (.so.6) or absent (.so.5),
# and each fault switch's one-line refusal.
src=${srcdir:-.}
D=$PWD/tests/hip_double
load=./tests/hip/hip_load
t=./tests/hip/t_hip_double
unset GDR_LIBHSA GDR_HIP_DOUBLE_FAIL GDR_HIP_DOUBLE_DEVICES GDR_HIP_DOUBLE_FIXTURE
export GDR_LIBHIP=$D/libamdhip64.so.6 GDR_HIP_DOUBLE_DELAY_US=50
fails=0
# expect WANT-EXIT PATTERN COMMAND...: the command's output matches PATTERN (grep -E)
expect() {
	want=$1 pat=$2
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ] || ! printf '%s\n' "$out" | grep -Eq -- "$pat"; then
		echo "FAIL: $*: exit $rc (want $want), output:"
		printf '%s\n' "$out"
		fails=$((fails + 1))
	fi
}
# Eight MI300X of the fixture, in its order.
GDR_HIP_DOUBLE_DEVICES=8 GDR_HIP_DOUBLE_FIXTURE=$src/tests/hip_double/mi300x.fixture \
	expect 0 '^hip: 8 device\(s\), runtime 60443483: 0000:0c:00.0 0000:22:00.0 0000:38:00.0 0000:5c:00.0 0000:9f:00.0 0000:af:00.0 0000:bf:00.0 0000:df:00.0$' $load
expect 0 '^hip: 2 device\(s\)' $load
# No device: the same one line as the real runtime gives (tests/hip/real_lib.sh).
nodev='^hip: .*libamdhip64\.so\.6 \(HIP 6\.4\): hipGetDeviceCount: hipErrorNoDevice \(100[:)].*: no AMD GPU visible to ROCm on this host \(check /dev/kfd'
GDR_HIP_DOUBLE_FAIL=nodevice expect 1 "$nodev" $load
GDR_HIP_DOUBLE_DEVICES=0 expect 1 "$nodev" $load
GDR_LIBHIP=/nonexistent/libamdhip64.so.6 expect 1 '^hip: /nonexistent/libamdhip64\.so\.6 not found: no ROCm \(HIP runtime\) there' $load
# Copies on two streams of two GPUs, byte for byte; a failed copy and a failed allocation.
GDR_HIP_DOUBLE_DEVICES=8 expect 0 '^copy ok: 1048576 bytes through GPUs 0 and 7 on two streams$' $t copy
GDR_HIP_DOUBLE_FAIL=copy:1 expect 1 '^hipStreamSynchronize failed: hipErrorIllegalAddress \(700: .*injected' $t copy
GDR_HIP_DOUBLE_FAIL=alloc:1 expect 1 '^hipMalloc failed: hipErrorOutOfMemory \(2: ' $t copy
# The dma-buf export: present in the ROCm >= 5.6 double (.so.6), absent from the older one (.so.5), failing.
GDR_LIBHSA=$D/libamdhip64.so.6 expect 0 '^export ok: fd at offset 4096 holds the device buffer$' $t export
GDR_LIBHSA=$D/libamdhip64.so.6 expect 0 '^hsa: hsa_amd_portable_export_dmabuf found$' $load hsa
GDR_LIBHSA=$D/libamdhip64.so.5 expect 1 "^hsa: $D/libamdhip64\\.so\\.5 lacks hsa_amd_portable_export_dmabuf \\(ROCm < 5\\.6\\): .*use amdgpu_peermem" $load hsa
GDR_LIBHSA=$D/libamdhip64.so.6 GDR_HIP_DOUBLE_FAIL=export expect 1 '^hsa_amd_portable_export_dmabuf failed: HSA status 0x1001$' $t export
# The ROCm 5 double is a whole HIP runtime too.
GDR_LIBHIP=$D/libamdhip64.so.5 expect 0 '^hip: 2 device\(s\), runtime 50221153' $load
# A bad switch is one line from the double, and the loader refuses.
GDR_HIP_DOUBLE_FAIL=bogus expect 1 'HIP double: GDR_HIP_DOUBLE_FAIL=bogus: expected' $load
[ $fails = 0 ] || exit 1
echo "t_hip_double.sh: passed"
