#!/bin/sh
# SPDX-License-Identifier: MIT
# The six test programs (write, read and send; bandwidth and latency) over the transports
# that need no NIC, server and client on this host (src/driver/path_xport.c): loop, ofi
# tcp;ofi_rxm and ofi shm, each with --validate on 2 sizes and -n 20, host memory. Each run
# must exit 0 on both sides, and the client's CSV must hold one row per size with sane
# figures: bandwidth > 0 and peak >= average; latency 0 < min <= median <= max and
# min <= average <= max. A row whose transport this build lacks, or whose provider this
# host lacks, is skipped with the reason; the test skips (77) when every row is.
# Then --compare over loop with the CUDA driver double (tests/cuda_double): loop registers
# no GPU memory, so the direct and gpu-proxy rows are left out with one line saying why,
# and the host and staged rows run; the same over ofi tcp;ofi_rxm and shm (the opened
# provider registers no CUDA memory here); and --staged over ofi tcp;ofi_rxm with the double.
# Other rows (tests/e2e/ofi.sh: verbs;ofi_rxm in the Soft-RoCE VM): T_PROGS_ROWS, lines of
# "NAME|OPTIONS"; T_PROGS_ADDR the server's address (127.0.0.1); T_PROGS_CUDA=0 skips the
# CUDA double's cases; T_PROGS_PROGS the programs to run (the six).
srcdir=${srcdir:-.}
. "$srcdir/tests/lib.sh"
t_tmpdir t t_progs
progs=${T_PROGS_PROGS:-write_bw read_bw send_bw write_lat read_lat send_lat}
sizes="64 4096"
n=20
port=$((20000 + $$ % 20000))
ran=0

# run NAME PROGRAM CLIENT-OPTIONS... : both sides of PROGRAM, bounded; the client's CSV in
# $t/NAME.csv, its output in $t/NAME.c, the server's in $t/NAME.s; sets rc_s and rc_c.
run() {
	_name=$1 _prog=./gdr_$2
	shift 2
	port=$((port + 1))
	# the server runs the client's test; its own options name the transport only
	timeout 120 $_prog $srv_opts -p $port --listen_timeout=60 --timeout=20 \
		>"$t/$_name.s" 2>&1 &
	_pid=$!
	timeout 120 $_prog $srv_opts "$@" -p $port --connect_timeout=30 --timeout=20 \
		--csv "$t/$_name.csv" "${T_PROGS_ADDR:-127.0.0.1}" >"$t/$_name.c" 2>&1
	rc_c=$?
	wait $_pid
	rc_s=$?
}

# check NAME PROGRAM PATHS [TRANSPORT PROVIDER]: the client's CSV holds, for each size and
# each of PATHS (the path column), one row of n iterations with sane figures; with
# TRANSPORT, every row's transport and provider cells (schema 8) are those.
check() {
	awk -F, -v sizes="$sizes" -v paths="$3" -v n=$n -v name="$1" -v lat="${2##*_}" \
		-v xport="${4:-}" -v prov="${5:-}" '
	function fail(m) { print "FAIL " name ": " m; bad = 1 }
	{ gsub(/"[^"]*"/, "q") }
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{
		key = $col["path"] " " $col["bytes"]
		rows[key]++
		if (xport != "" && ($col["transport"] != xport || $col["provider"] != prov))
			fail(key ": transport \"" $col["transport"] "\" provider \"" \
			     $col["provider"] "\", not \"" xport "\" \"" prov "\"")
		if ($col["iterations"] != n)
			fail(key ": " $col["iterations"] " iterations, not " n)
		if (lat == "bw") {
			avg = $col["bw_avg_MiBps"] + 0; peak = $col["bw_peak_MiBps"]
			if (!(avg > 0)) fail(key ": bandwidth " avg)
			if (peak != "" && peak + 0 < avg) fail(key ": peak " peak " < average " avg)
		} else {
			lo = $col["t_min_us"] + 0; med = $col["t_median_us"] + 0
			hi = $col["t_max_us"] + 0; mean = $col["t_avg_us"] + 0
			if (!(lo > 0 && lo <= med && med <= hi && lo <= mean && mean <= hi))
				fail(key ": min " lo " median " med " average " mean " max " hi)
		}
	}
	END {
		np = split(paths, p, " "); ns = split(sizes, s, " ")
		for (i = 1; i <= np; i++)
			for (j = 1; j <= ns; j++)
				if (rows[p[i] " " s[j]] != 1)
					fail(rows[p[i] " " s[j]] + 0 " rows for " p[i] " " s[j] " bytes")
		if (NR - 1 != np * ns) fail(NR - 1 " rows, not " np * ns)
		exit bad
	}' "$t/$1.csv" || { t_fail=1; return 1; }
}

show() { # NAME: both sides' output, after a failure
	echo "  client (exit $rc_c):"; sed 's/^/    /' "$t/$1.c"
	echo "  server (exit $rc_s):"; sed 's/^/    /' "$t/$1.s"
}

while IFS='|' read -r row srv_opts; do
	[ -n "$row" ] || continue
	absent=
	for prog in $progs; do
		name=$(echo "$row.$prog" | tr -c 'a-z0-9_.\n' '_')
		# shellcheck disable=SC2086 # the options are words
		run "$name" $prog --sizes=64:4096:64 -n $n --validate
		why=$(grep -h -e 'has no FI_EP_RDM endpoint' -e 'this build has no ofi transport' \
			-e 'ofi: libfabric.so.1 not found' \
			-e 'loop: process_vm_readv: Function not implemented' "$t/$name.c" | head -1)
		if [ -n "$why" ]; then
			absent=$why
			break
		fi
		if [ $rc_c -ne 0 ] || [ $rc_s -ne 0 ]; then
			echo "FAIL $row $prog: client exit $rc_c, server exit $rc_s"
			show "$name"
			t_fail=1
			continue
		fi
		# the row's name: the transport, then ofi's provider
		check "$name" $prog "host" "${row%% *}" "$(echo "$row" | sed -n 's/^[^ ]* //p')" &&
			echo "ok $row $prog"
	done
	if [ -n "$absent" ]; then
		echo "skip $row: $absent"
	else
		ran=$((ran + 1))
		[ "$row" != "ofi tcp;ofi_rxm" ] || tcp_ok=1
		[ "$row" != "ofi shm" ] || shm_ok=1
		[ "$row" != loop ] || loop_ok=1
	fi
done <<ROWS
${T_PROGS_ROWS:-loop|--transport=loop
ofi tcp;ofi_rxm|--transport=ofi --provider=tcp;ofi_rxm
ofi shm|--transport=ofi --provider=shm}
ROWS

# --prom over ofi: a row's series say the transport and the provider as opened (the device,
# "lo", does not: it is tcp's and shm's); a verbs run's series carry neither
if [ -n "${tcp_ok:-}" ]; then
	srv_opts="--transport=ofi --provider=tcp;ofi_rxm"
	run ofi_prom write_bw -s 4096 -n $n --prom="$t/ofi.prom"
	if [ $rc_c -ne 0 ] || [ $rc_s -ne 0 ] ||
		! grep -q '^gdr_bandwidth_bytes_per_second{.*device="[^"]*",transport="ofi",provider="tcp;ofi_rxm",' "$t/ofi.prom"; then
		echo "FAIL ofi tcp;ofi_rxm --prom: client exit $rc_c, server exit $rc_s, or no series labelled transport=\"ofi\",provider=\"tcp;ofi_rxm\""
		show ofi_prom
		sed 's/^/    /' "$t/ofi.prom" 2>/dev/null | grep -v '^    #' | head -5
		t_fail=1
	else
		echo "ok ofi tcp;ofi_rxm --prom: the series carry transport and provider"
	fi
fi

# --compare with the CUDA double over loop (both sides' memory on the double's GPU 0)
GDR_LIBCUDA=$PWD/tests/cuda_double/libcuda.so.1
if [ "${T_PROGS_CUDA:-1}" = 0 ]; then
	echo "skip the CUDA double's cases: T_PROGS_CUDA=0"
elif [ -z "${loop_ok:-}" ]; then
	echo "skip the CUDA double's cases: the loop row did not run"
elif [ ! -f "$GDR_LIBCUDA" ]; then
	echo "skip --compare with the CUDA double: not built (a build without cuda.h)"
else
	export GDR_LIBCUDA
	srv_opts="--transport=loop --use_cuda=0"
	for prog in write_bw send_lat; do
		name=cmp_$prog
		run $name $prog --compare --sizes=64:4096:64 -n $n --validate
		note="note: no direct or gpu-proxy row: the loop transport: it cannot register GPU memory (no HMEM or dma-buf)"
		if [ $rc_c -ne 0 ] || [ $rc_s -ne 0 ] || [ "$(grep -cF "$note" "$t/$name.c")" -ne 1 ]; then
			echo "FAIL loop --compare $prog: client exit $rc_c, server exit $rc_s, or not one note line"
			show $name
			t_fail=1
			continue
		fi
		check $name $prog "host staged" loop "" && echo "ok loop --compare $prog: host and staged rows, no direct row (its line)"
	done
	# --compare over ofi: whether GPU memory registers is the opened provider's word, not the
	# build's: tcp;ofi_rxm has no FI_HMEM, Debian's shm has FI_HMEM in a libfabric built
	# without CUDA; both leave the direct and gpu-proxy rows out with the line naming the
	# provider, and the host and staged rows run (before: registration failed, no rows)
	for prov in "tcp;ofi_rxm" shm; do
		case $prov in
		shm) ok=${shm_ok:-} ;;
		*) ok=${tcp_ok:-} ;;
		esac
		if [ -z "$ok" ]; then
			echo "skip ofi $prov --compare with the CUDA double: its row did not run"
			continue
		fi
		name=cmp_ofi_$(echo "$prov" | tr -c 'a-z0-9_\n' '_')
		srv_opts="--transport=ofi --provider=$prov --use_cuda=0"
		run "$name" write_bw --compare --sizes=64:4096:64 -n $n --validate
		note="note: no direct or gpu-proxy row: the ofi transport with provider $prov: it cannot register GPU memory (no HMEM or dma-buf)"
		if [ $rc_c -ne 0 ] || [ $rc_s -ne 0 ] || [ "$(grep -cF "$note" "$t/$name.c")" -ne 1 ]; then
			echo "FAIL ofi $prov --compare write_bw: client exit $rc_c, server exit $rc_s, or not one note line"
			show "$name"
			t_fail=1
			continue
		fi
		check "$name" write_bw "host staged" ofi "$prov" && echo "ok ofi $prov --compare write_bw: host and staged rows, no direct row (its line)"
	done
	# --staged over ofi tcp;ofi_rxm: the bounce buffers are host memory, the provider's
	# lack of FI_HMEM does not matter
	if [ -n "${tcp_ok:-}" ]; then
		srv_opts="--transport=ofi --provider=tcp;ofi_rxm --use_cuda=0"
		run ofi_staged write_bw --staged --sizes=64:4096:64 -n $n --validate
		if [ $rc_c -ne 0 ] || [ $rc_s -ne 0 ]; then
			echo "FAIL ofi tcp;ofi_rxm --staged write_bw: client exit $rc_c, server exit $rc_s"
			show ofi_staged
			t_fail=1
		else
			check ofi_staged write_bw staged ofi "tcp;ofi_rxm" && echo "ok ofi tcp;ofi_rxm --staged write_bw with the CUDA double"
		fi
	fi
fi
[ $t_fail -eq 0 ] || exit 1
[ $ran -gt 0 ] || exit 77
echo "t_progs.sh: $(echo $progs | wc -w) programs over $ran transports"
