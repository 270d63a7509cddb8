#!/bin/bash
# SPDX-License-Identifier: MIT
# --compare over ofi with real CUDA memory (issue 45): whether GPU memory registers is the
# opened provider's word (src/transport/ofi/ofi_reg.c's probe, src/driver/xport_fit.c), checked
# here against the real driver, not the double. Run from a build folder on the GPU machine
# (BUILD=. by default): for each provider of PROVIDERS ("tcp;ofi_rxm shm"), server and client
# on this host, gdr_write_bw --use_cuda=0 --compare, then the same without --compare. Prints
# each run's Transport line, its note or error line and its CSV rows (path, bytes, transport,
# provider), then one line per provider: "ofi-compare PROVIDER: ..." saying whether the
# direct row ran (the provider registers CUDA memory: the direct run must pass too) or was
# left out with its note (then the direct run must be refused in one line, exit 2 or 3).
# A provider or a libfabric this host lacks is reported as absent, never as passed.
set -u
b=${BUILD:-.}
provs=${PROVIDERS:-"tcp;ofi_rxm shm"}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
ldconfig -p | grep -q 'libcuda.so.1 ' || export LD_LIBRARY_PATH=/usr/local/nvidia/lib64
echo "# $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); libfabric: $(fi_info --version 2>/dev/null | head -1 || echo 'fi_info absent'); $(date -u '+%Y-%m-%d %H:%M UTC')"
port=$((21000 + $$ % 20000))
bad=0
# pair NAME OPTIONS...: server and client of gdr_write_bw over ofi $prov; sets rc_c, rc_s
pair() {
	local name=$1
	shift
	port=$((port + 1))
	timeout 120 "$b/gdr_write_bw" --transport=ofi --provider="$prov" --use_cuda=0 -p $port \
		--listen_timeout=60 --timeout=20 >"$tmp/$name.s" 2>&1 &
	local pid=$!
	timeout 120 "$b/gdr_write_bw" --transport=ofi --provider="$prov" --use_cuda=0 "$@" -p $port \
		--connect_timeout=30 --timeout=20 --csv "$tmp/$name.csv" 127.0.0.1 >"$tmp/$name.c" 2>&1
	rc_c=$?
	[ $rc_c -eq 0 ] || kill $pid 2>/dev/null # a client refused before it connected
	wait $pid
	rc_s=$?
}
# rows CSV: "#   row: PATH BYTES bytes, transport T, provider P, MiB/s" per row
rows() {
	[ -f "$1" ] && python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    print("#   row: %s %s bytes, transport %s, provider %s, %s MiB/s" % (r["path"], r["bytes"],
          r["transport"], r["provider"], r["bw_avg_MiBps"]))' "$1"
}
for prov in $provs; do
	n=$(echo "$prov" | tr -c 'a-z0-9_\n' '_')
	pair "cmp_$n" --compare --sizes=4096:256K:8 -n 100 --validate
	echo "## $prov --compare: client exit $rc_c, server exit $rc_s"
	grep -h -e 'Transport' -e 'note:' -e 'error' "$tmp/cmp_$n.c" | sed 's/^/#   /'
	rows "$tmp/cmp_$n.csv"
	if grep -q -e 'has no FI_EP_RDM endpoint' -e 'libfabric.so.1 not found' -e 'no ofi transport' "$tmp/cmp_$n.c"; then
		echo "ofi-compare $prov: absent here ($(grep -h -m1 error "$tmp/cmp_$n.c"))"
		continue
	fi
	pair "direct_$n" -s 4096 -n 100 --validate
	echo "## $prov direct: client exit $rc_c"
	grep -h -e 'error' "$tmp/direct_$n.c" | sed 's/^/#   /'
	direct_rows=$(rows "$tmp/cmp_$n.csv" | grep -c '^#   row: direct ')
	if grep -q "note: no direct or gpu-proxy row: the ofi transport with provider $prov" "$tmp/cmp_$n.c"; then
		if [ "$direct_rows" -eq 0 ] && rows "$tmp/cmp_$n.csv" | grep -q '^#   row: staged ' &&
			{ [ $rc_c -eq 2 ] || [ $rc_c -eq 3 ]; } &&
			grep -q "not over the ofi transport with provider $prov" "$tmp/direct_$n.c"; then
			echo "ofi-compare $prov: PASS: no direct row (its note), staged ran; the direct run refused in one line"
		else
			echo "ofi-compare $prov: FAIL: the note, but direct rows $direct_rows, or no staged row, or the direct run not refused (exit $rc_c)"
			bad=1
		fi
	elif [ "$direct_rows" -gt 0 ] && [ $rc_c -eq 0 ]; then
		echo "ofi-compare $prov: PASS: the provider registers CUDA memory: the direct row ran, the direct run passed"
	else
		echo "ofi-compare $prov: FAIL: neither the note nor a direct row that ran (see the lines above)"
		bad=1
	fi
done
exit $bad
