#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/cluster/vm2.sh OUT - a real two-node cluster job: two Soft-RoCE VMs of
# scripts/ci/rxe-vm.sh (one vCPU each) joined by a QEMU socket netdev, Slurm across them
# (slurmctld in a, slurmd in both), and the jobs of tests/cluster/vm2-guest.sh (a slowed
# link flagged, a killed rank survived; on demand a stalled node). Both VMs share OUT
# (results, the "done" flag).
#   CL_BIN=$PWD/build/w bash tests/cluster/vm2.sh /var/tmp/vm2-out
# Environment: CL_BIN (folder of gdr_write_bw), CL_JOBS (the jobs: vm2-guest.sh), CL_PORT
# (the socket's port, default a free one from 20000), RXE_VM_TIMEOUT (per VM, default 900).
# Exit status: node a's (0 every case passed, 1 otherwise); 77 when Slurm or Open MPI
# is missing; 125 when a VM could not start.
set -uo pipefail

[[ $# -eq 1 ]] || {
	echo "usage: CL_BIN=BUILD_DIR $0 OUT" >&2
	exit 2
}
src=$(cd "$(dirname "$0")/../.." && pwd)
for p in munged slurmctld slurmd srun mpirun tc; do
	command -v $p >/dev/null || {
		echo "cluster-vm2: SKIP: $p not found (scripts/ci/deps.sh cluster)"
		exit 77
	}
done
mkdir -p "$1" && out=$(readlink -f "$1") || exit 1
rm -rf "$out/vm2"
port=${CL_PORT:-}
if [[ -z $port ]]; then
	# a port nobody listens on (/proc/net/tcp lists local ports in hex)
	for ((port = 20000 + RANDOM % 20000; ; port++)); do
		grep -qi ":$(printf '%04X' $port) " /proc/net/tcp /proc/net/tcp6 2>/dev/null || break
	done
fi
export CL_BIN=${CL_BIN:-$PWD} CL_OUT=$out CL_JOBS=${CL_JOBS:-slow kill} \
	RXE_VM_ENV="CL_BIN CL_OUT CL_JOBS" RXE_VM_SMP=1 RXE_VM_TIMEOUT=${RXE_VM_TIMEOUT:-900}
t0=$SECONDS
RXE_VM_NET=listen:$port RXE_VM_LOG=$out/console-a.log \
	bash "$src/scripts/ci/rxe-vm.sh" "$src/tests/cluster/vm2-guest.sh" "$out" &
a=$!
for ((i = 0; i < 100; i++)); do
	grep -qi ":$(printf '%04X' "$port") 00000000:0000 0A" /proc/net/tcp && break
	sleep 0.2
done
RXE_VM_NET=connect:$port RXE_VM_LOG=$out/console-b.log \
	bash "$src/scripts/ci/rxe-vm.sh" "$src/tests/cluster/vm2-guest.sh" "$out" >"$out/vm-b.log" 2>&1 &
b=$!
wait $a
rc=$?
# b powers off once a's "done" flag is there; a that never started leaves b to its limit
[[ -e $out/vm2/done ]] || kill $b 2>/dev/null
wait $b
echo "cluster-vm2: node a exit $rc, node b exit $?, $((SECONDS - t0)) s boot to power-off"
sed 's/^/  b: /' "$out/vm-b.log" | tail -5
exit $rc
