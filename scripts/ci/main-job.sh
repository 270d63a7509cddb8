#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/ci/main-job.sh - the main job: install what is missing, build, and run a real
# benchmark, leaving CSV, JSON, text, plots and a README in results/<date>-<host>/.
#
# The benchmark: gdr_write_bw, gdr_read_bw, gdr_send_bw over --sizes=$BW_SIZES and
# gdr_write_lat, gdr_read_lat, gdr_send_lat over --sizes=$LAT_SIZES, host memory,
# server and client on one RDMA device: the host's own when ibv_devices lists one
# (address: MAIN_ADDR, default the device's IPv4 address), else Soft-RoCE (rxe0) in
# the VM of scripts/ci/rxe-vm.sh. Soft-RoCE under emulation moves ~50 MiB/s: its figures
# prove the path works and compare tools in one boot; they are not hardware figures.
#
# Environment: GDR_BUILD_ROOT (build folder root, default <repo>/build),
#   BW_SIZES (64:1M:4), BW_ITERS (200), LAT_SIZES (2:64K:4), LAT_ITERS (300),
#   MAIN_PATHS (default --compare: every size on the direct and the staged path, with the
#   speedup; set it empty for the direct path alone),
#   MAIN_OUT (result folder, default results/<date>-<host>), MAIN_EXTRA (options for
#   every client, e.g. "--use_cuda=0" on a GPU machine), RXE_VM_TIMEOUT (the VM's limit,
#   3600 s here: --compare repeats each size 3 times, about 20 min on a busy 2-core host).
# Exit status: 0 when every run passed, 1 otherwise.
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
tests="write_bw read_bw send_bw write_lat read_lat send_lat"

# ---- inner part: runs the benchmark (in the VM, or on a host with a device) ----
inner()
{
	local out=$MAIN_OUT bin=$MAIN_BIN dev=$MAIN_DEV addr=$MAIN_ADDR port=18600 t s n
	local rc=0 src_rc crc spid
	ulimit -l unlimited 2>/dev/null
	cd "$out" || return 1
	for t in $tests; do
		case $t in
		*_bw) s=${BW_SIZES:-64:1M:4} n=${BW_ITERS:-200} ;;
		*) s=${LAT_SIZES:-2:64K:4} n=${LAT_ITERS:-300} ;;
		esac
		port=$((port + 1))
		echo "== gdr_$t --sizes=$s -n $n (device $dev, port $port)"
		timeout -k 5 600 "$bin/gdr_$t" -d "$dev" -p "$port" --listen_timeout 60 >"server-$t.txt" 2>&1 &
		spid=$!
		sleep 1
		# shellcheck disable=SC2086
		timeout -k 5 600 "$bin/gdr_$t" -d "$dev" -p "$port" --connect_timeout 30 \
			--sizes="$s" -n "$n" ${MAIN_PATHS---compare} --csv results.csv --json "$t.json" \
			${MAIN_EXTRA:-} "$addr" 2>&1 |
			tee "$t.txt"
		crc=${PIPESTATUS[0]}
		wait $spid
		src_rc=$?
		if [[ $crc -ne 0 || $src_rc -ne 0 ]]; then
			echo "== gdr_$t FAILED: client exit $crc, server exit $src_rc (server output: server-$t.txt)"
			rc=1
		fi
	done
	return $rc
}
if [[ ${MAIN_JOB_INNER:-0} == 1 ]]; then
	inner
	exit $?
fi

# ---- outer part ----
# shellcheck source=scripts/ci/deps.sh
source "$src/scripts/ci/deps.sh"
gdr_deps build vm plot || exit 1
root=${GDR_BUILD_ROOT:-$src/build}
b=$root/main
if [[ ! -x $src/configure || $src/configure.ac -nt $src/configure ]]; then
	(cd "$src" && ./autogen.sh) || exit 1
fi
mkdir -p "$b" && (cd "$b" && "$src/configure" && make -j"$(nproc)") >"$root/main-build.log" 2>&1 || {
	tail -n 30 "$root/main-build.log"
	echo "main-job: error: the build failed (log: $root/main-build.log)" >&2
	exit 1
}
b=$(cd "$b" && pwd)
host=$(uname -n | cut -d. -f1)
day=$(date +%F)
out=${MAIN_OUT:-$src/results/$day-$host}
[[ -z ${MAIN_OUT:-} && -e $out ]] && out=$out-$(date +%H%M%S)
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
cmd="scripts/ci/main-job.sh${MAIN_EXTRA:+ (MAIN_EXTRA=$MAIN_EXTRA)}"
start=$(date -u +%FT%TZ)

dev=$(ibv_devices 2>/dev/null | awk 'NR > 2 && $1 != "" { print $1; exit }')
if [[ -n $dev ]]; then
	where="RDMA device $dev of this host"
	if [[ -z ${MAIN_ADDR:-} ]]; then
		nd=$(rdma link show 2>/dev/null | awk -v d="$dev" '$2 ~ "^"d"/" { for (i = 1; i < NF; i++) if ($i == "netdev") { print $(i + 1); exit } }')
		MAIN_ADDR=$(ip -4 -o addr show dev "${nd:-none}" 2>/dev/null | awk '{ sub("/.*", "", $4); print $4; exit }')
		[[ -n $MAIN_ADDR ]] || {
			echo "main-job: error: no IPv4 address found for $dev; set MAIN_ADDR" >&2
			exit 1
		}
	fi
	MAIN_JOB_INNER=1 MAIN_OUT=$out MAIN_BIN=$b MAIN_DEV=$dev MAIN_ADDR=$MAIN_ADDR bash "$0"
	rc=$?
else
	where="Soft-RoCE rxe0 on a veth pair in a QEMU/TCG VM (scripts/ci/rxe-vm.sh); host memory"
	MAIN_JOB_INNER=1 MAIN_OUT=$out MAIN_BIN=$b MAIN_DEV=rxe0 MAIN_ADDR=10.9.0.1 \
		RXE_VM_ENV="MAIN_JOB_INNER MAIN_OUT MAIN_BIN MAIN_DEV MAIN_ADDR BW_SIZES BW_ITERS LAT_SIZES LAT_ITERS MAIN_EXTRA MAIN_PATHS" \
		RXE_VM_LOG=$root/main-console.log RXE_VM_TIMEOUT=${RXE_VM_TIMEOUT:-3600} \
		bash "$src/scripts/ci/rxe-vm.sh" "$src/scripts/ci/main-job.sh" "$out"
	rc=$?
fi

plot="not made (scripts/tools/plot.py absent)"
# a python3 that has matplotlib (the distribution's, when another python3 comes first in PATH)
py=python3
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import matplotlib' 2>/dev/null; then
		py=$p
		break
	fi
done
if [[ -f $src/scripts/tools/plot.py && -s $out/results.csv ]]; then
	if "$py" "$src/scripts/tools/plot.py" "$out/results.csv" -o "$out" >"$out/plot.log" 2>&1; then
		plot=$(cd "$out" && ls ./*.png 2>/dev/null | sed 's|^\./||' | tr '\n' ' ')
		rm -f "$out/plot.log"
	else
		plot="failed (see plot.log)"
		rc=1
	fi
fi

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
ver=$("$b/gdr_write_bw" --version 2>/dev/null | head -1)
# the results folder being written is not a change of the code (scripts/ci/src-state.sh)
state=$(sh "$src/scripts/ci/src-state.sh" "$src" "$out")
cat >"$out/README.md" <<EOF
# gdrperf main job, $host, $day

- Command: \`$cmd\`, started $start, status: $([[ $rc -eq 0 ]] && echo "all runs passed" || echo "FAILED (exit $rc)")
- Tool: $ver, $state
- Machine: $host, $cpu, $(nproc) CPUs, $mem, $(uname -sr)
- Where: $where
- Runs: gdr_write_bw, gdr_read_bw, gdr_send_bw --sizes=${BW_SIZES:-64:1M:4} -n ${BW_ITERS:-200};
  gdr_write_lat, gdr_read_lat, gdr_send_lat --sizes=${LAT_SIZES:-2:64K:4} -n ${LAT_ITERS:-300};
  paths: ${MAIN_PATHS---compare}
- Files: results.csv (all rows; columns in results/README.md), <test>.json (one per run),
  <test>.txt (client text output), server-<test>.txt, plots: $plot
$([[ -z $dev ]] && echo "- Soft-RoCE under software emulation moves about 50 MiB/s: these figures show the
  paths work end to end; they are not network or GPU figures.")
EOF
echo "main-job: results in $out (exit $rc)"
exit $rc
