#!/bin/bash
# SPDX-License-Identifier: MIT
#
# sm-direct-vm.sh - the direct and host rows of a --compare run with the sm copier in the run
# against the same rows with the copy engine, over Soft-RoCE and the CUDA driver double (issue
# 33 item 3: no path but the staged one is timed with a copier's kernel resident). Runs inside
# the VM of scripts/ci/rxe-vm.sh:
#
#   E2E_BIN=$PWD/build/werror RXE_VM_ENV="E2E_BIN SMD_ROUNDS" \
#       bash scripts/ci/rxe-vm.sh scripts/ci/sm-direct-vm.sh OUTDIR
#
# Both sides' test memory is on the double (GPU 0 and GPU 1), both sides run --stage_copy=sm
# or --stage_copy=ce, in turn, SMD_ROUNDS times (default 3) for gdr_write_bw (16 and 64 KiB,
# 300 iterations) and gdr_send_lat (64 and 256 B, 100 iterations: the double's sm kernel is a
# host thread, and its staged row takes milliseconds a round trip in the emulated VM). Each size runs the host,
# direct and staged rows in turn; the copier opens at the first size's staged row and stays
# open (parked) through the second size's host and direct rows, which are the ones compared.
# The double plays the sm kernel on a host thread that polls its doorbells: resident during
# the direct row, it would take one of the VM's two CPUs from the direct path. Prints one line
# per run (copier, test, the second size's host, direct and staged rows: average bandwidth or
# median latency), then the median per copier.
set -u
bin=${E2E_BIN:?set E2E_BIN to the build folder}
rounds=${SMD_ROUNDS:-3}
export GDR_LIBCUDA=${E2E_LIBCUDA:-$bin/tests/cuda_double/libcuda.so.1}
out=${RXE_VM_OUT:-/tmp}
port=19500
# run COPIER TEST ARGS...: one --compare run; prints "COPIER TEST host direct staged"
run()
{
	local cp=$1 t=$2 col
	shift 2
	port=$((port + 1))
	timeout 300 "$bin/gdr_$t" -d rxe0 -p $port --use_cuda=0 --stage_copy="$cp" --listen_timeout 30 --timeout 60 \
		>"$out/server.$cp.$t.$port.out" 2>&1 &
	local spid=$!
	sleep 1
	timeout 300 "$bin/gdr_$t" -d rxe0 -p $port --use_cuda=1 --stage_copy="$cp" --compare --timeout 60 "$@" 10.9.0.1 \
		>"$out/client.$cp.$t.$port.out" 2>&1
	local rc=$?
	wait $spid
	[[ $rc -eq 0 ]] || { echo "$cp $t: client exit $rc (kept $out/client.$cp.$t.$port.out)"; return 1; }
	# bandwidth: BW average (column 4); latency: t_median (column 5)
	[[ $t == *_bw ]] && col=4 || col=5
	awk -v cp="$cp" -v t="$t" -v c=$col '
		$1 ~ /^[0-9]+$/ && ($0 ~ / host / || $0 ~ / direct / || $0 ~ / staged /) {
			if ($1 != last) { delete v; last = $1 } # the last size only
			for (i = 1; i <= NF; i++) if ($i == "host" || $i == "direct" || $i == "staged") v[$i] = $c
		}
		END { printf "%s %s %s %s %s\n", cp, t, v["host"], v["direct"], v["staged"] }' \
		"$out/client.$cp.$t.$port.out"
}
echo "# sm-direct-vm.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $(uname -r), $(nproc) vCPUs; GDR_LIBCUDA=$GDR_LIBCUDA"
echo "# copier test host direct staged   (write_bw: BW average; send_lat: t_median, us)"
for ((r = 1; r <= rounds; r++)); do
	for cp in sm ce; do
		run $cp write_bw --sizes=16K:64K:4 -n 300 || exit 1
		run $cp send_lat --sizes=64:256:4 -n 100 || exit 1
	done
done | tee "$out/sm-direct.txt"
awk '
	function med(l,   v, c, i, j, t) {
		c = split(l, v, " ")
		for (i = 2; i <= c; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
		return v[int((c + 1) / 2)]
	}
	!/^#/ { h[$1 " " $2] = h[$1 " " $2] " " $3; d[$1 " " $2] = d[$1 " " $2] " " $4 }
	END {
		for (t = 1; t <= 2; t++) {
			tn = t == 1 ? "write_bw" : "send_lat"
			printf "median %s: host sm %s ce %s; direct sm %s ce %s (direct sm/ce %.2f)\n", tn,
				med(h["sm " tn]), med(h["ce " tn]), med(d["sm " tn]), med(d["ce " tn]),
				med(d["sm " tn]) / med(d["ce " tn])
		}
	}' "$out/sm-direct.txt"
