#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/cluster/fabemu.sh - an emulated RoCE leaf-spine fabric (tests/cluster/fabemu-net.sh:
# 3 leaves of 4 hosts, 2 spines, Linux routers in network namespaces, 12 rxe devices) in the
# Soft-RoCE VM, and gdr_write_bw --cluster --topology=links: over it under mpirun, one rank a
# host: the run must name the one slowed cable and nothing else (issue 47).
#   in the VM (tests/cluster/vm1.sh runs it):  CL_BIN=BUILD bash tests/cluster/fabemu.sh
#   from the host (boots the VM for it):       CL_BIN=$PWD/build/w bash tests/cluster/fabemu.sh [OUT]
# Steps:
#  1. routing as claimed, by the spines' packet counters: under ECMP
#     (fib_multipath_hash_policy=1) one ib_write_bw pair on 16 QPs moves data over both
#     spines; under destination routing (dmodk, the routing gdrperf's blame models) one QP's
#     data crosses only the spine its destination picks; ping crosses too.
#  2. dmodk, nothing slowed: the cluster run (--slow-pct 0) all OK; its slowest pair sets the
#     threshold (--expect-bw, its bandwidth / 2.5) and the slowed cable's rate (/ 4, shared by
#     the 2 pairs of a round that cross it: / 8 each).
#  3. one leaf-spine cable, picked from FE_SEED (default: random, printed), slowed both ways
#     with netem: exactly the pairs whose data crosses it are SLOW, and the blame names that
#     cable and nothing else (precision and recall printed); the CSV's blame cell too.
#  4. the cable restored, the same threshold: every pair OK, nothing named.
#  5. ECMP with the cable slowed (FE_ECMP=0 skips): printed, not checked: the hosts cannot
#     tell which spine a QP's hash picked, so no host-side blame can name one of parallel
#     cables there (docs/cluster.md, Tests).
# Environment: CL_BIN (folder of gdr_write_bw), CL_OUT (default $RXE_VM_OUT or ./cluster-out),
# CL_LIMIT (outer limit of one job, 600 s), FE_SEED.
# Exit status: 0 when every check passed, 1 otherwise; 77 when mpirun or perftest is missing.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [[ -z ${RXE_VM_OUT:-} && -z ${FE_IN_VM:-} ]]; then # on the host: boot the VM for it
	CL_BIN=$(readlink -f "${CL_BIN:-.}") RXE_VM_ENV="CL_BIN FE_SEED FE_ECMP" \
		RXE_VM_TIMEOUT=${RXE_VM_TIMEOUT:-1500} \
		exec bash "$here/../../scripts/ci/rxe-vm.sh" "$here/fabemu.sh" ${1:+"$1"}
fi

bin=${CL_BIN:-$PWD}
limit=${CL_LIMIT:-600}
out=${CL_OUT:-${RXE_VM_OUT:-$PWD/cluster-out}}/fabemu
mkdir -p "$out" || exit 1
for c in mpirun ib_write_bw tc ip rdma; do
	command -v $c >/dev/null || {
		echo "fabemu: SKIP: $c not found"
		exit 77
	}
done
[[ -x $bin/gdr_write_bw ]] || {
	echo "fabemu: error: $bin/gdr_write_bw not found: set CL_BIN" >&2
	exit 1
}
# shellcheck source=tests/cluster/lib.sh
source "$here/lib.sh"
# shellcheck source=tests/cluster/fabemu-net.sh
source "$here/fabemu-net.sh"
trap fe_teardown EXIT
fail() {
	echo "FAIL fabemu: $*"
	fails=$((fails + 1))
}

fe_build || {
	echo "fabemu: error: cannot build the fabric"
	exit 1
}
fe_links "$out/fabric.links"
rails=rfab0
for ((i = 1; i < fe_n; i++)); do rails=$rails,rfab$i; done
echo "fabemu: $FE_LEAVES leaves x $FE_PER hosts, $FE_SPINES spines; rails $rails"

# --- 1. routing as claimed ---
# perf PAIRNAME SRC DST ARGS...: ib_write_bw from rfabSRC to rfabDST; Gb/s on stdout
perf()
{
	local name=$1 a=$2 b=$3 gb gs t
	shift 3
	if ! gb=$(fe_gid "$b") || ! gs=$(fe_gid "$a"); then
		echo "no IPv4 GID on rfab$a or rfab$b" >"$out/$name.perf"
		return 1
	fi
	timeout 120 ib_write_bw -d "rfab$b" -x "$gb" -F --report_gbits "$@" >"$out/$name.server" 2>&1 &
	for ((t = 0; t < 60; t++)); do # the server listening (a loaded emulation starts it late)
		[[ -n $(ss -Htln 'sport = :18515') ]] && break
		sleep 1
	done
	timeout 120 ib_write_bw -d "rfab$a" -x "$gs" -F --report_gbits "$@" "10.30.$b.2" \
		>"$out/$name.perf" 2>&1
	wait
	awk '$1 == 65536 { print $4 }' "$out/$name.perf"
}
# moved SPINE LEAF BEFORE AFTER: packets spine SPINE sent down to leaf LEAF between two
# fe_spine_pkts
moved() { echo $(($(awk -v s="$1" -v l="$2" '$1 == s && $2 == l { print $3 }' <<<"$4") -
	$(awk -v s="$1" -v l="$2" '$1 == s && $2 == l { print $3 }' <<<"$3"))); }

dst=$FE_PER # host 0 of leaf 1, place 0
fe_route ecmp || fail "ecmp routes"
pingc=(ping)
command -v ping >/dev/null || pingc=(busybox ping)
"${pingc[@]}" -c 2 -W 5 -I 10.30.0.2 "10.30.$dst.2" >"$out/ping.out" 2>&1 ||
	fail "ping 10.30.0.2 -> 10.30.$dst.2: $(tail -1 "$out/ping.out")"
c0=$(fe_spine_pkts)
bw=$(perf ecmp16 0 "$dst" -s 65536 -n 16 -q 16 -t 4 -u 20)
c1=$(fe_spine_pkts)
m0=$(moved 0 1 "$c0" "$c1") m1=$(moved 1 1 "$c0" "$c1")
echo "fabemu: ecmp, rfab0 -> rfab$dst on 16 QPs: ${bw:-?} Gb/s; spine0 -> leaf1 $m0 packets, spine1 -> leaf1 $m1; backlog drops since boot $(fe_drops)"
# 16 writes of 64 packets (RoCE MTU 1024) a QP: each spine carried at least one QP's
[[ $m0 -ge 1024 && $m1 -ge 1024 ]] || fail "ecmp: both spines should carry data"

fe_route dmodk || fail "dmodk routes"
c0=$(fe_spine_pkts)
bw=$(perf dmodk 0 "$dst" -s 65536 -n 64 -t 4 -u 20)
c1=$(fe_spine_pkts)
m0=$(moved 0 1 "$c0" "$c1") m1=$(moved 1 1 "$c0" "$c1")
echo "fabemu: dmodk, rfab0 -> rfab$dst: ${bw:-?} Gb/s; spine0 -> leaf1 $m0 packets, spine1 -> leaf1 $m1; backlog drops since boot $(fe_drops)"
[[ -n $bw && $m0 -ge 4096 && $m1 -lt 64 ]] || fail "dmodk: the data should cross spine0 alone"

# --- 2..4. the cluster runs ---
# shellcheck disable=SC2054 # self,vader: one argument
launch=(mpirun -q --allow-run-as-root --oversubscribe -np "$fe_n" --mca pml ob1 --mca btl self,vader
	--mca btl_vader_single_copy_mechanism none --mca mpi_yield_when_idle 1)
# a short window (-t 4: 256 packets of a QP in flight) and a long ack timeout (-u 20: 4.3 s):
# rxe's default window of 128 x 64 KiB floods the emulated routers, and the acks of a
# loaded emulation come late; either way go-back-N retransmissions would swamp the fabric
args=(gdr_write_bw --rails "$rails" --topology=links:"$out/fabric.links" -W -s 64K -n 16 -t 4
	-u 20 --timeout 60)
# crosses SERVER CLIENT L S: 1 when the pair's data (client -> server) crosses cable L-S under dmodk
crosses()
{
	local src=$2 dst=$1
	local ls=$((src / FE_PER)) ld=$((dst / FE_PER))
	[[ $ls -ne $ld && ($ls -eq $3 || $ld -eq $3) && $(((dst % FE_PER) % FE_SPINES)) -eq $4 ]]
}
# truth NAME L S: each row SLOW exactly when its pair's data crosses cable L-S (L -1: none)
truth()
{
	local name=$1 a b st bad=0 rows=0 want
	while IFS=, read -r a b st; do
		rows=$((rows + 1))
		want=OK
		[[ $2 -ge 0 ]] && crosses "$a" "$b" "$2" "$3" && want=SLOW
		if [[ $st != "$want" ]]; then
			echo "    rank $a <- rank $b: $st, want $want"
			bad=$((bad + 1))
		fi
	done < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ print $c["rail_a"] "," $c["rail_b"] "," $c["status"] }' "$out/$name.csv")
	echo "  $name: $rows rows, $bad not as the slowed cable says"
	[[ $rows -gt 0 && $bad -eq 0 ]] || fail "$name: rows"
}
# named NAME CABLE: print the blame's precision and recall against CABLE (empty: none slowed);
# 0 when it names that cable alone (or, none slowed, nothing)
named()
{
	local name=$1 cable=$2 n tp want
	n=$(grep -c '^blame: ' "$out/$name.out")
	tp=0
	[[ -n $cable ]] && tp=$(grep '^blame: ' "$out/$name.out" | grep -cF "cable $cable: ")
	grep '^blame: ' "$out/$name.out" | sed "s/^/  $name: /"
	awk -v n="$n" -v tp="$tp" -v t="${cable:+1}" -v name="$name" 'BEGIN {
		printf "  %s: blame named %d part(s), %d of them the slowed cable: precision %s, recall %s\n",
			name, n, tp, n ? sprintf("%.2f", tp / n) : "- (none named)",
			t ? sprintf("%.2f", tp / t) : "- (none slowed)" }'
	want=0
	[[ -n $cable ]] && want=1
	[[ $n -eq $want && $tp -eq $want ]]
}

job calib 0 "${args[@]}" --slow-pct 0 && truth calib -1 -1
# each pair's Gb/s from its bytes, iterations and seconds (the CSV's bw_gbps has 3 decimals)
minbw=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["seconds"] > 0 { g = $c["bytes"] * $c["iterations"] * 8 / $c["seconds"] / 1e9
		if (min == "" || g < min) min = g } END { printf "%.6f", min }' "$out/calib.csv")
if ! awk -v m="$minbw" 'BEGIN { exit !(m > 0) }'; then
	fail "calib: no bandwidth to set the threshold from"
	exit 1
fi
expect=$(awk -v m="$minbw" 'BEGIN { printf "%.6f", m / 2.5 }')
rate=$(awk -v m="$minbw" 'BEGIN { printf "%dkbit", m * 1e6 / 4 }')
seed=${FE_SEED:-$(od -An -N2 -tu2 /dev/urandom | tr -d ' ')}
cl=$((seed % FE_LEAVES)) cs=$((seed / FE_LEAVES % FE_SPINES))
cable=$(fe_cable_name $cl $cs)
echo "fabemu: slowest calibration pair $minbw Gb/s: --expect-bw $expect, the slowed cable's rate $rate"
echo "fabemu: seed $seed (FE_SEED=$seed repeats it): slowed cable $cable"

fe_slow $cl $cs "$rate" || fail "tc netem on $cable"
job slow 1 "${args[@]}" --slow-pct 0 --expect-bw "$expect" && truth slow $cl $cs
named slow "$cable" || fail "slow: the blame should name $cable and nothing else"
# shellcheck disable=SC2016 # an awk condition
rows slow "$(awk 'END { print NR - 1 }' "$out/slow.csv")" \
	'($col["status"] == "SLOW") == (index($0, "cable '"$cable"': ") > 0)'

fe_unslow $cl $cs
job control 0 "${args[@]}" --slow-pct 0 --expect-bw "$expect" && truth control -1 -1
named control "" || fail "control: nothing slowed, nothing should be named"

if [[ ${FE_ECMP:-1} != 0 ]]; then
	fe_route ecmp && fe_slow $cl $cs "$rate"
	job ecmp any "${args[@]}" --slow-pct 0 --expect-bw "$expect"
	echo "  ecmp (printed, not checked: a QP's spine is its hash's pick, unknown to the hosts):"
	named ecmp "$cable" || true
	fe_unslow $cl $cs
fi

echo "fabemu: $fails failure(s)"
[[ $fails -eq 0 ]]
