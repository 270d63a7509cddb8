#!/bin/bash
# SPDX-License-Identifier: MIT
# The sm copier against its anchor, side by side, in one run on one GPU (issue 33): the minimal
# persistent copy kernel of ../shared/probes (sm_percopy_probe.cu: one doorbell, one copy, one
# ack) and gdrperf's sm copier (tests/cuda/sm_bench with GDR_SM_BENCH=percopy: the same one copy
# at a time, doorbell to acknowledgement, through the copier interface the staged path uses),
# median and p99 per copy at 8 B..64 KiB, host-to-device and device-to-host, with the ratios and
# the copy engine's per-copy time from the same sm_bench run.
# Usage: sm-anchor.sh SM_BENCH_BINARY [ITERATIONS]   (PROBES=dir of sm_percopy_probe.cu,
# default ../shared/probes; NVCC, SM_ARCH as anchors.sh). Prints the table last; a line
# "sm-anchor: ..." per criterion: median within 1.1x and p99 within 1.3x of the anchor's at
# 8 B-4 KiB, and not slower than the copy engine at 16-64 KiB.
# ROUNDS=R (default 1): the anchor and the product run R times, in turn, and each figure of the
# table is the median of its R rounds (the anchor's own median moved by up to 13% from one run
# to the next within one call on the H200, 2026-11-27): every round's figures are printed too.
set -u
bench=${1:?usage: sm-anchor.sh SM_BENCH_BINARY [ITERATIONS]}
n=${2:-20000}
probes=${PROBES:-../shared/probes}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
arch=${SM_ARCH:-sm_90}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ldconfig -p | grep -q 'libcuda.so.1 ' || export LD_LIBRARY_PATH=/usr/local/nvidia/lib64
echo "# $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(date -u '+%Y-%m-%d %H:%M UTC')"
"$nvcc" -O2 -arch="$arch" -o "$tmp/probe" "$probes/sm_percopy_probe.cu" || exit 1
rounds=${ROUNDS:-1}
for ((r = 1; r <= rounds; r++)); do
	"$tmp/probe" "$n" >"$tmp/anchor.csv" || { cat "$tmp/anchor.csv"; exit 1; }
	GDR_SM_BENCH=percopy "$bench" "$n" >"$tmp/product.csv" || { cat "$tmp/product.csv"; exit 1; }
	sed "s/^/# anchor $r: /" "$tmp/anchor.csv"
	sed "s/^/# product $r: /" "$tmp/product.csv"
	grep -E '^[0-9]+,sm,(h2d|d2h),' "$tmp/anchor.csv" >>"$tmp/anchors.csv"
	grep -E '^percopy,[0-9]+,' "$tmp/product.csv" >>"$tmp/products.csv"
done
awk -F, '
	# med(list): the median of a space-separated list (the lower middle when even)
	function med(l,   v, c, i, j, t) {
		c = split(l, v, " ")
		for (i = 2; i <= c; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		return v[int((c + 1) / 2)]
	}
	FNR == NR { k = $1 "," $3; am[k] = am[k] " " $4; ap[k] = ap[k] " " $5; next }
	{ k = $2 "," $3; if (!(k in sm)) order[++nk] = k; sm[k] = sm[k] " " $4; sp[k] = sp[k] " " $5; ce[k] = ce[k] " " $6 }
	END {
		printf "%-7s %-4s %9s %9s %6s %9s %9s %6s %9s\n", "#bytes", "dir", "anchor_med", "sm_med", "ratio", "anchor_p99", "sm_p99", "ratio", "ce_med"
		for (i = 1; i <= nk; i++) {
			k = order[i]
			if (!(k in am)) continue
			split(k, f, ",")
			a = med(am[k]); m = med(sm[k]); pa = med(ap[k]); pm = med(sp[k]); c = med(ce[k])
			rm = m / a; rp = pm / pa
			printf "%-7s %-4s %9.2f %9.2f %6.2f %9.2f %9.2f %6.2f %9.2f\n", f[1], f[2], a, m, rm, pa, pm, rp, c
			if (f[1] <= 4096) {
				if (rm > 1.1 || rp > 1.3) bad++
				small++
			} else {
				if (m > c) slow++
				big++
			}
		}
		if (rounds > 1) printf "sm-anchor: each figure is the median of %d rounds\n", rounds
		printf "sm-anchor: 8 B-4 KiB, median <= 1.1x and p99 <= 1.3x the anchor: %s (%d of %d rows outside)\n", small && !bad ? "yes" : "NO", bad, small
		printf "sm-anchor: 16-64 KiB, sm median <= copy engine median: %s (%d of %d rows slower)\n", big && !slow ? "yes" : "NO", slow, big
		exit (!small || bad || !big || slow) ? 1 : 0
	}' rounds="$rounds" "$tmp/anchors.csv" "$tmp/products.csv"
