#!/bin/sh
# SPDX-License-Identifier: MIT
# The KV pool as M memory regions (--regions, docs/kv.md) over the loop transport, server
# and client on this host, host memory: write_bw and read_bw, random placement, two blocks
# x two batches, --regions=4 and 1, --validate (the server checks every pool slot for
# write, the client every block it read). The loop transport checks each operation's key
# as an rkey is checked: an operation whose key names a region its bytes are not in fails
# (src/transport/loop/loop_run.c remote_ok), so a block given another region's key fails
# the run. Each run must exit 0 on both sides; the client's CSV holds one row per cell
# with kv_regions M and kv_region_bytes = the pool's slots' bytes / M; its output names
# the regions. Skips (77) where the loop transport cannot open (qemu-user).
srcdir=${srcdir:-.}
. "$srcdir/tests/lib.sh"
t_tmpdir t t_kv_regions
n=20
port=$((20000 + ($$ + 9000) % 20000))
T_LOOP_PORT=$port
# run NAME PROGRAM CLIENT-OPTIONS...: t_loop_pair (tests/lib.sh): both sides, bounded;
# rc_c, rc_s; $t/NAME.{c,s,csv}
run() {
	t_loop_pair "$@"
	rc_c=$t_rc_c rc_s=$t_rc_s
}

show() { t_loop_show "$1"; }

# rows NAME M POOL: one row per cell of 4K,16K x 1,8; kv_regions M, kv_region_bytes POOL/M
rows() {
	awk -F, -v m="$2" -v pool="$3" -v name="$1" '
	function fail(s) { print "FAIL " name ": " s; bad = 1 }
	{ gsub(/"[^"]*"/, "q") }
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		key = $col["bytes"] ":" $col["kv_batch"]
		seen[key]++
		if ($col["kv_regions"] != m || $col["kv_region_bytes"] != pool / m)
			fail(key ": kv_regions " $col["kv_regions"] ", kv_region_bytes " \
			     $col["kv_region_bytes"] ", not " m " and " pool / m)
		if (!($col["kv_blocks_per_s"] > 0))
			fail(key ": blocks/s " $col["kv_blocks_per_s"])
	}
	END {
		if (seen["4096:1"] != 1 || seen["4096:8"] != 1 || seen["16384:1"] != 1 ||
		    seen["16384:8"] != 1 || NR != 5)
			fail(NR - 1 " rows, not one per cell of 4096,16384 x 1,8")
		exit bad
	}' "$t/$1.csv" || { t_fail=1; return 1; }
}

pool=262144 # 64 slots of 4K, 16 of 16K: 4 regions of 65536 bytes
for prog in write_bw read_bw; do
	for m in 4 1; do
		name=$prog.m$m
		run $name $prog --block=4K,16K --batch=1,8 --pool=$pool --place=random:3 \
			--regions=$m -n $n --validate
		t_loop_ok "$name" || continue
		if [ $m -gt 1 ] && ! grep -q "in a $pool-byte pool ($m regions of $((pool / m)) bytes)" "$t/$name.c"; then
			echo "FAIL $name: the output does not name the $m regions"
			show "$name"
			t_fail=1
			continue
		fi
		rows "$name" $m $pool && echo "ok $prog --regions=$m: 4 cells validated"
	done
done
exit $t_fail
