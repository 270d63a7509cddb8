#!/bin/sh
# SPDX-License-Identifier: MIT
# Regenerates the ibnetdiscover fixtures of t_fabric from simulated fabrics:
# Debian's ibsim-utils (ibsim) and infiniband-diags (ibnetdiscover, run under
# ibsim's libumad2sim). Usage: tests/unit/fabric/mk-ibsim.sh (in this folder).
#   ft2-rail2: 2 rails, each its own 2-tier plane: 2 leaves x 2 hosts, 2 spines
#   ft3: 3 tiers: 2 pods of 2 leaves x 2 hosts and 2 aggregation switches, 4 cores
set -eu
cd "$(dirname "$0")"
sim=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
command -v ibsim >/dev/null && [ -r "$sim" ] && command -v ibnetdiscover >/dev/null || {
	echo "mk-ibsim.sh: needs ibsim-utils and infiniband-diags" >&2; exit 1; }

# one rail plane (r = $1): each plane is a fabric of its own, discovered on its own
ft2_rail() {
	for r in $1; do
		for s in 0 1; do
			printf 'Switch\t8 "r%d-spine%d"\n' $r $s
			for l in 0 1; do printf '[%d]\t"r%d-leaf%d"[%d]\n' $((l + 1)) $r $l $((s + 5)); done
			echo
		done
		for l in 0 1; do
			printf 'Switch\t8 "r%d-leaf%d"\n' $r $l
			for h in 0 1; do printf '[%d]\t"node%d mlx5_%d"[1]\n' $((h + 1)) $((2 * l + h)) $r; done
			for s in 0 1; do printf '[%d]\t"r%d-spine%d"[%d]\n' $((s + 5)) $r $s $((l + 1)); done
			echo
		done
		for l in 0 1; do for h in 0 1; do
			printf 'Hca\t1 "node%d mlx5_%d"\n[1]\t"r%d-leaf%d"[%d]\n\n' $((2 * l + h)) $r $r $l $((h + 1))
		done; done
	done
}

ft3() {
	for c in 0 1 2 3; do
		printf 'Switch\t8 "core%d"\n' $c
		for p in 0 1; do printf '[%d]\t"p%d-agg%d"[%d]\n' $((p + 1)) $p $((c / 2)) $((c % 2 + 3)); done
		echo
	done
	for p in 0 1; do
		for a in 0 1; do
			printf 'Switch\t8 "p%d-agg%d"\n' $p $a
			for l in 0 1; do printf '[%d]\t"p%d-leaf%d"[%d]\n' $((l + 1)) $p $l $((a + 3)); done
			for k in 0 1; do printf '[%d]\t"core%d"[%d]\n' $((k + 3)) $((2 * a + k)) $((p + 1)); done
			echo
		done
		for l in 0 1; do
			printf 'Switch\t8 "p%d-leaf%d"\n' $p $l
			for h in 0 1; do printf '[%d]\t"node%d mlx5_0"[1]\n' $((h + 1)) $((4 * p + 2 * l + h)); done
			for a in 0 1; do printf '[%d]\t"p%d-agg%d"[%d]\n' $((a + 3)) $p $a $((l + 1)); done
			echo
		done
		for l in 0 1; do for h in 0 1; do
			printf 'Hca\t1 "node%d mlx5_0"\n[1]\t"p%d-leaf%d"[%d]\n\n' $((4 * p + 2 * l + h)) $p $l $((h + 1))
		done; done
	done
}

# discover NAME: ibsim on NAME.net, ibnetdiscover's text on stdout
discover() {
	ibsim -s "$1.net" >/dev/null 2>&1 &
	pid=$!
	sleep 2
	LD_PRELOAD=$sim ibnetdiscover 2>/dev/null | grep -v '^# Topology file: generated on'
	kill $pid
	wait $pid 2>/dev/null || true
}

ft3 >ft3.net
discover ft3 >ft3.ibnd
# A rail-optimized fabric is discovered plane by plane (ibnetdiscover -C mlx5_R) and the
# outputs concatenated. ibsim numbers GUIDs from the same base in every run, so rail 1's
# are moved (S-000000..., H-000000... to S-000001..., H-000001...) as two real planes differ.
ft2_rail 0 >ft2-rail0.net
ft2_rail 1 >ft2-rail1.net
{
	discover ft2-rail0
	discover ft2-rail1 | sed 's/\([SH]\)-000000/\1-000001/g'
} >ft2-rail2.ibnd
rm -f ft2-rail2.net
