# SPDX-License-Identifier: MIT
# awk -F, -f kv-join.awk kv-gather.csv kv-copiers-*.csv: one line per (dir, block_B, batch)
# that the copiers measured, the anchors' GB/s (kernel, ce per block, the driver's batched
# copy, contig) beside the copiers' (gdr_stage_bw --block: method copier_NAME) and the
# copier's over the anchors' ce per block (copier_batch: over the anchors' batched copy, the
# same driver call). Files are told apart by their header's columns.
/^#/ { next }
/^dir,/ {
	split("", c)
	for (i = 1; i <= NF; i++)
		c[$i] = i
	next
}
!("method" in c) { next }
{
	k = $c["dir"] "," $c["block_B"] "," $c["batch"]
	m = $c["method"]
	gb[k, m] = $c["GBps"]
	if (m ~ /^copier_/) {
		if (!(k in seen)) {
			seen[k] = 1
			order[++n] = k
		}
		if (!(m in cop))
			copn[++nc] = m
		cop[m] = 1
	}
}
END {
	printf "%-8s %-8s %-6s %-8s %-8s %-8s %-8s", "dir", "block_B", "batch", "kernel", "ce/blk",
	       "batch", "contig"
	for (q = 1; q <= nc; q++)
		printf " %-15s %-11s", copn[q], copn[q] (copn[q] == "copier_batch" ? "/batch" : "/ce")
	printf "\n"
	for (i = 1; i <= n; i++) {
		split(order[i], p, ",")
		printf "%-8s %-8s %-6s", p[1], p[2], p[3]
		split("kernel ce batch contig", am, " ")
		for (j = 1; j <= 4; j++)
			printf " %-8s", ((order[i], am[j]) in gb) ? gb[order[i], am[j]] : "-"
		for (q = 1; q <= nc; q++) {
			m = copn[q]
			v = ((order[i], m) in gb) ? gb[order[i], m] : ""
			r = m == "copier_batch" ? "batch" : "ce"
			a = ((order[i], r) in gb) ? gb[order[i], r] : ""
			printf " %-15s %-11s", v == "" ? "-" : sprintf("%.2f", v),
			       (v != "" && a > 0) ? sprintf("%.2f", v / a) : "-"
		}
		printf "\n"
	}
}
