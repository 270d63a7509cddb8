#!/bin/sh
# SPDX-License-Identifier: MIT
# gdr_stage_bw --block on the CUDA driver double (docs/kv.md): two blocks x two batches, random
# placement, the copy engine's block lists gathered (d2h) and scattered (h2d) beside one
# contiguous copy of the same bytes. Each of the 8 rows is checked (one batch byte for byte at
# its offsets before timing: "ok"), and the CSV has the kv-gather.csv shape keys (dir, block_B,
# batch, method) with rates > 0, the median between the slowest and fastest samples,
# blocks/s = batch / us and eff = contig_median_us / median_us (to the CSV's rounding).
# (That the check before timing catches a wrong copy was seen by hand with the double's
# ordering broken, GDR_DOUBLE_UNORDERED=1: "gather check failed: block 0 of 16384 x 8 ...";
# not here: the double's lying sync leaves its threads writing after exit, as docs/kv.md says
# of t_copier_list. tests/unit/t_stage_kv checks the loop's offsets with the memcpy copier.)
set -u
. "${srcdir:-.}/tests/cuda/double-env.sh"
. "${srcdir:-.}/tests/cuda/stage-prelude.sh"
export GDR_DOUBLE_DELAY_US=20

run 0 --block=4K,16K --batch=1,8 --place=random:3 -n 20 --reps=3 --streams=2 --csv="$tmp/kv.csv"
rows=$(grep -Ec '^(gather|scatter) ' "$out")
[ "$rows" = 8 ] || no "$rows rows, want 8: $(cat "$out")"
[ "$(grep -Ec ' ok$' "$out")" = 8 ] || no "rows not all checked ok: $(cat "$out")"
awk -F, '
function fail(m) { print "FAIL: csv line " NR ": " m; bad = 1 }
NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i
	  if (!c["dir"] || !c["block_B"] || !c["batch"] || !c["method"]) fail("no shape keys: " $0)
	  next }
{ gsub(/"[^"]*"/, "q") }
{ n++; seen[$c["dir"] "/" $c["block_B"] "/" $c["batch"]] = 1
  if ($c["method"] != "copier_ce") fail("method " $c["method"])
  if ($c["dir"] == "gather" && $c["copy_dir"] != "d2h") fail("gather not d2h")
  if ($c["dir"] == "scatter" && $c["copy_dir"] != "h2d") fail("scatter not h2d")
  if (!($c["GBps"] > 0 && $c["contig_GBps"] > 0 && $c["GBps_min"] <= $c["GBps"] && $c["GBps"] <= $c["GBps_max"]))
	fail("rates " $c["GBps"] " " $c["GBps_min"] " " $c["GBps_max"] " " $c["contig_GBps"])
  b = $c["batch"] / $c["median_us"] * 1e6; d = b / $c["blocks_per_s"] - 1
  if (d > 0.001 || d < -0.001) fail("blocks/s " $c["blocks_per_s"] ", batch/us gives " b)
  e = $c["contig_median_us"] / $c["median_us"] / $c["eff_vs_contig"] - 1
  if (e > 0.002 || e < -0.002) fail("eff " $c["eff_vs_contig"] ", the times give " e + 1)
  if ($c["samples"] != 3 || $c["batches"] != 20 || $c["place"] != "random:3" || $c["check"] != "ok") fail($0)
  if ($c["pool_B"] != 2 * 16384 * 8) fail("pool " $c["pool_B"] ", want 2 x 16K x 8") }
END { if (n != 8) fail(n " rows, want 8")
      for (k in seen) m++
      if (m != 8) fail(m " distinct dir/block/batch, want 8")
      exit bad }' "$tmp/kv.csv" || no "csv: $(cat "$tmp/kv.csv")"

# the sm copier's lists (its kernel's block table): blocks under and over its one-part split,
# each row checked at its offsets before timing, method copier_sm in the CSV
run 0 --copier=sm --block=4K,64K --batch=1,8 --place=random:3 -n 10 --reps=2 --streams=2 \
	--csv="$tmp/sm.csv"
[ "$(grep -Ec '^(gather|scatter) .* ok$' "$out")" = 8 ] || no "sm: rows not all checked ok: $(cat "$out")"
[ "$(grep -c ',copier_sm,' "$tmp/sm.csv")" = 8 ] || no "sm: csv rows: $(cat "$tmp/sm.csv")"

exit $fail
