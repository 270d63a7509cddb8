#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/cluster/slurm-lib.sh - Slurm without systemd inside the Soft-RoCE VM (sourced by
# vm-slurm.sh and vm2-guest.sh): cgroup mounts, host name, munged, slurm.conf, daemons.
# State lives in the guest's tmpfs (/tmp/slurm); SLURM_CONF is exported.

slurm_dir=/tmp/slurm

# slurm_prep NAME HOSTS: the cgroup v1 hierarchies slurmd wants, host name NAME, and an
# /etc/hosts of the guest's own with the lines HOSTS (names must resolve for munged and Slurm)
slurm_prep()
{
	mount -t tmpfs cgroup /sys/fs/cgroup
	for c in cpu cpuacct cpuset memory devices freezer pids; do
		mkdir -p /sys/fs/cgroup/$c && mount -t cgroup -o $c cgroup /sys/fs/cgroup/$c
	done
	mkdir -p /sys/fs/cgroup/systemd && mount -t cgroup -o none,name=systemd cgroup /sys/fs/cgroup/systemd
	hostname "$1"
	printf '127.0.0.1 localhost\n%s\n' "$2" >/tmp/hosts && mount --bind /tmp/hosts /etc/hosts
}

# slurm_start CTLD_HOST NODE_LINES DAEMONS: munged, slurm.conf (NODE_LINES: NodeName=
# lines; the partition holds them all), then DAEMONS ("slurmctld slurmd" or "slurmd")
slurm_start()
{
	local s=$slurm_dir d nodes
	mkdir -p $s/state $s/spool /run/munge /tmp/munge
	chown munge:munge /run/munge /tmp/munge
	chmod 0755 /run/munge
	runuser -u munge -- munged --force --socket=/run/munge/munge.socket.2 \
		--pid-file=/tmp/munge/munged.pid --log-file=/tmp/munge/munged.log \
		--seed-file=/tmp/munge/munged.seed || {
		echo "slurm: error: munged did not start"
		cat /tmp/munge/munged.log
		return 1
	}
	nodes=$(sed -n 's/^NodeName=\([^ ]*\).*/\1/p' <<<"$2" | paste -sd,)
	cat >$s/slurm.conf <<CONF
ClusterName=vm
SlurmctldHost=$1
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=/run/munge/munge.socket.2
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SlurmdParameters=config_overrides
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
StateSaveLocation=$s/state
SlurmdSpoolDir=$s/spool
SlurmctldPidFile=$s/slurmctld.pid
SlurmdPidFile=$s/slurmd.pid
SlurmctldLogFile=$s/slurmctld.log
SlurmdLogFile=$s/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
MpiDefault=none
ReturnToService=2
DebugFlags=NO_CONF_HASH
$2
PartitionName=p Nodes=$nodes Default=YES MaxTime=INFINITE State=UP
CONF
	export SLURM_CONF=$s/slurm.conf
	for d in $3; do
		$d || {
			echo "slurm: error: $d did not start"
			cat $s/*.log
			return 1
		}
	done
}

# slurm_wait_idle N: up to 90 s for N idle nodes; 0 when they are
slurm_wait_idle()
{
	local i st
	for ((i = 0; i < 90; i++)); do
		st=$(timeout 5 sinfo -h -o %t -N 2>/dev/null | grep -c '^idle')
		[[ $st -ge $1 ]] && return 0
		sleep 1
	done
	echo "slurm: error: $1 node(s) not idle: $(timeout 5 sinfo -N 2>&1)"
	cat $slurm_dir/*.log
	return 1
}
