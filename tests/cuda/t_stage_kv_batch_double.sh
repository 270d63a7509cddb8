#!/bin/sh
# SPDX-License-Identifier: MIT
# gdr_stage_bw --block --copier=batch on the CUDA driver double (docs/kv.md): the batch
# copier's block lists, gathered and scattered, each row checked byte for byte before timing
# ("ok"), the CSV's method copier_batch; every list is ONE cuMemcpyBatchAsync of its batch's
# blocks (the double's GDR_DOUBLE_BATCHES log: each call's count is a --batch value, and there
# are calls of both). On a CUDA 12.4 driver (GDR_DOUBLE_VERSION=12040), which lacks the call,
# the run ends before any row with one line naming the driver's version.
set -u
. "${srcdir:-.}/tests/cuda/double-env.sh"
. "${srcdir:-.}/tests/cuda/stage-prelude.sh"
export GDR_DOUBLE_DELAY_US=20
log=$tmp/batches
: >"$log"

GDR_DOUBLE_BATCHES=$log run 0 --copier=batch --block=4K,16K --batch=3,8 --place=random:3 -n 20 \
	--reps=3 --streams=2 --csv="$tmp/kv.csv"
rows=$(grep -Ec '^(gather|scatter) ' "$out")
[ "$rows" = 8 ] || no "$rows rows, want 8: $(cat "$out")"
[ "$(grep -Ec ' ok$' "$out")" = 8 ] || no "rows not all checked ok: $(cat "$out")"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ gsub(/"[^"]*"/, "q"); n++; if ($c["method"] != "copier_batch" || $c["check"] != "ok") { print "FAIL: " $0; bad = 1 } }
	END { if (n != 8) { print "FAIL: " n " csv rows, want 8"; bad = 1 }; exit bad }' "$tmp/kv.csv" ||
	no "csv: $(cat "$tmp/kv.csv")"
# every batched call carries one whole list: 3 or 8 blocks, both seen
awk '{ n++; c[$5]++; if ($5 != 3 && $5 != 8) { print "FAIL: a call of " $5 " copies: " $0; bad = 1 } }
	END { if (!c[3] || !c[8]) { print "FAIL: calls of 3: " c[3] + 0 ", of 8: " c[8] + 0; bad = 1 }
	      exit bad }' "$log" || no "batched calls: $(sort "$log" | uniq -c | head)"
echo "batched calls: $(grep -c . "$log") (counts: $(awk '{print $5}' "$log" | sort -n | uniq -c | tr -s ' \n' ' '))"

GDR_DOUBLE_VERSION=12040 cannot "(CUDA 12.4) has no cuMemcpyBatchAsync" --copier=batch \
	--block=4K --batch=8 -n 20
[ -s "$out" ] && no "rows printed before the refusal: $(cat "$out")"
cat "$err"
exit $fail
