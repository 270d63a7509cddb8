#!/bin/sh
# SPDX-License-Identifier: MIT
# gdr_fabric_plan from the build folder: the rounds of the ibsim 3-tier fixture (2, all
# cables both ways, exit 0) as NIC pairs and as rank pairs; a links file with a cable
# between two leaves, which no up/down route uses (exit 1, the idle cable named); --ecmp on
# the LLDP fixture (2 up paths a leaf pair, 4 NIC pairs a round: 11 flows for eps 0.001, so
# the rounds 3 times with 1 QP, twice with 2, once with 4); bad input: one line, exit 2.
srcdir=${srcdir:-.}
fx=$srcdir/tests/unit/fabric
t=$(mktemp -d "${TMPDIR:-/tmp}/fabric-plan.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
# case NAME WANT-RC PATTERN ARGS...: the exit status and a line of stdout+stderr
case_() {
	name=$1 want=$2 pat=$3
	shift 3
	./gdr_fabric_plan "$@" >"$t/out" 2>&1
	rc=$?
	if [ "$rc" != "$want" ] || ! grep -Eq -- "$pat" "$t/out"; then
		echo "FAIL $name: rc $rc (want $want), no /$pat/ in:"
		sed 's/^/  /' "$t/out"
		fail=1
	else
		echo "ok $name"
	fi
}
case_ "3 tiers" 0 '^plan: 2 rounds' --topology=ibnetdiscover:"$fx/ft3.ibnd"
case_ "3 tiers, every cable" 0 'every cable carries data both ways' \
	--topology=ibnetdiscover:"$fx/ft3.ibnd"
case_ "3 tiers, a NIC pair" 0 '^  node0:mlx5_0 > node4:mlx5_0$' --topology=ibnetdiscover:"$fx/ft3.ibnd"
case_ "rank pairs" 0 '^0:4 1:5 2:6 3:7$' --topology=ibnetdiscover:"$fx/ft3.ibnd" --pairs-file
case_ "topology.conf" 0 '^fabric: 12 NICs on 6 hosts' --topology=slurm:"$fx/topology.conf" --rails=2
{ cat "$fx/lldp.links"; echo "rail0:40 rail1:40"; } >"$t/side.links"
case_ "a cable between leaves" 1 'idle: rail0\[40\] - rail1\[40\]' --topology=links:"$t/side.links"
case_ "ecmp" 0 '^ecmp: 3 run\(s\) of the rounds .* \(2 at most, 11 flows needed\)' \
	--topology=links:"$fx/lldp.links" --ecmp
case_ "ecmp, a copy" 0 '^round 6: round 2 again on new QPs \(new UDP source ports\), copy 2: 4 pairs' \
	--topology=links:"$fx/lldp.links" --ecmp --summary
case_ "ecmp, 2 QPs" 0 '^ecmp: 2 run\(s\) of the rounds' --topology=links:"$fx/lldp.links" \
	--ecmp=0.001 --qps=2
case_ "ecmp, 4 QPs" 0 '^ecmp: 1 run\(s\) of the rounds' --topology=links:"$fx/lldp.links" \
	--ecmp=0.001 --qps=4
case_ "bad ecmp" 2 'ecmp=1: expected --ecmp or --ecmp=EPS, 0 < EPS < 1' \
	--topology=links:"$fx/lldp.links" --ecmp=1
case_ "bad qps" 2 'qps=0: expected 1 to 64' --topology=links:"$fx/lldp.links" --ecmp --qps=0
case_ "bad kind" 2 'expected ibnetdiscover:FILE, slurm:FILE or links:FILE' --topology=x:y
case_ "bad line" 2 'bad.links:2: expected NAME:PORT NAME:PORT' --topology=links:"$fx/bad.links"
case_ "bad rails" 2 'rails=0: expected 1 to 64' --topology=slurm:"$fx/topology.conf" --rails=0
case_ "no topology" 2 '^usage: gdr_fabric_plan' --summary
exit $fail
