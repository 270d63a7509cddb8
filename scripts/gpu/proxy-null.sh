#!/bin/bash
# SPDX-License-Identifier: MIT
# The gpu-proxy path's null-NIC leg against its anchor, in one run on one GPU (issue 37): the
# minimal kernel and proxy of ../shared/probes (gpu_proxy_probe.cu through anchors.sh proxy: one
# kernel thread, a system fence per descriptor, one proxy thread) and gdrperf's gdr_proxy_bw
# (src/gproxy: the same leg through the product's kernel, queues and proxy threads), ROUNDS times
# each (default 2), interleaved; then the ratios: latency median and p99 (GPU globaltimer)
# against the anchor's of the same round,
# the descriptor rate of one proxy thread against the anchor's at the same window, and the
# rates with 2 and 4 proxy threads and with batches under one fence.
# Usage, from the repository root of a build: proxy-null.sh GDR_PROXY_BW [ITERATIONS]
# (PROBES=dir of anchors.sh, default ../shared/probes; NVCC, SM_ARCH as anchors.sh).
# Prints the runs, then the table, then one line "proxy-null: ..." per criterion: latency median
# within 1.2x of the anchor's (the median over rounds of each round's ratio, as sm-anchor.sh: one
# round's pair moves 1.03-1.22x between rounds on an idle H200; every round's ratio is printed),
# one proxy thread's rate above the anchor's at every window (each side's best round).
set -u
bench=${1:?usage: proxy-null.sh GDR_PROXY_BW [ITERATIONS]}
n=${2:-20000}
probes=${PROBES:-../shared/probes}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ldconfig -p | grep -q 'libcuda.so.1 ' || export LD_LIBRARY_PATH=/usr/local/nvidia/lib64
echo "# $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(nproc) CPUs; $(date -u '+%Y-%m-%d %H:%M UTC')"
rounds=${ROUNDS:-2}
for r in $(seq 1 "$rounds"); do
	bash "$probes/anchors.sh" proxy "$n" >"$tmp/anchor$r.csv" 2>&1 || { cat "$tmp/anchor$r.csv"; exit 1; }
	"$bench" -n "$n" >"$tmp/product$r.csv" 2>&1 || { cat "$tmp/product$r.csv"; exit 1; }
	sed "s/^/# anchor run $r: /" "$tmp/anchor$r.csv"
	sed "s/^/# product run $r: /" "$tmp/product$r.csv"
done
# anchor: latency,1,N,median,p99,- and rate,W,N,-,-,rate; product: gdr_proxy_bw's CSV
awk -F, '
	FILENAME ~ /anchor/ && $1 == "latency" { am[++na] = $4; ap[na] = $5; next }
	FILENAME ~ /anchor/ && $1 == "rate" { ar[$2] = ar[$2] == "" || $6 > ar[$2] ? $6 : ar[$2]; next }
	FILENAME ~ /product/ && $1 == "latency" { pm[++np] = $6; pp[np] = $7; hm[np] = $8; hp[np] = $9; next }
	FILENAME ~ /product/ && $1 == "rate" { k = $2 "," $3 "," $4; if (!(k in pr)) ord[++nk] = k; pr[k] = pr[k] == "" || $10 > pr[k] ? $10 : pr[k] }
	END {
		printf "%-30s %10s %10s %7s\n", "# latency (us, GPU clock)", "anchor", "product", "ratio"
		for (i = 1; i <= np && i <= na; i++) {
			printf "%-30s %10.2f %10.2f %7.2f\n", "median, run " i, am[i], pm[i], pm[i] / am[i]
			printf "%-30s %10.2f %10.2f %7.2f\n", "p99, run " i, ap[i], pp[i], pp[i] / ap[i]
			printf "%-30s %10s %10.2f\n", "host clock median, run " i, "-", hm[i]
			rat[i] = pm[i] / am[i]
		}
		# the median of the rounds ratios (sorted by insertion)
		nr = (np < na ? np : na)
		for (i = 1; i <= nr; i++)
			for (j = i; j > 1 && rat[j - 1] > rat[j]; j--) { t = rat[j]; rat[j] = rat[j - 1]; rat[j - 1] = t }
		med = nr % 2 ? rat[(nr + 1) / 2] : (rat[nr / 2] + rat[nr / 2 + 1]) / 2
		if (nr) printf "%-30s %10s %10s %7.2f (rounds %.2f-%.2f)\n", "median ratio over " nr " rounds", "", "", med, rat[1], rat[nr]
		latbad = !nr || med > 1.2
		printf "%-30s %10s %10s %7s\n", "# rate (M descriptors/s)", "anchor", "product", "ratio"
		for (j = 1; j <= nk; j++) {
			k = ord[j]
			split(k, f, ",")
			a = ar[f[2]]
			printf "%-30s %10s %10.3f %7s\n", "threads " f[1] " window " f[2] " batch " f[3], a == "" ? "-" : sprintf("%.3f", a / 1e6), pr[k] / 1e6, a == "" ? "-" : sprintf("%.2f", pr[k] / a)
			if (f[1] == 1 && f[3] == 1 && a != "") { one++; if (pr[k] <= a) ratebad++ }
		}
		printf "proxy-null: latency median within 1.2x of the anchor (GPU clock, median of the rounds ratios): %s\n", np && !latbad ? "yes" : "NO"
		printf "proxy-null: one proxy thread, a fence per descriptor, above the anchor at every window: %s (%d of %d windows not)\n", one && !ratebad ? "yes" : "NO", ratebad, one
		exit (!np || latbad || !one || ratebad) ? 1 : 0
	}' $(for r in $(seq 1 "$rounds"); do echo "$tmp/anchor$r.csv"; done) $(for r in $(seq 1 "$rounds"); do echo "$tmp/product$r.csv"; done)
