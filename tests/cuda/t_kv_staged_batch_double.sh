#!/bin/sh
# SPDX-License-Identifier: MIT
# The staged KV path with the batch copier (docs/kv.md) over the loop transport, both sides'
# test memory on the CUDA driver double: write_bw and read_bw, --staged --stage_copy=batch,
# random placement, two blocks x two batches, --validate; both sides exit 0, the rows name
# the batch copier, and the double logged batched calls of whole batches only (each call's
# count a --batch value, GDR_DOUBLE_BATCHES). Then a CUDA 12.4 driver (GDR_DOUBLE_VERSION=12040),
# which lacks cuMemcpyBatchAsync: the client is refused in one line naming the version before
# any network step (no server listens: a later refusal would be a connection error), and a
# staged --stage_copy=auto run (not KV), on a driver that has the batched copy, neither probes
# nor names nor picks batch (its single copies are ce's: a probe would time ce twice).
# Skips (77) where the loop transport cannot open (qemu-user: no process_vm_readv).
srcdir=${srcdir:-.}
. "$srcdir/tests/lib.sh"
. "$srcdir/tests/cuda/double-env.sh"
t_tmpdir t t_kv_staged_batch
port=$((21000 + ($$ + 3000) % 20000))
log=$t/batches
fail=0

for prog in write_bw read_bw; do
	port=$((port + 1))
	: >"$log"
	GDR_DOUBLE_BATCHES=$log timeout 120 ./gdr_$prog --transport=loop --use_cuda=0 \
		--stage_copy=batch -p $port --listen_timeout=60 --timeout=20 >"$t/s" 2>&1 &
	pid=$!
	GDR_DOUBLE_BATCHES=$log timeout 120 ./gdr_$prog --transport=loop --use_cuda=0 \
		--stage_copy=batch --staged --block=4K,16K --batch=3,8 --place=random:5 -n 10 \
		--validate -p $port --connect_timeout=30 --timeout=20 --csv "$t/$prog.csv" 127.0.0.1 \
		>"$t/c" 2>&1
	rc_c=$?
	wait $pid
	rc_s=$?
	if grep -q 'process_vm_readv: Function not implemented' "$t/c"; then
		echo "skip: this host cannot open the loop transport: $(tail -1 "$t/c")"
		exit 77
	fi
	if [ $rc_c -ne 0 ] || [ $rc_s -ne 0 ]; then
		echo "FAIL $prog: client exit $rc_c, server exit $rc_s"
		sed 's/^/  client: /' "$t/c"
		sed 's/^/  server: /' "$t/s"
		fail=1
		continue
	fi
	if ! awk -F, '{ gsub(/"[^"]*"/, "q") } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["path"] == "staged" { n++; if ($c["stage_copy"] != "batch") bad = 1 }
		END { exit bad || n != 4 }' "$t/$prog.csv"; then
		echo "FAIL $prog: not 4 staged rows of the batch copier:"
		cat "$t/$prog.csv"
		fail=1
	fi
	if ! awk '{ c[$5]++; if ($5 != 3 && $5 != 8) bad = 1 } END { exit bad || !c[3] || !c[8] }' "$log"; then
		echo "FAIL $prog: batched calls not of whole batches (3 and 8):"
		sort "$log" | uniq -c | sed 's/ pid [0-9]*//' | head
		fail=1
	else
		echo "ok $prog --stage_copy=batch: validated, $(grep -c . "$log") batched calls of whole batches"
	fi
done

port=$((port + 1))
out=$(GDR_DOUBLE_VERSION=12040 timeout 60 ./gdr_write_bw --transport=loop --use_cuda=0 --staged \
	--block=4K --batch=8 --stage_copy=batch -p $port --connect_timeout=2 127.0.0.1 2>&1)
rc=$?
if [ $rc -eq 0 ] || [ "$(echo "$out" | grep -c .)" -ne 1 ] ||
	! echo "$out" | grep -q -- '--stage_copy=batch: the NVIDIA driver (CUDA 12.4) has no cuMemcpyBatchAsync'; then
	echo "FAIL --stage_copy=batch on CUDA 12.4: exit $rc, not the one line: $out"
	fail=1
else
	echo "ok --stage_copy=batch on a CUDA 12.4 driver refused before any network step: $out"
fi

port=$((port + 1))
timeout 120 ./gdr_write_bw --transport=loop --use_cuda=0 -p $port \
	--listen_timeout=60 --timeout=20 >"$t/s" 2>&1 &
pid=$!
timeout 120 ./gdr_write_bw --transport=loop --use_cuda=0 --staged \
	--stage_copy=auto --sizes=512:64K:128 -n 10 -p $port --connect_timeout=30 --timeout=20 \
	--csv "$t/auto.csv" 127.0.0.1 >"$t/c" 2>&1
rc_c=$?
wait $pid
rc_s=$?
if [ $rc_c -ne 0 ] || [ $rc_s -ne 0 ] || grep -i 'Stage copy.*batch' "$t/c" >/dev/null ||
	! awk -F, '{ gsub(/"[^"]*"/, "q") } NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["path"] == "staged" { n++; if ($c["stage_copy"] ~ /batch/) bad = 1 }
		END { exit bad || !n }' "$t/auto.csv"; then
	echo "FAIL --stage_copy=auto with the batched copy present: client exit $rc_c, server exit $rc_s"
	sed 's/^/  client: /' "$t/c"
	fail=1
else
	echo "ok --stage_copy=auto with the batched copy present: not probed, not named, not picked"
fi
exit $fail
