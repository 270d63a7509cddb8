#!/bin/sh
# SPDX-License-Identifier: MIT
# The fabric planner's time at scale (issue 47): writes links files for
# 10,000 hosts x 8 rails (rail-optimized: each rail its own plane), 2 tiers
# (16 NICs and 16 uplinks a leaf) and 3 tiers (pods of 25 leaves, 16
# aggregation switches a pod, 8 cores above each), and times gdr_fabric_plan
# on each: reading, indexing and planning (wall), and the planning alone (the
# planner's own "planned in" line). A benchmark, not a test: nothing is asserted.
# Usage: scripts/bench/bench-fabric-plan.sh [BUILD-DIR] [HOSTS] [RAILS]
set -eu
build=${1:-build/w}
hosts=${2:-10000}
rails=${3:-8}
plan=$build/gdr_fabric_plan
[ -x "$plan" ] || { echo "bench-fabric-plan: $plan: not built (make gdr_fabric_plan)" >&2; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/fabric-plan.XXXXXX")
trap 'rm -rf "$t"' EXIT

# gen TIERS: the links file on stdout
gen() {
	awk -v tiers="$1" -v hosts="$hosts" -v rails="$rails" 'BEGIN {
		per = 16; up = 16; podl = 25; cup = 8
		leaves = int((hosts + per - 1) / per)
		for (r = 0; r < rails; r++) {
			for (h = 0; h < hosts; h++)
				printf "n%05d:mlx5_%d r%d-leaf%d:%d\n", h, r, r, int(h / per), h % per + 1
			for (l = 0; l < leaves; l++)
				for (u = 0; u < up; u++)
					if (tiers == 2)
						printf "r%d-leaf%d:%d r%d-spine%d:%d\n", r, l, per + 1 + u, r, u, l + 1
					else
						printf "r%d-leaf%d:%d r%d-pod%d-agg%d:%d\n", r, l, per + 1 + u, r, int(l / podl), u, l % podl + 1
			if (tiers == 3)
				for (p = 0; p * podl < leaves; p++)
					for (a = 0; a < up; a++)
						for (c = 0; c < cup; c++)
							printf "r%d-pod%d-agg%d:%d r%d-core%d:%d\n", r, p, a, podl + 1 + c, r, a * cup + c, p + 1
		}
	}'
}

for tiers in 2 3; do
	gen $tiers >"$t/links"
	echo "== $hosts hosts x $rails rails, $tiers tiers, rail-optimized ($(wc -l <"$t/links") cables)"
	start=$(date +%s.%N)
	"$plan" --topology=links:"$t/links" --summary 2>"$t/err" | sed -n '1,3p'
	end=$(date +%s.%N)
	cat "$t/err"
	echo "read + index + plan: $(echo "$end - $start" | bc) s wall"
done
