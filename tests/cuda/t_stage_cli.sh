#!/bin/sh
# gdr_stage_bw command line: help, version, bad input and no driver fail with
# one clear line and exit 3 (usage) or 2 (no driver); with a driver, a short real run gives its rows.
set -u
. "${srcdir:-.}/tests/cuda/stage-prelude.sh"

run 0 --help
grep -q -- "--pageable" "$out" && grep -q -- "--streams=N" "$out" &&
	grep -q -- "--copier=KIND" "$out" || no "--help lacks options"
run 0 -V
grep -q "^gdr_stage_bw (gdrperf) [0-9]" "$out" || no "-V: $(cat "$out")"
bad "unknown option '--bogus'" --bogus
bad "missing argument N" --streams
bad "1..8" --streams=9
bad "1..8" --streams=0
bad "MIN 8M is larger than MAX 4M" --sizes=8M:4M
bad "is not MIN:MAX" --sizes=4K
bad "h2d, d2h, bidir or all" --dir=up
bad "is not a size" -s 2X
bad "larger than the 1G limit" -s 2G
bad "0 is out of range (use 1..100000000)" -n 0
bad "exclude each other" -s 1M -a
bad "copies by count or by time, not both" -n 5 --time=1
bad "-D: 0 is out of range (use > 0 and <= 3600)" --time=0
bad "not a PCI address" --use_cuda_bus_id=xyz
bad "N <= 4" --dir=bidir --streams=5
bad "takes no host" somehost
bad "--copier: 'nvlink' is not ce, gdrcopy, sm or batch" --copier=nvlink
bad "--copier=sm needs pinned host memory" --copier=sm --pageable
# --block (block lists, docs/kv.md): its lists, the pool, the copier, caught before any GPU work
bad "--block: '16X' is not a size" --block=16X
bad "--batch: 0 is out of range 1..4096" --block=16K --batch=0
bad "--batch: 'x' is not a whole number" --block=16K --batch=x
bad "--pool=65536 holds 4 blocks of 16384 bytes, fewer than --batch=8" --block=16K --batch=8 --pool=64K
bad "--copier=sm with --batch=1025: over the 1024 blocks the kernel's block table holds" --block=16K --batch=8,1025 --copier=sm
bad "--dir=bidir with --block" --block=16K --dir=bidir
bad "--block gives the copies' sizes" --block=16K -s 1M
bad "--place: 'zigzag'" --block=16K --place=zigzag
bad "--batch needs --block" --batch=8
bad "--pool needs --block" --pool=1M
bad "--block and --pageable exclude each other" --block=16K --pageable
bad "over the 1G a contiguous copy may be" --block=1M --batch=2048
bad "--block measures one GPU" --block=16K --use_cuda=0,1
# no driver (forced): one line naming the library
GDR_LIBCUDA=/nonexistent/libcuda.so.1 "$bin" -s 1M >"$out" 2>"$err"; rc=$?
[ $rc = 2 ] || no "no driver: exit $rc, want 2"
[ "$(wc -l <"$err")" -eq 1 ] || no "no driver: not one line: $(cat "$err")"
grep -Eq "^gdr_stage_bw: error: --use_cuda: (/nonexistent/libcuda.so.1 not found|this gdrperf was built without CUDA)" "$err" ||
	no "no driver: $(cat "$err")"

# a real run where a GPU works
if "$bin" -s 1M -n 5 --reps=1 --dir=all --csv="$out.csv" >"$out" 2>"$err"; then
	rows=$(grep -c '^1048576 ' "$out")
	[ "$rows" = 3 ] || no "real run: $rows rows, want 3: $(cat "$out")"
	[ "$(wc -l <"$out.csv")" = 4 ] || no "real run: csv has $(wc -l <"$out.csv") lines, want 4"
	echo "real run on $(head -1 "$err")"
elif grep -Eq "not found|cuInit failed|built without CUDA" "$err"; then
	echo "no usable GPU here ($(cat "$err")): real run not checked"
else
	no "real run failed: $(cat "$err")"
fi
exit $fail
