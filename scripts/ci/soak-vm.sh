#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/ci/soak-vm.sh - the guest side of scripts/ci/soak.sh: one --persistent server per
# test binary, clients run back to back (-D SOAK_RUN each, round robin over the six
# tests), and every gdr_* process sampled every SOAK_SAMPLE seconds into soak.tsv.
# Runs inside the Soft-RoCE VM (scripts/ci/rxe-vm.sh) or on a host with an RDMA device.
#
# Environment (set by scripts/ci/soak.sh):
#   SOAK_BIN     folder holding gdr_write_bw etc.     SOAK_SECS   soak length in seconds
#   SOAK_SAMPLE  seconds between samples (60)         SOAK_RUN    -D of each client (30)
#   SOAK_DEV, SOAK_ADDR  RDMA device and server address (rxe0, 10.9.0.1)
# Output (in the current folder): soak.tsv (t_s role test pid rss_kb fds pin_kb lck_kb),
# runs.tsv (t_s test rc secs, one line per client run), server-*.out, client-last-*.out.
# Exit: 0 when every client run and every server ended well, 1 otherwise.
set -uo pipefail

bin=${SOAK_BIN:?set SOAK_BIN}
secs=${SOAK_SECS:?set SOAK_SECS}
every=${SOAK_SAMPLE:-60}
run=${SOAK_RUN:-30}
dev=${SOAK_DEV:-rxe0}
addr=${SOAK_ADDR:-10.9.0.1}
tests="write_bw read_bw send_bw write_lat read_lat send_lat"
ulimit -l unlimited 2>/dev/null
ulimit -c 0

# nap SECONDS: a sleep that starts no process (an exec costs ~0.2 s in the VM)
exec {nap_fd}<> <(:)
nap()
{
	read -rt "$1" -u "$nap_fd" _ || :
}
declare -A srv=() port=()
p=19500
for t in $tests; do
	port[$t]=$p
	# the servers outlive the soak by far: stopped below once the clients are done
	"$bin/gdr_$t" -d "$dev" -p $p --persistent --listen_timeout 600 --timeout 30 \
		>"server-$t.out" 2>&1 &
	srv[$t]=$!
	p=$((p + 1))
done

# sample: one line per gdr_* process (builtins only: an exec costs ~0.2 s in the VM)
sample()
{
	local t0=$1 d comm pid role k v rss pin lck fds
	local -a f
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		read -r comm 2>/dev/null <"$d/comm" || continue
		[[ $comm == gdr_* ]] || continue
		role=client
		for k in "${srv[@]}"; do [[ $k == "$pid" ]] && role=server; done
		rss=0 pin=0 lck=0
		while read -r k v _; do
			case $k in
			VmRSS:) rss=$v ;;
			VmPin:) pin=$v ;;
			VmLck:) lck=$v ;;
			esac
		done 2>/dev/null <"$d/status"
		[[ $rss == 0 ]] && continue # gone meanwhile
		f=("$d"/fd/*)
		fds=${#f[@]}
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' $((SECONDS - t0)) $role "${comm#gdr_}" \
			"$pid" "$rss" "$fds" "$pin" "$lck"
	done
}
printf 't_s\trole\ttest\tpid\trss_kb\tfds\tpin_kb\tlck_kb\n' >soak.tsv
printf 't_s\ttest\trc\tsecs\n' >runs.tsv
start=$SECONDS
(
	while ((SECONDS - start < secs + 30)); do
		sample $start >>soak.tsv
		nap "$every"
	done
) &
sampler=$!

nap 2 # the servers listen
fail=0
runs=0
while ((SECONDS - start < secs)); do
	for t in $tests; do
		((SECONDS - start < secs)) || break
		t1=$SECONDS
		timeout -k 5 $((run + 90)) "$bin/gdr_$t" -d "$dev" -p "${port[$t]}" -D "$run" \
			--interval $((run > 10 ? 10 : 1)) --timeout 30 --connect_timeout 10 "$addr" \
			>"client-last-$t.out" 2>&1
		rc=$?
		printf '%s\t%s\t%s\t%s\n' $((t1 - start)) "$t" $rc $((SECONDS - t1)) >>runs.tsv
		runs=$((runs + 1))
		if [[ $rc -ne 0 ]]; then
			fail=1
			cp "client-last-$t.out" "client-fail-$runs-$t.out"
			echo "soak: client $t (run $runs) exit $rc: $(tail -n 1 "client-last-$t.out")"
		fi
	done
done
nap $((every < 30 ? every + 1 : 30)) # a last sample of the idle servers
kill "$sampler" 2>/dev/null
wait "$sampler" 2>/dev/null
# running PID: alive and not a zombie (kill -0 succeeds on a zombie too)
running()
{
	local st=Z
	read -r _ _ st _ 2>/dev/null <"/proc/$1/stat"
	[[ $st != Z ]]
}
for t in $tests; do
	if ! running "${srv[$t]}"; then
		wait "${srv[$t]}"
		echo "soak: server $t ended early (exit $?): $(tail -n 1 "server-$t.out")"
		fail=1
		continue
	fi
	kill -TERM "${srv[$t]}" # not SIGINT: background jobs of a script ignore it
done
for ((i = 0; i < 100; i++)); do
	left=0
	for t in $tests; do running "${srv[$t]}" && left=1; done
	((left)) || break
	nap 0.1
done
for t in $tests; do
	running "${srv[$t]}" && kill -KILL "${srv[$t]}" 2>/dev/null && {
		echo "soak: server $t did not stop on SIGTERM within 10 s"
		fail=1
	}
	wait "${srv[$t]}" 2>/dev/null
done
echo "soak: $runs client runs in $((SECONDS - start)) s"
exit $fail
