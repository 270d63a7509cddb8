#!/bin/sh
# SPDX-License-Identifier: MIT
# gdr_stage_bw --use_rocm over the HIP double (issue 38 item 2): the copy engine on HIP
# streams (hipMemcpyAsync through the ce copier) on one GPU, on all and on a list at once;
# the refusals in one line: no AMD GPU, a GPU that does not exist, --use_cuda as well,
# copiers that only CUDA memory has, a copy that fails mid-run.
set -u
. "${srcdir:-.}/tests/cuda/stage-prelude.sh"
export GDR_LIBHIP=$PWD/tests/hip_double/libamdhip64.so.6 GDR_HIP_DOUBLE_DEVICES=8 \
	GDR_HIP_DOUBLE_FIXTURE=${srcdir:-.}/tests/hip_double/mi300x-swapped.fixture GDR_HIP_DOUBLE_DELAY_US=50
unset GDR_HIP_DOUBLE_FAIL
[ -f "$GDR_LIBHIP" ] || { echo "FAIL: $GDR_LIBHIP not built"; exit 1; }

# one GPU (HIP index 1: 0000:af:00.0 in the swapped fixture), every direction, 2 streams
run 0 --use_rocm=1 -s 256K -n 20 --reps 1 --streams 2 --csv "$tmp/one.csv"
grep -q 'GPU 1 gdrperf HIP double (test tool, not a GPU) (0000:af:00.0), pinned host memory, 2 streams' "$err" ||
	no "one GPU: header: $(cat "$err")"
for d in h2d d2h bidir; do
	grep -Eq "^262144 +$d +pinned +2 +[0-9]+\.[0-9]+ " "$out" || no "one GPU: no $d row: $(cat "$out")"
done
[ "$(grep -c '^262144,' "$tmp/one.csv")" = 3 ] || no "one GPU: CSV rows: $(cat "$tmp/one.csv")"
# all eight at once, and a list
run 0 --use_rocm=all -s 64K -n 10 --reps 1 --dir=h2d
grep -q '8 GPUs at once' "$err" || no "all: $(cat "$err")"
grep -Eq '^65536 +h2d +all\(8\)' "$out" || no "all: no aggregate row: $(cat "$out")"
run 0 --use_rocm=0,5 -s 64K -n 10 --reps 1 --dir=d2h --json "$tmp/two.json"
grep -q 'GPU 5 gdrperf HIP double (test tool, not a GPU) (0000:22:00.0)' "$err" || no "list: GPU 5: $(cat "$err")"
grep -Eq '^65536 +d2h +all\(2\)' "$out" || no "list: no aggregate row: $(cat "$out")"
# refusals
bad "--use_rocm and --use_cuda exclude each other" --use_rocm=0 --use_cuda=0
bad "not a GPU index, 'all' or a list" --use_rocm=x
cannot "--use_rocm=8: ROCm sees 8 AMD GPU(s), 0..7" --use_rocm=8 -s 64K
cannot "--use_rocm: GPU 9 does not exist: this host has 8 GPUs" --use_rocm=0,9 -s 64K
cannot "--copier=gdrcopy cannot run here: gdrcopy maps CUDA GPU memory through BAR1 only (test memory is rocm)" \
	--use_rocm=0 --copier=gdrcopy -s 64K
cannot "--copier=sm cannot run here: " --use_rocm=0 --copier=sm -s 64K
GDR_HIP_DOUBLE_FAIL=nodevice cannot "--use_rocm: .*hipGetDeviceCount: hipErrorNoDevice (100" --use_rocm=0 -s 64K
GDR_HIP_DOUBLE_FAIL=nodevice cannot "--use_rocm: .*hipErrorNoDevice (100" --use_rocm=all -s 64K
GDR_HIP_DOUBLE_FAIL=copy:5 cannot "hipStreamQuery: hipErrorIllegalAddress (700" -q --use_rocm=0 -s 64K -n 10 --dir=h2d
[ $fail = 0 ] || exit 1
echo "t_rocm_stage.sh: passed"
