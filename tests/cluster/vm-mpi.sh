#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/cluster/vm-mpi.sh - cluster mode (--cluster) under Open MPI's mpirun on one host
# with an RDMA device: 4 ranks on one device (--same-host), normally rxe0 inside the VM
# of scripts/rxe-vm.sh:
#   RXE_VM_ENV="CL_BIN" CL_BIN=$PWD/build/w bash scripts/rxe-vm.sh tests/cluster/vm-mpi.sh OUT
# Cases: a bandwidth job whose every pair is OK (exit 0), a latency job (quick
# pattern), a threshold nobody meets (every row SLOW, exit 1, suspects named), one
# rank on a device that does not exist (its pairs FAIL, the others OK, exit 1), and
# MPI refusing a launcher/world mismatch (exit 2).
# Environment: CL_BIN (folder of gdr_write_bw, default .), CL_DEV (rxe0), CL_NP (4),
# CL_OUT (default $RXE_VM_OUT or ./cluster-out), CL_LIMIT (outer limit of one job in
# seconds, 300: the emulated VM is slow, and slower on a loaded host).
# Exit status: 0 when every case passed, 1 otherwise; 77 when mpirun is missing.
set -uo pipefail

bin=${CL_BIN:-$PWD}
dev=${CL_DEV:-rxe0}
np=${CL_NP:-4}
limit=${CL_LIMIT:-300}
out=${CL_OUT:-${RXE_VM_OUT:-$PWD/cluster-out}}/cluster
mkdir -p "$out" || exit 1
command -v mpirun >/dev/null || {
	echo "cluster: SKIP: mpirun not found (scripts/deps.sh cluster installs Open MPI)"
	exit 77
}
[[ -x $bin/gdr_write_bw ]] || {
	echo "cluster: error: $bin/gdr_write_bw not found: set CL_BIN" >&2
	exit 1
}
# MPI's own traffic stays off the device under test: shared memory between local ranks
mpi=(mpirun --allow-run-as-root --oversubscribe -np "$np" --mca pml ob1 --mca btl self,vader
	--mca btl_vader_single_copy_mechanism none)
fails=0

# run NAME EXPECTED_RC PROGRAM ARGS...: run one job (limit CL_LIMIT), keep its output and CSV
run()
{
	local name=$1 want=$2 prog=$3 t0 rc
	shift 3
	t0=$(date +%s.%N)
	timeout "$limit" "${mpi[@]}" "$bin/$prog" --cluster --same-host --timeout 20 \
		--csv "$out/$name.csv" "$@" >"$out/$name.out" 2>&1
	rc=$?
	printf '%s: exit %d (want %d), %.1f s\n' "$name" "$rc" "$want" \
		"$(echo "$(date +%s.%N) - $t0" | bc)" | tee -a "$out/times.txt"
	[[ $rc -eq $want ]] || {
		echo "FAIL $name: exit $rc, want $want"
		sed 's/^/    /' "$out/$name.out"
		return 1
	}
}

# expect NAME AWK-CONDITION WHAT: every data row of NAME's CSV satisfies the condition
# (fields by CSV header name through col["..."]), and there are ROWS rows
rows()
{
	local name=$1 want=$2 cond=$3 got
	got=$(awk -F, -v want="$want" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ n++ }
		!('"$cond"') { bad++; print "    row " NR ": " $0 > "/dev/stderr" }
		END { printf "%d rows, %d not matching", n, bad; exit !(n == want && !bad) }' \
		"$out/$name.csv")
	if [[ $? -ne 0 ]]; then
		echo "FAIL $name: CSV: $got (want $want rows matching: $cond)"
		return 1
	fi
	echo "  $name CSV: $got"
}
has()
{
	grep -Eq "$2" "$out/$1.out" || {
		echo "FAIL $1: output lacks /$2/"
		sed 's/^/    /' "$out/$1.out"
		return 1
	}
}

pairs=$((np * (np - 1) / 2))
ok='$col["status"] == "OK" && $col["bw_gbps"] > 0 && $col["iterations"] > 0'
run bw 0 gdr_write_bw -d "$dev" -s 4K -n 50 || fails=$((fails + 1))
rows bw "$pairs" "$ok" || fails=$((fails + 1))
has bw "^round 3/3" || fails=$((fails + 1))

lat='$col["status"] == "OK" && $col["lat_median_us"] > 0 && $col["lat_p99_us"] >= $col["lat_median_us"]'
run lat 0 gdr_send_lat -d "$dev" -s 64 -n 100 --pattern quick || fails=$((fails + 1))
rows lat $((np / 2)) "$lat" || fails=$((fails + 1))

run slow 1 gdr_write_bw -d "$dev" -s 4K -n 50 --pattern quick --expect-bw 100000 ||
	fails=$((fails + 1))
rows slow $((np / 2)) '$col["status"] == "SLOW"' || fails=$((fails + 1))
has slow "^suspect rail: " || fails=$((fails + 1))

# rank of local rail 1 on a missing device: its np-1 pairs FAIL, the rest are OK
rails=$dev,nosuch0
for ((i = 2; i < np; i++)); do rails=$rails,$dev; done
run badrail 1 gdr_write_bw --rails "$rails" -s 4K -n 50 || fails=$((fails + 1))
rows badrail "$pairs" '($col["status"] == "FAIL") == ($col["rail_a"] == 1 || $col["rail_b"] == 1)' ||
	fails=$((fails + 1))
has badrail "^suspect rail: [^ ]+ rail 1 NIC nosuch0" || fails=$((fails + 1))

# a launcher that says 4 tasks, an MPI world of 1: refused
OMPI_COMM_WORLD_SIZE=4 timeout 30 "$bin/gdr_write_bw" --cluster >"$out/mismatch.out" 2>&1
rc=$?
echo "mismatch: exit $rc (want 2)" | tee -a "$out/times.txt"
[[ $rc -eq 2 ]] && has mismatch "OMPI_COMM_WORLD_SIZE=4 but MPI sees 1 rank" || fails=$((fails + 1))

echo "cluster: $fails failure(s)"
[[ $fails -eq 0 ]]
