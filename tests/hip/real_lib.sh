#!/bin/sh
# The HIP loader against the real HIP runtime of this host (Debian 12: libamdhip64-5,
# ROCm 5.2.3) on a host without an AMD GPU: it loads, hipGetDeviceCount answers
# hipErrorNoDevice (100), and the refusal is one line naming the library and the
# cause. ROCm 5.2.3's libhsa-runtime64 has no hsa_amd_portable_export_dmabuf: the
# dma-buf refusal names it. Skips (77) with the reason when no libamdhip64 is installed.
prog=./tests/hip/hip_load
unset GDR_LIBHIP GDR_LIBHSA HIP_VISIBLE_DEVICES ROCR_VISIBLE_DEVICES
out=$($prog hsa)
rc=$?
echo "$out"
case $out in
*"libamdhip64.so.7, .so.6 and .so.5 not found"*)
	echo "SKIP: no HIP runtime installed (Debian: apt-get install libamdhip64-5)"
	exit 77
	;;
esac
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
[ "$rc" = 1 ] || fail "exit $rc, want 1 (no AMD GPU here)"
hip=$(echo "$out" | grep '^hip: ')
# One line, the library, the call, the error's name and number, the next step.
echo "$hip" | grep -Eq '^hip: libamdhip64\.so\.[567] \(HIP [0-9]+\.[0-9]+\): hipGetDeviceCount: hipErrorNoDevice \(100[:)]' ||
	fail "no-device refusal: '$hip'"
echo "$hip" | grep -q ': no AMD GPU visible to ROCm on this host (check /dev/kfd' ||
	fail "refusal without its next step: '$hip'"
[ "$(echo "$out" | grep -c '^hip: ')" = 1 ] || fail "more than one hip line"
# The real 5.2.3 HSA runtime lacks the export (ROCm 5.6 added it): named in one line.
if [ -e /usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1 ] &&
	! nm -D /usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1 2>/dev/null | grep -q hsa_amd_portable_export_dmabuf; then
	echo "$out" | grep -q '^hsa: libhsa-runtime64\.so\.1 lacks hsa_amd_portable_export_dmabuf (ROCm < 5\.6): .*use amdgpu_peermem' ||
		fail "HSA refusal: '$(echo "$out" | grep '^hsa: ')'"
fi
[ $fails = 0 ] || exit 1
echo "real_lib.sh: the real HIP runtime refuses with one line"
