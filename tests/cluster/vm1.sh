#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/cluster/vm1.sh - the one-VM cluster tests in one boot of scripts/ci/rxe-vm.sh:
# vm-mpi.sh (mpirun), fabemu.sh (an emulated leaf-spine fabric under mpirun: the slowed cable
# named), then vm-slurm.sh (single-host Slurm; it renames the guest and mounts cgroups, so it
# runs last). Exit status 0 when all three passed, else 1.
here=$(dirname "$0")
rc=0
t0=$SECONDS
bash "$here/vm-mpi.sh" || rc=1
echo "cluster-vm1: vm-mpi.sh $((SECONDS - t0)) s"
t1=$SECONDS
FE_IN_VM=1 bash "$here/fabemu.sh" || rc=1
echo "cluster-vm1: fabemu.sh $((SECONDS - t1)) s"
t1=$SECONDS
bash "$here/vm-slurm.sh" || rc=1
echo "cluster-vm1: vm-slurm.sh $((SECONDS - t1)) s"
exit $rc
