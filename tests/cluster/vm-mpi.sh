#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/cluster/vm-mpi.sh - cluster mode (--cluster) under Open MPI's mpirun on one host
# with an RDMA device: 4 ranks on one device (--same-host), normally rxe0 inside the VM
# of scripts/ci/rxe-vm.sh:
#   RXE_VM_ENV="CL_BIN" CL_BIN=$PWD/build/w bash scripts/ci/rxe-vm.sh tests/cluster/vm-mpi.sh OUT
# Cases (--slow-pct 0 where every pair must be OK: ranks that share two emulated CPUs
# measure too unevenly for the relative rule): docs/cluster.md's one-node example as
# written (default --slow-pct: the ranks share rxe0, so the relative rule leaves every row
# out and says so; exit 0, no suspect node), a bandwidth job whose every pair is OK
# (exit 0), a latency job (quick pattern), a -R (rdma_cm) job (each rank's address named
# as where it listens and connects from), a threshold nobody meets (every row SLOW, exit 1,
# a suspect rail but no suspect node on one host, under mpirun -q: no abort banner),
# --expect-bw=auto (90% of the port's rate: SLOW; 0.1%: OK), -W (the counters column and the
# summary's counters beside SLOW pairs), one rank on a device that does not exist (its pairs FAIL, the others OK, exit 1), and MPI refusing a launcher/world
# mismatch (exit 2).
# Environment: CL_BIN (folder of gdr_write_bw, default .), CL_DEV (rxe0), CL_NP (4),
# CL_OUT (default $RXE_VM_OUT or ./cluster-out), CL_LIMIT (outer limit of one job in
# seconds, 600: the emulated VM is slow, and slower on a loaded host).
# Exit status: 0 when every case passed, 1 otherwise; 77 when mpirun is missing.
set -uo pipefail

bin=${CL_BIN:-$PWD}
dev=${CL_DEV:-rxe0}
np=${CL_NP:-4}
limit=${CL_LIMIT:-600}
out=${CL_OUT:-${RXE_VM_OUT:-$PWD/cluster-out}}/cluster
mkdir -p "$out" || exit 1
command -v mpirun >/dev/null || {
	echo "cluster: SKIP: mpirun not found (scripts/ci/deps.sh cluster installs Open MPI)"
	exit 77
}
[[ -x $bin/gdr_write_bw ]] || {
	echo "cluster: error: $bin/gdr_write_bw not found: set CL_BIN" >&2
	exit 1
}
# shellcheck source=tests/cluster/lib.sh
source "$(dirname "$0")/lib.sh"
# MPI's own traffic stays off the device under test: shared memory between local ranks
launch=(mpirun --allow-run-as-root --oversubscribe -np "$np" --mca pml ob1 --mca btl self,vader
	--mca btl_vader_single_copy_mechanism none)

pairs=$((np * (np - 1) / 2))
# docs/cluster.md: mpirun -q --allow-run-as-root -np 4 gdr_write_bw --cluster --same-host -d rxe0 -s 64K -n 200
job doc 0 gdr_write_bw -d "$dev" -s 64K -n 200 &&
	rows doc "$pairs" '$col["status"] == "OK" && $col["slow_rule"] == "slow-pct=90"' &&
	has doc "the relative rule left out $pairs OK row\(s\) whose NIC carried another pair" &&
	lacks doc "suspect node|aborted"

job bw 0 gdr_write_bw -d "$dev" -s 4K -n 50 --slow-pct 0 &&
	rows bw "$pairs" '$col["status"] == "OK" && $col["bw_gbps"] > 0 && $col["iterations"] > 0' &&
	has bw "^round $((np - 1 + np % 2))/"

# (on AMD GPU memory: --use_rocm=auto over the HIP runtime double, docs/rocm.md; every pair
# with its data checked, the CSV naming each rank's GPU as rocm:PCI)
export GDR_LIBHIP=$bin/tests/hip_double/libamdhip64.so.6 GDR_LIBHSA=$bin/tests/hip_double/libamdhip64.so.6
job lat 0 gdr_send_lat -d "$dev" -s 64 -n 100 --pattern quick --slow-pct 0 --use_rocm=auto --validate &&
	rows lat $((np / 2)) '$col["status"] == "OK" && $col["lat_median_us"] > 0 &&
		$col["lat_p99_us"] >= $col["lat_median_us"] && $col["gpu_a"] ~ /^rocm:0000:/ &&
		$col["gpu_b"] ~ /^rocm:0000:/'
unset GDR_LIBHIP GDR_LIBHSA

# -R: rdma_cm between the ranks, each server rank on its port's address and its own port
job cm 0 gdr_write_bw -d "$dev" -R -s 4K -n 50 --pattern quick --slow-pct 0 &&
	rows cm $((np / 2)) '$col["status"] == "OK" && $col["bw_gbps"] > 0' &&
	has cm "^-R: each rank listens on and connects from its rail's address: rank 0 [0-9.]+, rank 1 [0-9.]+"

# mpirun -q: a flagged run's exit 1 without Open MPI's "job has been aborted" banner
launch=(mpirun -q "${launch[@]:1}")
job slow 1 gdr_write_bw -d "$dev" -s 4K -n 50 --pattern quick --expect-bw 100000 &&
	rows slow $((np / 2)) '$col["status"] == "SLOW"' && has slow "^suspect rail: " &&
	has slow "^cluster: exit 1: $((np / 2)) pair\(s\) flagged" && lacks slow "suspect node|aborted"
launch=(mpirun "${launch[@]:2}")

# --expect-bw=auto: 90% of what rxe's 10 Gb/s carries as payload at RoCE MTU 1024 (92.6%),
# which the VM never moves (every pair SLOW, the reason in the error column); 0.1% of it every
# pair meets
job auto 1 gdr_write_bw -d "$dev" -s 4K -n 50 --pattern quick --slow-pct 0 --expect-bw=auto &&
	rows auto $((np / 2)) '$col["status"] == "SLOW"' &&
	grep -q "90% of 9.26 Gb/s, the port's 10 Gb/s at 92.6% payload, --expect-bw=auto" "$out/auto.csv" ||
	{ echo "FAIL auto: no reason in the CSV"; fails=$((fails + 1)); }
job auto_ok 0 gdr_write_bw -d "$dev" -s 4K -n 50 --pattern quick --slow-pct 0 --expect-bw=auto:0.1 &&
	rows auto_ok $((np / 2)) '$col["status"] == "OK"'

# -W: every row's counters cell holds what moved on rxe0 around its pair (rxe's hw_counters
# sent_pkts and rcvd_pkts move with any traffic; the ranks share rxe0, so one side is named),
# in the CSV and the JSON Lines; under a threshold nobody meets, the summary names the
# counters beside each SLOW pair
job counters 1 gdr_write_bw -d "$dev" -s 4K -n 50 --pattern quick --slow-pct 0 -W --expect-bw 100000 &&
	has counters "^counters: [^ ]+ rail [0-9]+ <-> [^ ]+ rail [0-9]+ \(round 1, SLOW\): $dev: .*sent_pkts \+[1-9]" &&
	lacks counters "warning: -W" &&
	python3 - "$out/counters.csv" "$out/counters.json" $((np / 2)) "$dev" >"$out/counters.check" 2>&1 <<'PY' ||
import csv, json, re, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
objs = [json.loads(l) for l in open(sys.argv[2])]
assert len(rows) == int(sys.argv[3]) == len(objs), "%d rows, %d objects" % (len(rows), len(objs))
for r, o in zip(rows, objs):
    c = r["counters"]
    assert r["status"] == "SLOW", r["status"]
    for k in ("sent_pkts", "rcvd_pkts"):
        assert re.search(r"(^|, )%s \+[1-9][0-9]*(,|$)" % k, c.split(": ", 1)[1]), "%s: %r" % (k, c)
    assert c.startswith(sys.argv[4] + ": ") and o["counters"] == c, "%r vs %r" % (c, o["counters"])
    print("round %s %s<->%s: %s" % (r["round"], r["rail_a"], r["rail_b"], c))
PY
	{
		echo "FAIL counters: $(tail -1 "$out/counters.check")"
		fails=$((fails + 1))
	}

# local rail 1 on a device that does not exist: its np-1 pairs FAIL, the rest are OK
rails=$dev,nosuch0
for ((i = 2; i < np; i++)); do rails=$rails,$dev; done
job badrail 1 gdr_write_bw --rails "$rails" -s 4K -n 50 --slow-pct 0 &&
	rows badrail "$pairs" '($col["status"] == "FAIL") == ($col["rail_a"] == 1 || $col["rail_b"] == 1)' &&
	has badrail "^suspect rail: [^ ]+ rail 1 NIC nosuch0"

# a launcher that says 4 tasks, an MPI world of 1: refused
OMPI_COMM_WORLD_SIZE=4 timeout "$limit" "$bin/gdr_write_bw" --cluster >"$out/mismatch.out" 2>&1
rc=$?
echo "mismatch: exit $rc (want 2)" | tee -a "$out/times.txt"
if [[ $rc -ne 2 ]]; then
	echo "FAIL mismatch: exit $rc"
	fails=$((fails + 1))
else
	has mismatch "OMPI_COMM_WORLD_SIZE=4 but MPI sees 1 rank"
fi

echo "cluster: $fails failure(s)"
[[ $fails -eq 0 ]]
