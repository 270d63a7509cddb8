#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/cluster/vm-stall.sh - a rank whose MPI network stalls (issue 34.12), in the VM of
# scripts/ci/rxe-vm.sh (not in CI: about 4 minutes of emulation):
#   RXE_VM_ENV="CL_BIN" CL_BIN=$PWD/build/mpi bash scripts/ci/rxe-vm.sh tests/cluster/vm-stall.sh OUT
# 4 ranks on rxe0 under mpirun, MPI's traffic over TCP on lo (btl self,tcp). Once round 1 is
# in the CSV, every TCP port rank 3 holds for MPI's data (its listening port and its
# connections; not the launcher's own channel) drops every packet (tc netem loss 100% on
# lo): rank 3 is alive but nothing it sends or is sent arrives, as on a node whose network
# stalled. Checked: rank 0 counts rank 3 lost, finishes the other rounds and writes its
# CSV and JSON; ranks 0-2 end by themselves; rank 3 ends within its bound (twice the
# round's limit + 10 s, then MPI_Abort, itself bounded); the job ends before the outer
# limit. Times of each end in OUT/stall/times.txt.
set -uo pipefail

bin=${CL_BIN:-$PWD}
limit=${CL_LIMIT:-600}
out=${CL_OUT:-${RXE_VM_OUT:-$PWD/cluster-out}}/stall
mkdir -p "$out" || exit 1
command -v mpirun >/dev/null || { echo "stall: SKIP: mpirun not found"; exit 77; }
modprobe sch_netem && modprobe sch_prio && modprobe cls_u32 || { echo "stall: no netem"; exit 1; }
tc qdisc add dev lo root handle 1: prio && tc qdisc add dev lo parent 1:3 handle 30: netem loss 100% ||
	{ echo "stall: tc on lo failed"; exit 1; }
export STALL_CSV=$out/stall.csv STALL_OUT=$out
rm -f "$out"/*
cat >"$out/rank.sh" <<'RANK'
#!/bin/bash
rank=$OMPI_COMM_WORLD_RANK
t0=$(date +%s)
if [[ $rank == 3 ]]; then
	"$@" &
	pid=$!
	for ((i = 0; i < 3000; i++)); do
		[[ -e $STALL_CSV ]] && (($(wc -l <"$STALL_CSV") >= 2)) && break
		sleep 0.1
	done
	ports=$(ss -tanp | awk -v p="pid=$pid," 'index($0, p) { n = split($4, a, ":"); print a[n] }' | sort -u)
	for port in $ports; do
		tc filter add dev lo parent 1: protocol ip prio 1 u32 match ip sport "$port" 0xffff flowid 1:3
		tc filter add dev lo parent 1: protocol ip prio 1 u32 match ip dport "$port" 0xffff flowid 1:3
	done
	echo "rank 3: MPI ports $(echo $ports) stalled at $(date +%s)" >>"$STALL_OUT/times.txt"
	wait $pid
	rc=$?
else
	"$@"
	rc=$?
fi
echo "rank $rank exit $rc after $(($(date +%s) - t0)) s" >>"$STALL_OUT/times.txt"
exit $rc
RANK
chmod +x "$out/rank.sh"
t0=$(date +%s)
timeout "$limit" mpirun --allow-run-as-root --oversubscribe -np 4 --mca pml ob1 --mca btl self,tcp \
	--mca btl_tcp_if_include lo --enable-recovery --mca orte_abort_on_non_zero_status 0 \
	"$out/rank.sh" "$bin/gdr_write_bw" --cluster --same-host -d rxe0 -s 4K -D 2 --timeout 10 \
	--slow-pct 0 --csv "$STALL_CSV" >"$out/stall.out" 2>&1
rc=$?
echo "mpirun exit $rc after $(($(date +%s) - t0)) s (outer limit $limit s)" | tee -a "$out/times.txt"
tc -s qdisc show dev lo | grep -A2 netem >>"$out/times.txt"
cat "$out/times.txt"
fails=0
((rc != 124)) || { echo "FAIL stall: the job hung until the outer limit"; fails=$((fails + 1)); }
grep -q "^rank 3 lost" "$out/stall.out" || { echo "FAIL stall: rank 0 did not count rank 3 lost"; fails=$((fails + 1)); }
[[ -s $out/stall.json ]] && grep -q '^results: ' "$out/stall.out" ||
	{ echo "FAIL stall: rank 0 wrote no results"; fails=$((fails + 1)); }
for r in 0 1 2 3; do
	grep -q "^rank $r exit" "$out/times.txt" || { echo "FAIL stall: rank $r never ended"; fails=$((fails + 1)); }
done
tail -25 "$out/stall.out"
echo "stall: $fails failure(s)"
((fails == 0))
