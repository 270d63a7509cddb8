#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/cluster/vm2-rank.sh PROGRAM ARGS... - one rank of the two-VM job (srun or mpirun):
# runs PROGRAM on the GID of its own address (10.10.0.<node + 10 * local rank>, so every
# rank pair is a distinct IP pair that tc can single out), writes its exit status to
# $CL_OUT/rc.<rank>; the rank CL_KILL (if set) is killed with SIGKILL as soon as the
# CSV named CL_KILL_CSV holds a result row (round 1 done); likewise on the rank CL_STALL (if
# set), its node's network stops dead then (netem drops every packet eth0 sends) and the
# rank goes on (cut off).
rank=${OMPI_COMM_WORLD_RANK:-${SLURM_PROCID:?not started by srun or mpirun}}
lid=${OMPI_COMM_WORLD_LOCAL_RANK:-${SLURM_LOCALID:-0}}
case $(hostname) in a) n=1 ;; *) n=2 ;; esac
want=$(printf '0000:0000:0000:0000:0000:ffff:0a0a:%04x' $((n + 10 * lid)))
gid=
for f in /sys/class/infiniband/rxe1/ports/1/gids/*; do
	read -r g <"$f" 2>/dev/null && [[ $g == "$want" ]] && gid=${f##*/} && break
done
[[ -n $gid ]] || {
	echo "vm2-rank: rank $rank: no GID for 10.10.0.$((n + 10 * lid)) on rxe1" >&2
	gid=1
}
rm -f "$CL_OUT/rc.$rank"
if [[ ${CL_STALL:-} == "$rank" ]]; then
	"$@" --gid-index "$gid" &
	pid=$!
	for ((i = 0; i < 1000; i++)); do
		l=()
		[[ -e $CL_KILL_CSV ]] && mapfile -t l <"$CL_KILL_CSV"
		[[ ${#l[@]} -ge 2 ]] && break
		sleep 0.3
	done
	tc qdisc replace dev eth0 root netem loss 100% && date +%s.%N >"$CL_OUT/stall.at"
	echo "vm2-rank: rank $rank: $(hostname)'s network stalled (the CSV had ${#l[@]} lines)" >&2
	wait $pid
	rc=$?
elif [[ ${CL_KILL:-} == "$rank" ]]; then
	"$@" --gid-index "$gid" &
	pid=$!
	for ((i = 0; i < 1000; i++)); do
		l=()
		[[ -e $CL_KILL_CSV ]] && mapfile -t l <"$CL_KILL_CSV"
		[[ ${#l[@]} -ge 2 ]] && break
		sleep 0.3
	done
	kill -KILL $pid
	echo "vm2-rank: rank $rank killed (the CSV had ${#l[@]} lines)" >&2
	wait $pid
	rc=$?
else
	"$@" --gid-index "$gid"
	rc=$?
fi
echo $rc >"$CL_OUT/rc.$rank"
exit $rc
