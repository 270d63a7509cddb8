#!/bin/sh
# SPDX-License-Identifier: MIT
# Scatter-gather entries per work request (--sge=N, docs/kv.md) over the loop transport,
# server and client on this host, host memory: write_bw and read_bw, random placement, two
# blocks x two batches, --sge=4 with --regions=4 and 1, --validate: each work request
# carries 4 blocks, 4 local entries a ring's requests apart, written to (or read from) 4
# consecutive pool slots at a multiple of 4; the server checks every pool slot for write
# (each written slot its own block's pattern, every other zero), the client every block
# it read at its place. Each run must exit 0 on both sides; the client's CSV holds one
# row per cell with kv_sge 4 and iterations = -n x the batch (blocks, not work requests);
# its output names the 4 blocks a work request. Then --sge=3 (not dividing --batch=4) is
# refused in one line before the network. Skips (77) where the loop transport cannot open
# (qemu-user).
srcdir=${srcdir:-.}
. "$srcdir/tests/lib.sh"
t_tmpdir t t_kv_sge
n=20
port=$((20000 + ($$ + 11000) % 20000))
T_LOOP_PORT=$port
# run NAME PROGRAM CLIENT-OPTIONS...: t_loop_pair (tests/lib.sh): both sides, bounded;
# rc_c, rc_s; $t/NAME.{c,s,csv}
run() {
	t_loop_pair "$@"
	rc_c=$t_rc_c rc_s=$t_rc_s
}

show() { t_loop_show "$1"; }

# rows NAME N: one row per cell of 4K,16K x 4,8; kv_sge N, iterations n x kv_batch
rows() {
	awk -F, -v sge="$2" -v n=$n -v name="$1" '
	function fail(s) { print "FAIL " name ": " s; bad = 1 }
	{ gsub(/"[^"]*"/, "q") }
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		key = $col["bytes"] ":" $col["kv_batch"]
		seen[key]++
		if ($col["kv_sge"] != sge)
			fail(key ": kv_sge " $col["kv_sge"] ", not " sge)
		if ($col["iterations"] != n * $col["kv_batch"])
			fail(key ": iterations " $col["iterations"] ", not " n " x " $col["kv_batch"])
		if (!($col["kv_blocks_per_s"] > 0))
			fail(key ": blocks/s " $col["kv_blocks_per_s"])
	}
	END {
		if (seen["4096:4"] != 1 || seen["4096:8"] != 1 || seen["16384:4"] != 1 ||
		    seen["16384:8"] != 1 || NR != 5)
			fail(NR - 1 " rows, not one per cell of 4096,16384 x 4,8")
		exit bad
	}' "$t/$1.csv" || { t_fail=1; return 1; }
}

pool=262144 # 64 slots of 4K, 16 of 16K: 4 regions of 16 and 4 slots, runs of 4
for prog in write_bw read_bw; do
	for m in 4 1; do
		name=$prog.m$m
		run $name $prog --block=4K,16K --batch=4,8 --pool=$pool --place=random:3 \
			--regions=$m --sge=4 -n $n --validate
		t_loop_ok "$name" || continue
		if ! grep -q "blocks, 8 a batch, 4 blocks a work request (--sge)" "$t/$name.c"; then
			echo "FAIL $name: the output does not name the 4 blocks a work request"
			show "$name"
			t_fail=1
			continue
		fi
		rows "$name" 4 && echo "ok $prog --sge=4 --regions=$m: 4 cells validated"
	done
done

# --sge=3 does not divide --batch=4: one line, before any network step (no server runs)
./gdr_write_bw --transport=loop --block=4K --batch=4 --sge=3 -p $((port + 1)) \
	--connect_timeout=2 127.0.0.1 >"$t/bad.c" 2>&1
rc=$?
if [ $rc -eq 0 ] || [ "$(wc -l <"$t/bad.c")" -ne 1 ] ||
	! grep -q -- "--sge=3: does not divide --batch=4" "$t/bad.c"; then
	echo "FAIL --sge=3 --batch=4: exit $rc, not one line naming the batch:"
	sed 's/^/    /' "$t/bad.c"
	t_fail=1
else
	echo "ok --sge=3 --batch=4 refused: $(cat "$t/bad.c")"
fi
exit $t_fail
