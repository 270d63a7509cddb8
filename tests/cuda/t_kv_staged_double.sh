#!/bin/sh
# SPDX-License-Identifier: MIT
# The staged path of KV-cache-shaped rows (docs/kv.md) over the loop transport, server and
# client on this host, both sides' test memory on the CUDA driver double: write_bw and
# read_bw, --staged, seq and random placement, two blocks x two batches, --validate (the
# server checks every pool slot for write, the client every block it read). Each run must
# exit 0 on both sides, and the client's CSV hold one staged row per cell: iterations =
# -n x batch (blocks), blocks/s and the contiguous reference > 0, an efficiency, and no
# batch times (the staged path does not time batches one by one). Then --compare: the host
# (loop registers no GPU memory: no direct row) and staged rows, with the KV columns; and
# the sm copier's block lists (--stage_copy=sm on both sides: the server scatters, for read
# gathers, each batch in one list); --stage_copy=sm with a batch over its kernel's block
# table (1024 blocks) refused in one line: the client's before any connection, the server's
# where it chooses its copier.
# Skips (77) where the loop transport cannot open (qemu-user: no process_vm_readv).
srcdir=${srcdir:-.}
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/cuda/double-env.sh"
t_tmpdir t t_kv_staged
n=20
port=$((20000 + ($$ + 7000) % 20000))
T_LOOP_PORT=$port T_LOOP_BOTH=--use_cuda=0
# run NAME PROGRAM CLIENT-OPTIONS...: t_loop_pair (tests/lib.sh): both sides, bounded;
# rc_c, rc_s; $t/NAME.{c,s,csv}; the server's own options in $srv
srv=
run() {
	T_LOOP_SRV=$srv t_loop_pair "$@"
	rc_c=$t_rc_c rc_s=$t_rc_s
}

show() { t_loop_show "$1"; }

# rows NAME PATHS CELLS: the CSV holds, for each of PATHS, one row per cell ("block:batch")
rows() {
	awk -F, -v paths="$2" -v cells="$3" -v n=$n -v name="$1" '
	function fail(m) { print "FAIL " name ": " m; bad = 1 }
	{ gsub(/"[^"]*"/, "q") }
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		key = $col["path"] " " $col["bytes"] ":" $col["kv_batch"]
		seen[key]++
		if ($col["iterations"] != n * $col["kv_batch"])
			fail(key ": " $col["iterations"] " iterations, not " n " x the batch")
		if (!($col["kv_blocks_per_s"] > 0) || !($col["kv_contig_Gbps"] > 0) ||
		    !($col["kv_efficiency"] > 0))
			fail(key ": blocks/s " $col["kv_blocks_per_s"] ", contiguous " \
			     $col["kv_contig_Gbps"] ", efficiency " $col["kv_efficiency"])
		if ($col["path"] == "staged" && $col["kv_batch_median_us"] != "")
			fail(key ": batch times on a staged row")
	}
	END {
		np = split(paths, p, " "); nc = split(cells, c, " ")
		for (i = 1; i <= np; i++)
			for (j = 1; j <= nc; j++)
				if (seen[p[i] " " c[j]] != 1)
					fail(seen[p[i] " " c[j]] + 0 " rows for " p[i] " " c[j])
		if (NR - 1 != np * nc) fail(NR - 1 " rows, not " np * nc)
		exit bad
	}' "$t/$1.csv" || t_fail=1
}

for prog in write_bw read_bw; do
	for place in seq random:5; do
		name=$prog.$(echo $place | tr : _)
		run $name $prog --staged --block=4K,16K --batch=1,8 --place=$place -n $n --validate
		t_loop_ok "$name" || continue
		rows "$name" staged "4096:1 4096:8 16384:1 16384:8" &&
			echo "ok $prog --staged --place=$place: 4 cells validated"
	done
done

# the sm copier's lists: blocks under and over its one-part split (64 KiB), both directions
srv=--stage_copy=sm
for prog in write_bw read_bw; do
	name=$prog.sm
	run $name $prog --staged --stage_copy=sm --block=4K,64K --batch=1,8 --place=random:5 \
		--pool=1M -n $n --validate
	if [ $rc_c -ne 0 ] || [ $rc_s -ne 0 ]; then
		echo "FAIL $name: client exit $rc_c, server exit $rc_s"
		show "$name"
		t_fail=1
		continue
	fi
	if ! grep -q 'sm at every size' "$t/$name.s"; then
		echo "FAIL $name: the server did not stage with sm"
		show "$name"
		t_fail=1
		continue
	fi
	rows "$name" staged "4096:1 4096:8 65536:1 65536:8" &&
		echo "ok $prog --staged --stage_copy=sm: 4 cells validated"
done
# the server's own sm copier and a client's batch over its block table: the server says so
run sm.long write_bw --staged --block=4K --batch=1025 -n 5
if [ $rc_s -eq 0 ] || [ $rc_c -eq 0 ] ||
	[ "$(grep -c 'error: --stage_copy=sm: a batch of 1025 blocks, over the 1024 the kernel.s block table holds$' "$t/sm.long.s")" != 1 ]; then
	echo "FAIL server --stage_copy=sm, --batch=1025: not refused in one line"
	show sm.long
	t_fail=1
else
	echo "ok server --stage_copy=sm, client --batch=1025: the server refuses in one line"
fi
srv=

run cmp write_bw --compare --repeat=1 --block=4K --batch=8 --place=random -n $n --validate
if [ $rc_c -ne 0 ] || [ $rc_s -ne 0 ]; then
	echo "FAIL write_bw --compare --block: client exit $rc_c, server exit $rc_s"
	show cmp
	t_fail=1
else
	rows cmp "host staged" "4096:8" && echo "ok write_bw --compare --block: host and staged rows"
fi

out=$(./gdr_write_bw --staged --block=4K --batch=8,1025 --stage_copy=sm 127.0.0.1 2>&1)
rc=$?
if [ $rc -eq 0 ] || [ "$(echo "$out" | grep -c .)" -ne 1 ] ||
	! echo "$out" | grep -q -- '--stage_copy=sm with --block: a batch of over 1024 blocks (the kernel.s block table holds 1024)$'; then
	echo "FAIL --stage_copy=sm --batch=1025: exit $rc, not one line: $out"
	t_fail=1
else
	echo "ok --stage_copy=sm --batch=1025: refused in one line"
fi
exit $t_fail
