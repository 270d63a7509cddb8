#!/bin/sh
# SPDX-License-Identifier: MIT
# gdr_doctor on the eight-GPU fixture (mkfix.sh hgx8) with the CUDA driver double describing
# the same GPUs (tests/cuda_double/eight-gpus.fixture): NVLink from the driver's peer
# attributes in the GPU-GPU matrix, PCIe words from sysfs where there is none.
set -u
src=${srcdir:-.}
. "$src/tests/cuda/double-env.sh"
doc=./gdr_doctor
. "${srcdir:-.}/tests/lib.sh"
t_tmpdir dir gpulinks_double
fails=0
no() { echo "FAIL: $*"; fails=$((fails + 1)); }

sh "$src/tests/doctor/mkfix.sh" "$dir/fx" hgx8 || { echo "FAIL: fixture not built"; exit 1; }
export GDR_DOUBLE_DEVICES=8

# $1 = double fixture, $2 = name: text and JSON reports
report() {
	GDR_DOUBLE_FIXTURE=$1 $doc --sysfs-root="$dir/fx" --proc-root="$dir/fx" >"$dir/$2.txt" 2>&1 ||
		no "$2: exit $? ($(grep -E 'FAIL|error' "$dir/$2.txt" | head -3))"
	GDR_DOUBLE_FIXTURE=$1 $doc --json --sysfs-root="$dir/fx" --proc-root="$dir/fx" >"$dir/$2.json" 2>&1
	if command -v python3 >/dev/null 2>&1 &&
		! python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["gpu_links"]) == 56' \
			"$dir/$2.json"; then
		no "$2: JSON not well formed or not 56 GPU links"
	fi
}

# one NVSwitch fabric: every pair NV
report "$src/tests/cuda_double/eight-gpus.fixture" all
[ "$(grep -c 'OK    GPU [0-7]: gdrperf CUDA double .*PCIe path root' "$dir/all.txt")" = 8 ] ||
	no "all: the GPUs are not the double's: $(grep 'GPU 0' "$dir/all.txt")"
grep -q '^  INFO  GPU0   X     NV    NV    NV    NV    NV    NV    NV$' "$dir/all.txt" &&
	grep -q '^  INFO  GPU7   NV    NV    NV    NV    NV    NV    NV    X$' "$dir/all.txt" &&
	grep -q '^  OK    28 of 28 GPU pairs over NVLink; 0 pair(s) without peer access$' "$dir/all.txt" ||
	no "all: matrix: $(grep -A10 'GPU-GPU links' "$dir/all.txt")"
[ "$(grep -c '"link": "NV"' "$dir/all.json")" = 56 ] || no "all: JSON links"

# two NVLink islands of four (one per NUMA node): NV inside, SYS across
awk '/^#/ { next } { print $1, $2, n++ < 4 ? 0 : 1 }' "$src/tests/cuda_double/eight-gpus.fixture" >"$dir/two.fixture"
report "$dir/two.fixture" two
grep -q '^  INFO  GPU0   X     NV    NV    NV    SYS   SYS   SYS   SYS$' "$dir/two.txt" &&
	grep -q '^  INFO  GPU5   SYS   SYS   SYS   SYS   NV    X     NV    NV$' "$dir/two.txt" &&
	grep -q '^  OK    12 of 28 GPU pairs over NVLink' "$dir/two.txt" ||
	no "two: matrix: $(grep -A10 'GPU-GPU links' "$dir/two.txt")"

# no NVLink (the double's default): the PCIe words, every pair with peer access
report "" none
grep -q '^  INFO  GPU0   X     NODE  NODE  NODE  SYS   SYS   SYS   SYS$' "$dir/none.txt" &&
	grep -q '^  OK    0 of 28 GPU pairs over NVLink; 0 pair(s) without peer access$' "$dir/none.txt" ||
	no "none: matrix: $(grep -A10 'GPU-GPU links' "$dir/none.txt")"

[ $fails = 0 ] || exit 1
echo "gpulinks_double.sh: 3 reports checked"
