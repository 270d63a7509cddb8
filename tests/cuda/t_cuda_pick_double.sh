#!/bin/sh
# SPDX-License-Identifier: MIT
# --use_cuda=auto on fixture hosts (tests/doctor/mkfix.sh) with the CUDA driver double
# describing their GPUs: on a GB200 tray (every NIC NODE/SYS from every GPU) each NIC gets
# the GPU gdr_doctor pairs it with (NUMA node and order), named as the C2C rule, whatever
# the CUDA order; the same layout on a non-Grace CPU pairs the same way but does not say
# C2C; an HGX node still picks by PCIe switch; GPUs and NICs equally near pair 1:1.
. "${srcdir:-.}/tests/cuda/double-env.sh"
src=${srcdir:-.}
dir=tests/cuda/fix-pick.$$
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir"
fails=0
fail() {
	echo "FAIL: $*"
	fails=$((fails + 1))
}

# pick SCENARIO FIXTURE NIC...: t_cuda_pick's stdout in $dir/out, stderr in $dir/err
pick() {
	s=$1 fx=$2
	shift 2
	[ -d "$dir/$s" ] || sh "$src/tests/doctor/mkfix.sh" "$dir/$s" "$s" || fail "$s: fixture"
	GDR_DOUBLE_DEVICES=$(grep -c '^[0-9a-f]' "$fx") GDR_SYSFS_ROOT=$dir/$s/sys GDR_DOUBLE_FIXTURE=$fx \
		tests/cuda/t_cuda_pick "$@" >"$dir/out" 2>"$dir/err" || fail "$s: t_cuda_pick $*: $(cat "$dir/err")"
}

# want NIC BUS-ID RULE: the NIC got the GPU at BUS-ID, and the rule is named
want() {
	f=${fx##*/}
	grep -q "^$1 -> GPU [0-9]* .*($2)\$" "$dir/out" || fail "$s/$f: $1 did not get $2: $(grep "^$1 " "$dir/out")"
	grep -q "auto: GPU [0-9]* ($2) for $1 ($3)\$" "$dir/err" || fail "$s/$f: $1: rule '$3' not said: $(grep " for $1 " "$dir/err")"
}

# the doctor's pairs on the GB200 fixture, "BUS-ID NIC" per GPU
sh "$src/tests/doctor/mkfix.sh" "$dir/gb200" gb200 || fail "gb200: fixture"
./gdr_doctor --sysfs-root="$dir/gb200" --proc-root="$dir/gb200" >"$dir/doctor.txt" 2>&1
sed -n 's/.*GPU [0-9]* (\([0-9a-f:.]*\)): .*paired with \([a-z0-9_]*\) .*/\1 \2/p' "$dir/doctor.txt" >"$dir/pairs"
[ "$(wc -l <"$dir/pairs")" = 4 ] || fail "gdr_doctor paired $(wc -l <"$dir/pairs") GPUs on gb200, want 4"

# the GB200 GPUs in bus order, and in an order where CUDA index k is not rail k
sed '/^0008/d; /^0009/d' "$src/tests/cuda_double/gb200.fixture" >"$dir/gb200-rev.fixture"
grep -e '^0008' -e '^0009' "$src/tests/cuda_double/gb200.fixture" >>"$dir/gb200-rev.fixture"
for fx in "$src/tests/cuda_double/gb200.fixture" "$dir/gb200-rev.fixture"; do
	pick gb200 "$fx" mlx5_0 mlx5_1 mlx5_2 mlx5_3
	while read -r bus nic; do
		case $nic in
		mlx5_0) r='1st GPU and 1st NIC of NUMA node 0' ;;
		mlx5_1) r='2nd GPU and 2nd NIC of NUMA node 0' ;;
		mlx5_2) r='1st GPU and 1st NIC of NUMA node 1' ;;
		*) r='2nd GPU and 2nd NIC of NUMA node 1' ;;
		esac
		want "$nic" "$bus" "C2C node: $r"
	done <"$dir/pairs"
done
grep -q '^mlx5_0 -> GPU 2 ' "$dir/out" || fail "gb200 reordered: mlx5_0 not CUDA GPU 2: $(cat "$dir/out")"

# not a Grace CPU: the same pairs, not called C2C
pick gb200_x86 "$src/tests/cuda_double/gb200.fixture" mlx5_1 mlx5_2
want mlx5_1 0009:01:00.0 "no GPU on the NIC's PCIe root complex: 2nd GPU and 2nd NIC of NUMA node 0"
want mlx5_2 0018:01:00.0 "no GPU on the NIC's PCIe root complex: 1st GPU and 1st NIC of NUMA node 1"

# HGX: the GPU under the NIC's PCIe switch
pick hgx8 "$src/tests/cuda_double/eight-gpus.fixture" mlx5_0 mlx5_5 mlx5_7
want mlx5_0 0000:18:00.0 'nearest NIC: same PCIe switch'
want mlx5_5 0000:ab:00.0 'nearest NIC: same PCIe switch'
want mlx5_7 0000:db:00.0 'nearest NIC: same PCIe switch'

# two GPUs and two NICs under one switch, CUDA order not PCI order: the NICs in number
# order (mlx5_2, mlx5_10) take the GPUs in PCI order, one each, not both the lowest index
printf '0000:05:00.0 0 0\n0000:03:00.0 0 0\n' >"$dir/pix2.fixture"
pick pix2 "$dir/pix2.fixture" mlx5_2 mlx5_10
want mlx5_2 0000:03:00.0 'nearest NIC: same PCIe switch; 2 GPUs as near: the 1st of 2 NICs as near takes the 1st GPU (PCI order)'
want mlx5_10 0000:05:00.0 'nearest NIC: same PCIe switch; 2 GPUs as near: the 2nd of 2 NICs as near takes the 2nd GPU (PCI order)'

# a device with no PCIe position: GPU 0, said so
pick hgx8 "$src/tests/cuda_double/eight-gpus.fixture" rxe0
want rxe0 0000:18:00.0 'the PCIe position of rxe0 is unknown'

[ "$fails" = 0 ] || exit 1
echo "t_cuda_pick_double: ok"
