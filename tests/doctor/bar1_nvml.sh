#!/bin/sh
# SPDX-License-Identifier: MIT
# gdr_doctor's BAR1 size where sysfs shows none (as in VMs): from NVML, here the NVML
# double (tests/doctor/nvml_double.c, GDR_LIBNVML); sysfs first when it has the size;
# one INFO line saying why when neither gives it.
set -u
src=${srcdir:-.}
doc=./gdr_doctor
dbl=$(pwd)/tests/doctor/libnvidia-ml.so.1
. "${srcdir:-.}/tests/lib.sh"
t_tmpdir dir bar1_nvml
fails=0
no() { echo "FAIL: $*"; fails=$((fails + 1)); }

sh "$src/tests/doctor/mkfix.sh" "$dir/fx" good || { echo "FAIL: fixture not built"; exit 1; }
res=$dir/fx/sys/bus/pci/devices/0000:03:00.0/resource
[ -f "$res" ] || { echo "FAIL: the fixture has no $res"; exit 1; }

# want NAME REGEX [VAR=VALUE...]: the doctor's pcie.bar1 line must match REGEX
want() {
	name=$1 re=$2
	shift 2
	env "$@" $doc --sysfs-root="$dir/fx" --proc-root="$dir/fx" >"$dir/$name.txt" 2>&1
	line=$(grep 'BAR1' "$dir/$name.txt")
	echo "$line" | grep -Eq -- "$re" || no "$name: want /$re/, got: ${line:-no BAR1 line}"
}

# sysfs has it: NVML is not needed, sysfs's figure wins
want sysfs 'OK +GPU 0 \(0000:03:00.0\): BAR1 131072 MiB \(sysfs;' \
	GDR_LIBNVML="$dbl" GDR_NVML_BAR1=0000:03:00.0=64

# sysfs's BAR1 line empty, as on the H100 VM
printf '0x00000000fa000000 0x00000000faffffff 0x0000000000040200\n0x0 0x0 0x0\n' >"$res"
want nvml 'OK +GPU 0 \(0000:03:00.0\): BAR1 131072 MiB \(NVML; sysfs shows none' \
	GDR_LIBNVML="$dbl" GDR_NVML_BAR1=0000:03:00.0=131072
want small 'WARN +GPU 0 \(0000:03:00.0\): BAR1 is 256 MiB \(NVML; sysfs shows none\)' \
	GDR_LIBNVML="$dbl" GDR_NVML_BAR1=0000:03:00.0=256
grep -q 'Resizable BAR' "$dir/small.txt" || no "small: no advice line"
want unknown 'INFO +GPU 0 \(0000:03:00.0\): BAR1 size not readable: none in sysfs, NVML: Not Found' \
	GDR_LIBNVML="$dbl" GDR_NVML_BAR1=0000:04:00.0=256
want nodriver 'INFO .*BAR1 size not readable: none in sysfs, nvmlInit failed: Driver Not Loaded' \
	GDR_LIBNVML="$dbl" GDR_NVML_BAR1=0000:03:00.0=256 GDR_NVML_FAIL=init
want nolib "INFO .*BAR1 size not readable: none in sysfs, $dir/none.so not found" \
	GDR_LIBNVML="$dir/none.so"
# a fixture describes another host: the host's own NVML is not asked unless named
rm -f "$res"
want fixture 'INFO .*BAR1 size not readable: none in sysfs, NVML not asked about a fixture' \
	GDR_LIBNVML=
[ $fails = 0 ] || exit 1
echo "bar1_nvml.sh: 7 cases passed"
