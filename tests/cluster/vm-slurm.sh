#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/cluster/vm-slurm.sh - cluster mode under a single-host Slurm inside the Soft-RoCE
# VM of scripts/ci/rxe-vm.sh: starts munged, slurmctld and slurmd in the guest (state in its
# tmpfs), then `srun -n 4 --mpi=pmix` (Open MPI over PMIx) of 4 ranks on rxe0:
#   RXE_VM_ENV="CL_BIN" CL_BIN=$PWD/build/w bash scripts/ci/rxe-vm.sh tests/cluster/vm-slurm.sh OUT
# Changes the guest's host name and cgroup mounts: run it in the VM only.
# Environment: CL_BIN, CL_DEV (rxe0), CL_NP (4), CL_LIMIT (600), CL_OUT as vm-mpi.sh.
# Exit status: 0 when every case passed, 1 otherwise; 77 when Slurm is not installed.
set -uo pipefail

bin=${CL_BIN:-$PWD}
dev=${CL_DEV:-rxe0}
np=${CL_NP:-4}
limit=${CL_LIMIT:-600}
out=${CL_OUT:-${RXE_VM_OUT:-$PWD/cluster-out}}/slurm
mkdir -p "$out" || exit 1
for p in munged slurmctld slurmd srun; do
	command -v $p >/dev/null || {
		echo "cluster-slurm: SKIP: $p not found (apt-get install slurm-wlm slurmctld slurmd munge)"
		exit 77
	}
done
[[ -n ${RXE_VM_OUT:-} ]] || {
	echo "cluster-slurm: error: run me inside scripts/ci/rxe-vm.sh (I remount cgroups)" >&2
	exit 1
}

# shellcheck source=tests/cluster/slurm-lib.sh
source "$(dirname "$0")/slurm-lib.sh"
t0=$(date +%s.%N)
slurm_prep a "127.0.0.1 a"
slurm_start a "NodeName=a NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN" "slurmctld slurmd" || exit 1
slurm_wait_idle 1 || exit 1
printf 'slurm: daemons up, node idle after %.1f s\n' "$(echo "$(date +%s.%N) - $t0" | bc)" |
	tee "$out/times.txt"

# shellcheck source=tests/cluster/lib.sh
source "$(dirname "$0")/lib.sh"
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
launch=(srun -n "$np" --mpi=pmix)
job srun_bw 0 gdr_write_bw -d "$dev" -s 4K -n 50 --slow-pct 0 &&
	rows srun_bw $((np * (np - 1) / 2)) '$col["status"] == "OK" && $col["bw_gbps"] > 0'

# PMI-2 cannot start Open MPI ranks as one job: refused (2), or the launch fails (not 0)
launch=(srun -n "$np" --mpi=pmi2)
timeout 240 "${launch[@]}" "$bin/gdr_write_bw" --cluster --same-host -d "$dev" \
	>"$out/pmi2.out" 2>&1
rc=$?
echo "pmi2: exit $rc (want non-zero)" | tee -a "$out/times.txt"
[[ $rc -ne 0 && $rc -ne 124 ]] || {
	echo "FAIL pmi2: exit $rc"
	fails=$((fails + 1))
}

echo "cluster-slurm: $fails failure(s)"
[[ $fails -eq 0 ]]
