#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/e2e/run.sh - end-to-end suite: real traffic between a gdrperf server and client
# on one RDMA device (normally rxe0 inside the VM of scripts/ci/rxe-vm.sh; on a host with
# a real device, both sides run on it and connect through its IP address).
#
# Usage: tests/e2e/run.sh [NAME-REGEX]     (runs the cases whose name matches;
#        the regex may also come in E2E_FILTER)
# Environment:
#   E2E_BIN     folder holding gdr_write_bw etc. (default: the current folder)
#   E2E_TOOL    gdr (default) or perftest (Debian's ib_*_bw/_lat, to prove the harness)
#   E2E_OUT     where case outputs go (default: $RXE_VM_OUT or ./e2e-out); a failed case
#               keeps its folder E2E_OUT/cases/NAME (server.out, client.out, cmd)
#   E2E_DEV     RDMA device (rxe0)     E2E_ADDR  server address (10.9.0.1)
#   E2E_PORT    first TCP port (19000); each case gets its own
#   E2E_FAULTS  1 (default) also runs the peer-fault cases; 0 skips them
#   E2E_KEEP    1 keeps the folders of passed cases too
#   E2E_JOBS    table cases run at once (default 1); those that check a figure or a time
#               still run alone (see solo below), the peer-fault cases one at a time
#   E2E_SERVER_OPTS / E2E_CLIENT_OPTS  extra options for every gdr server / client
#   E2E_TABS    case tables to read, in tests/e2e (default "cases.tab gpu.tab"; with
#               E2E_TOOL=perftest only cases.tab)
#   E2E_LIBCUDA the CUDA driver double that gpu*.tab cases load through GDR_LIBCUDA
#               (default: E2E_BIN/tests/cuda_double/libcuda.so.1, built by make check)
#   E2E_LIBMLX5 the mlx5dv data-direct shim gpu*.tab cases load through GDR_LIBMLX5
#               (default: E2E_BIN/tests/mlx5dv_shim/libmlx5.so.1, built by make check)
#   E2E_LIBGDRAPI the gdrcopy double gpu*.tab cases load through GDR_LIBGDRAPI
#               (default: E2E_BIN/tests/gdrcopy_double/libgdrapi.so.2, built by make check)
#   E2E_LIBHIP  the HIP runtime double (with the HSA dma-buf export) gpu*.tab cases load
#               through GDR_LIBHIP and GDR_LIBHSA for --use_rocm (default:
#               E2E_BIN/tests/hip_double/libamdhip64.so.6, built by make check)
#   E2E_OFI_RUNS the verbs;ofi_rxm programs' runs (1; tests/e2e/ofi.sh)
# Cases: tests/e2e/cases.tab, tests/e2e/gpu.tab (tables, documented in cases.tab), the
# libfabric cases of tests/e2e/ofi.sh (ofi_rxm.*: after the tables) and the fault_* functions
# below.
# Exit status: 0 when every case passed, 1 otherwise.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
filter=${1:-${E2E_FILTER:-.}}
tool=${E2E_TOOL:-gdr}
bindir=${E2E_BIN:-$PWD}
out=${E2E_OUT:-${RXE_VM_OUT:-$PWD/e2e-out}}
dev=${E2E_DEV:-rxe0}
addr=${E2E_ADDR:-10.9.0.1}
port=${E2E_PORT:-19000}
tabs=${E2E_TABS:-cases.tab gpu.tab}
[[ $tool == perftest ]] && tabs=cases.tab
libcuda=${E2E_LIBCUDA:-$bindir/tests/cuda_double/libcuda.so.1}
libmlx5=${E2E_LIBMLX5:-$bindir/tests/mlx5dv_shim/libmlx5.so.1}
libgdrapi=${E2E_LIBGDRAPI:-$bindir/tests/gdrcopy_double/libgdrapi.so.2}
libhip=${E2E_LIBHIP:-$bindir/tests/hip_double/libamdhip64.so.6}
T_SRV=150 # outer limits (s) for a server / client process in a pass case
T_CLI=120
mkdir -p "$out/cases" "$out/jobs" || exit 1

case $tool in
gdr)
	prefix=$bindir/gdr_
	s_opts=${E2E_SERVER_OPTS:---listen_timeout 60 --timeout 15}
	c_opts=${E2E_CLIENT_OPTS:---timeout 15}
	[[ -x ${prefix}write_bw ]] || {
		echo "e2e: error: ${prefix}write_bw not found: build first, or set E2E_BIN (or E2E_TOOL=perftest)" >&2
		exit 1
	}
	;;
perftest)
	prefix=ib_
	s_opts=
	c_opts=
	command -v ib_write_bw >/dev/null || {
		echo "e2e: error: ib_write_bw not found: install perftest" >&2
		exit 1
	}
	;;
*)
	echo "e2e: error: E2E_TOOL=$tool: use gdr or perftest" >&2
	exit 1
	;;
esac

npass=0
nfail=0
nskip=0
failed=()
ulimit -l unlimited 2>/dev/null
ulimit -c 0

# phases: run_case's split of a case's time (set by it, empty for the fault_* cases)
phases=
pass()
{
	printf 'PASS %-28s %3ss%s\n' "$1" "$2" "${phases:+  ($phases)}"
	phases=
	npass=$((npass + 1))
	[[ ${E2E_KEEP:-0} == 1 ]] || rm -rf -- "${cdir:?}"
}
fail()
{
	printf 'FAIL %-28s %s (kept in %s)%s\n' "$1" "$2" "$cdir" "${phases:+ ($phases)}"
	phases=
	nfail=$((nfail + 1))
	failed+=("$1")
}
skip()
{
	printf 'SKIP %-28s %s\n' "$1" "$2"
	phases=
	nskip=$((nskip + 1))
	rm -rf -- "${cdir:?}"
}

# nap SECONDS: sleep without starting a process (each exec costs about 0.2 s in the
# emulated VM): a read with a timeout on a pipe nobody writes to
exec {nap_fd}<> <(:)
nap()
{
	read -rt "$1" -u "$nap_fd" _ || :
}

# stamp VAR: the wall clock in microseconds into VAR; phase WHAT US: append "WHAT 1.2" (the
# seconds since the stamp US) to $phases (both without a subshell: a fork is dear in the VM)
stamp()
{
	local -n v_=$1
	v_=${EPOCHREALTIME/[.,]/}
	v_=$((10#$v_))
}
phase()
{
	local now d
	stamp now
	d=$((now - $2))
	phases+="${phases:+, }$1 $((d / 1000000)).$((d % 1000000 / 100000))"
}

# tcp_listening PORT: something listens on TCP port PORT (read from /proc, no process)
tcp_listening()
{
	local hex f laddr st _
	printf -v hex ':%04X' "$1"
	for f in /proc/net/tcp /proc/net/tcp6; do
		[[ -r $f ]] || continue
		while read -r _ laddr _ st _; do
			[[ $laddr == *"$hex" && $st == 0A ]] && return 0
		done <"$f"
	done
	return 1
}

# wait_listen PORT PID SECONDS [CM]: until something listens on PORT (TCP, or with CM=1 rdma_cm),
# 0 when it does, 1 when PID ended first or the time ran out.
wait_listen()
{
	local p=$1 pid=$2 i
	for ((i = 0; i < $3 * 10; i++)); do
		tcp_listening "$p" && return 0
		# rdma_cm listeners show only in rdma's table (one process, 0.3-0.7 s in the VM: every
		# 3rd turn, and only for a server that listens there: -R)
		((${4:-0} == 1 && i % 3 == 2)) && rdma res show cm_id 2>/dev/null | grep -q "LISTEN.*:$p\b" && return 0
		kill -0 "$pid" 2>/dev/null || return 1
		nap 0.1
	done
	return 1
}

# reap PID SECONDS: PID's exit status in $reaped; stops PID (status 124, "hung") when it
# has not ended within SECONDS (PID is a `timeout` process: TERM reaches its child)
reap()
{
	local i
	for ((i = 0; i < $2 * 20; i++)); do
		kill -0 "$1" 2>/dev/null || break
		nap 0.05
	done
	if kill -0 "$1" 2>/dev/null; then
		kill -TERM "$1" 2>/dev/null
		wait "$1" 2>/dev/null
		reaped=124
		return
	fi
	wait "$1"
	reaped=$?
}

# rc_desc RC: words for an exit status
rc_desc()
{
	case $1 in
	0) echo ok ;;
	124 | 137) echo "hung (killed by the time limit)" ;;
	13[0-9] | 1[4-9][0-9]) echo "killed by signal $(($1 - 128))" ;;
	*) echo "exit $1" ;;
	esac
}

# failed_cleanly RC: non-zero, and neither the time limit nor a signal
failed_cleanly()
{
	[[ $1 -ne 0 && $1 -lt 124 ]]
}

# split_csv(line, f): split RFC 4180 line into f[1..n] (quoted fields may hold commas); the
# start of the awk programs of csv_ok and csv_paths
awk_split_csv='
	function split_csv(line, f,    n, i, c, q, cur) {
		n = 0; cur = ""; q = 0
		for (i = 1; i <= length(line); i++) {
			c = substr(line, i, 1)
			if (q) {
				if (c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
				else if (c == "\"") q = 0
				else cur = cur c
			} else if (c == "\"") q = 1
			else if (c == ",") { f[++n] = cur; cur = "" }
			else cur = cur c
		}
		f[++n] = cur
		return n
	}'

# csv_ok FILE MINROWS [NOPEAK]: FILE has >= MINROWS rows and each has a positive figure; every
# bandwidth row has a peak, its peak >= its average (issue 23: the peak windows must
# cover the run the average covers) and not 1000x it (issue 22: a wrapped counter); with
# CSV schema 4, a positive ceiling_Gbps, a limit and of_ceiling = Gbps / ceiling (latency
# rows: none). Not Gbps <= ceiling: the ceiling is this side's facts only (rxe's 10 Gb/s)
# (awk, not python: a python start costs about a second in the emulated VM). NOPEAK 1 (-N):
# no bandwidth row has a peak.
csv_ok()
{
	[[ -r $1 ]] || { echo "no CSV: $1 not written" && return 1; }
	awk -v min="$2" -v nopeak="${3:-0}" "$awk_split_csv"'
	NR == 1 {
		nf = split_csv($0, h)
		for (i = 1; i <= nf; i++)
			col[h[i]] = i
		n = split("bw_avg_MiBps msg_rate_Mpps t_median_us t_avg_us", want, " ")
		next
	}
	{
		split_csv($0, f)
		rows++
		pos = 0
		for (k = 1; k <= n; k++)
			if ((want[k] in col) && f[col[want[k]]] + 0 > 0)
				pos = 1
		if (!pos) {
			printf "CSV row for %s bytes has no positive figure\n", f[col["bytes"]]
			bad = 1
			exit
		}
		# every bandwidth row: a peak, and peak >= average (the windows tile the run)
		for (k = 1; k <= 2; k++) {
			u = k == 1 ? "MiBps" : "Gbps"
			a = "bw_avg_" u
			pk = "bw_peak_" u
			if (!(a in col) || !(pk in col) || f[col[a]] == "" || f[col[a]] + 0 <= 0)
				continue
			if (nopeak && f[col[pk]] != "") { # -N: no peak is tracked, none reported
				printf "CSV row for %s bytes (%s) has a peak with -N\n", f[col["bytes"]], f[col["path"]]
				bad = 1
				exit
			}
			if (nopeak)
				continue
			if (f[col[pk]] == "") {
				printf "CSV row for %s bytes (%s) has an average but no peak\n", f[col["bytes"]], f[col["path"]]
				bad = 1
				exit
			}
			if (f[col[pk]] + 0 < f[col[a]] + 0) {
				printf "CSV row for %s bytes (%s): peak %s below average %s\n", f[col["bytes"]], f[col["path"]], f[col[pk]], f[col[a]]
				bad = 1
				exit
			}
			# and not absurd: a counter subtracted from another wraps to ~1e24 B/s (issue 22)
			if (f[col[pk]] + 0 > 1000 * f[col[a]]) {
				printf "CSV row for %s bytes (%s): peak %s is over 1000x the average %s\n", f[col["bytes"]], f[col["path"]], f[col[pk]], f[col[a]]
				bad = 1
				exit
			}
		}
		# schema 4: a bandwidth row has a positive ceiling, what sets it, and its fraction
		# of it (Gbps / ceiling); a latency row none
		if (!("ceiling_Gbps" in col) || !("kind" in col))
			next
		c = f[col["ceiling_Gbps"]]
		if (f[col["kind"]] == "bw") {
			g = f[col["bw_avg_Gbps"]] + 0
			of = f[col["of_ceiling"]]
			if (c + 0 <= 0 || f[col["limit"]] == "" || of == "") {
				printf "CSV row for %s bytes (%s): ceiling \"%s\", limit \"%s\", of_ceiling \"%s\"\n", f[col["bytes"]], f[col["path"]], c, f[col["limit"]], of
				bad = 1
				exit
			}
			d = of - g / c
			if (d < 0)
				d = -d
			if (d > 1e-6 * (g / c) + 1e-12) {
				printf "CSV row for %s bytes (%s): of_ceiling %s is not %s / %s\n", f[col["bytes"]], f[col["path"]], of, g, c
				bad = 1
				exit
			}
		} else if (c != "" || f[col["limit"]] != "") {
			printf "CSV latency row for %s bytes (%s) has a ceiling \"%s\" / \"%s\"\n", f[col["bytes"]], f[col["path"]], c, f[col["limit"]]
			bad = 1
			exit
		}
	}
	END {
		if (bad)
			exit 1
		if (rows < min) {
			printf "CSV has %d rows, expected >= %d\n", rows, min
			exit 1
		}
	}' "$1"
}

# csv_paths FILE "P1 P2 ...": every size has one row per path, in that order, and
# every path moved the same messages (iterations and bytes equal across the paths)
csv_paths()
{
	[[ -r $1 ]] || { echo "no CSV: $1 not written" && return 1; }
	awk -v want="$2" "$awk_split_csv"'
	NR == 1 {
		nf = split_csv($0, h)
		for (i = 1; i <= nf; i++)
			col[h[i]] = i
		np = split(want, p, " ")
		next
	}
	{
		split_csv($0, f)
		rows++
		b = f[col["bytes"]]
		k = ++n[b]
		if (k > np || f[col["path"]] != p[k]) {
			printf "CSV: %s-byte row %d is path %s, expected %s\n", b, k, f[col["path"]], (k > np ? "none" : p[k])
			bad = 1
			exit
		}
		if (k == 1)
			it[b] = f[col["iterations"]]
		else if (f[col["iterations"]] != it[b]) {
			printf "CSV: %s bytes: %s path %s iterations, %s path %s\n", b, p[1], it[b], p[k], f[col["iterations"]]
			bad = 1
			exit
		}
	}
	END {
		if (bad)
			exit 1
		for (b in n)
			if (n[b] != np) {
				printf "CSV: %s bytes has %d paths, expected %d (%s)\n", b, n[b], np, want
				exit 1
			}
		if (!rows) {
			print "CSV: no rows"
			exit 1
		}
	}' "$1"
}

# csv_copies FILE "C1 C2 ..." MIXED: every staged row (a stage_copy cell) names copiers
# of the set on each side ("sm" or "sm/ce"), at least one row is staged, and with MIXED=1
# the rows name more than one choice (auto crossed over)
csv_copies()
{
	[[ -r $1 ]] || { echo "no CSV: $1 not written" && return 1; }
	awk -v want="$2" -v mixed="$3" "$awk_split_csv"'
	NR == 1 {
		nf = split_csv($0, h)
		for (i = 1; i <= nf; i++)
			col[h[i]] = i
		if (!("stage_copy" in col)) {
			print "CSV: no stage_copy column"
			bad = 1
			exit
		}
		n = split(want, w, " ")
		for (i = 1; i <= n; i++)
			ok[w[i]] = 1
		next
	}
	{
		split_csv($0, f)
		v = f[col["stage_copy"]]
		if (f[col["path"]] != "staged") {
			if (v != "") {
				printf "CSV: %s-byte %s row names copier %s\n", f[col["bytes"]], f[col["path"]], v
				bad = 1
				exit
			}
			next
		}
		staged++
		k = split(v, s, "/")
		for (i = 1; i <= k; i++)
			if (!(s[i] in ok) || k > 2) {
				printf "CSV: %s-byte staged row: stage_copy \"%s\", expected from {%s}\n", f[col["bytes"]], v, want
				bad = 1
				exit
			}
		if (!(v in seen))
			kinds++
		seen[v] = 1
	}
	END {
		if (bad)
			exit 1
		if (!staged) {
			print "CSV: no staged row"
			exit 1
		}
		if (mixed && kinds < 2) {
			printf "CSV: every staged row chose %s, expected a crossover\n", v
			exit 1
		}
	}' "$1"
}

# a result row in the text output: a line starting with a size and an iteration count,
# or --output's figure alone on its line (perftest's "%lf")
text_ok()
{
	grep -Eq '^[[:space:]]*[0-9]+[[:space:]]+[0-9]+[[:space:]]+([0-9.]+|n/a)|^[0-9]+\.[0-9]{6}$' "$1"
}

# sweep_rows ARGS: the number of sizes an option list asks for (1 without a sweep)
sweep_rows()
{
	local a s min max f n=0
	for a in "$@"; do
		case $a in
		--sizes=*) s=${a#--sizes=} ;;
		-a | --all) echo 23 && return ;; # 2 B .. 8 MiB
		esac
	done
	[[ -z ${s:-} ]] && echo 1 && return
	IFS=: read -r min max f <<<"$s"
	min=$(tosize "$min")
	max=$(tosize "$max")
	f=${f:-2}
	while ((min < max)); do
		n=$((n + 1))
		min=$((min * f))
	done
	echo $((n + 1)) # ... then MAX itself
}
tosize()
{
	case $1 in
	*K) echo $((${1%K} * 1024)) ;;
	*M) echo $((${1%M} * 1048576)) ;;
	*G) echo $((${1%G} * 1073741824)) ;;
	*) echo "$1" ;;
	esac
}

# run_case NAME BIN SERVER-ARGS CLIENT-ARGS EXPECT
run_case()
{
	local name=$1 bin=${prefix}$2 sargs=$3 cargs=$4 expect=$5 re= minrows
	local p=$port t0 spid src=none crc=none csv us_s us_c
	port=$((port + 1))
	phases=
	cdir=$out/cases/$name
	rm -rf -- "$cdir"
	mkdir -p "$cdir"
	[[ $expect == *~* ]] && re=${expect#*~} && expect=${expect%%~*}
	# KIND@N: the failing side (cfail/sfail: that side; fail: the client) must exit N
	local want_rc=
	[[ $expect == *@* ]] && want_rc=${expect#*@} && expect=${expect%%@*}
	# shellcheck disable=SC2206
	local -a sa=($sargs) ca=($cargs) senv=() cenv=()
	# leading NAME=VALUE words: that side's environment
	while [[ ${sa[0]:-} =~ ^[A-Z_][A-Z0-9_]*= ]]; do
		senv+=("${sa[0]}")
		sa=("${sa[@]:1}")
	done
	while [[ ${ca[0]:-} =~ ^[A-Z_][A-Z0-9_]*= ]]; do
		cenv+=("${ca[0]}")
		ca=("${ca[@]:1}")
	done
	# @BIN@ in an environment word: E2E_BIN (a test library's path for LD_PRELOAD)
	senv=("${senv[@]//@BIN@/$bindir}")
	cenv=("${cenv[@]//@BIN@/$bindir}")
	if [[ $tool == perftest ]]; then
		# perftest needs the test options on both sides, and knows few long options
		if [[ " $sargs $cargs " =~ \ --(sizes|validate|connect_timeout|listen_timeout|json|csv|timeout) ]]; then
			skip "$name" "(option not in perftest)"
			return
		fi
		[[ $sargs != - && $cargs != - ]] && sa=("${sa[@]}" "${ca[@]}")
		sa=(-d "$dev" "${sa[@]}")
		ca=(-d "$dev" "${ca[@]}")
	else
		csv=$cdir/client.csv
		# shellcheck disable=SC2206
		sa=(-d "$dev" $s_opts "${sa[@]}")
		# shellcheck disable=SC2206
		ca=(-d "$dev" $c_opts --csv "$csv" "${ca[@]}")
	fi
	sa+=(-p "$p")
	ca+=(-p "$p" "$addr")
	t0=$SECONDS
	{
		echo "server: ${senv[*]}${senv:+ }$bin ${sa[*]}"
		echo "client: ${cenv[*]}${cenv:+ }$bin ${ca[*]}"
	} >"$cdir/cmd"

	case $expect in
	cfail | sfail) # one side alone must fail cleanly (and match RE when given)
		local side=client rc
		local -a e=("${cenv[@]}") a=("${ca[@]}")
		[[ $expect == sfail ]] && side=server e=("${senv[@]}") a=("${sa[@]}")
		stamp us_c
		env "${e[@]}" timeout -k 5 20 "$bin" "${a[@]}" >"$cdir/$side.out" 2>&1
		rc=$?
		phase $side "$us_c"
		if failed_cleanly $rc && { [[ -z $re ]] || grep -Eq -- "$re" "$cdir/$side.out"; } &&
			[[ -z $want_rc || $rc -eq $want_rc ]]; then
			pass "$name" $((SECONDS - t0))
		else
			fail "$name" "$side: $(rc_desc $rc), expected a clean failure${want_rc:+ with exit $want_rc}${re:+ matching /$re/}"
		fi
		return
		;;
	esac

	stamp us_s
	env "${senv[@]}" timeout -k 5 $T_SRV "$bin" "${sa[@]}" >"$cdir/server.out" 2>&1 &
	local spid=$!
	local cm=0
	[[ " ${sa[*]} " == *" -R "* ]] && cm=1
	wait_listen "$p" $spid 20 $cm
	local listening=$?
	phase listen "$us_s"
	if ((listening != 0)); then
		reap $spid 1
		src=$reaped
		fail "$name" "server not listening on port $p after 20 s (server: $(rc_desc $src))"
		return
	fi
	stamp us_c
	env "${cenv[@]}" timeout -k 5 $T_CLI "$bin" "${ca[@]}" >"$cdir/client.out" 2>&1
	crc=$?
	phase client "$us_c"
	reap $spid 20
	src=$reaped
	phase server "$us_s"
	local why=
	case $expect in
	fail | bothfail)
		why=$(judge_failure "$expect" "$re" $src $crc)
		[[ -z $want_rc || $crc -eq $want_rc ]] || why+="${why:+; }client: $(rc_desc $crc), expected exit $want_rc"
		if [[ -z $why ]]; then pass "$name" $((SECONDS - t0)); else fail "$name" "$why"; fi
		return
		;;
	esac
	[[ $crc -ne 0 ]] && why="client: $(rc_desc $crc); "
	[[ $src -ne 0 ]] && why+="server: $(rc_desc $src); "
	if [[ -z $why ]]; then
		text_ok "$cdir/client.out" || why+="no result row in the client's output; "
		if [[ $tool == gdr ]]; then
			minrows=$(sweep_rows "${ca[@]}")
			local e
			local np=0
			[[ " ${ca[*]} " == *" -N "* || " ${ca[*]} " == *" --noPeak "* ]] && np=1
			e=$(csv_ok "$csv" "$minrows" $np 2>&1) || why+="$e; "
		fi
		if [[ $expect == paths ]]; then
			# paths~P1 P2[~RE]: RE, when given, matches the client's output
			local pre=
			[[ $re == *~* ]] && pre=${re#*~} && re=${re%%~*}
			e=$(csv_paths "$csv" "$re" 2>&1) || why+="$e; "
			[[ -n $pre ]] && ! grep -Eq -- "$pre" "$cdir/client.out" &&
				why+="output does not match /$pre/; "
		elif [[ $expect == copies || $expect == mixed ]]; then
			# copies~SET[~RE]: the staged rows' copiers; RE, when given, matches the output
			local set=${re%%~*} ore=
			[[ $re == *~* ]] && ore=${re#*~}
			e=$(csv_copies "$csv" "$set" $([[ $expect == mixed ]] && echo 1 || echo 0) 2>&1) ||
				why+="$e; "
			[[ -n $ore ]] && ! grep -Eq -- "$ore" "$cdir/client.out" &&
				why+="output does not match /$ore/; "
		elif [[ -n $re ]] && ! grep -Eq -- "$re" "$cdir/client.out"; then
			why+="output does not match /$re/$(near "$re" "$cdir/client.out"); "
		fi
	fi
	if [[ -z $why ]]; then
		pass "$name" $((SECONDS - t0))
	else
		fail "$name" "${why%; }"
	fi
}

# near RE FILE: ", near: TEXT", TEXT where FILE first holds RE's literal head (the text
# before its first special character, 6 characters or more) and 80 characters after it, so a
# figure that missed its bound is in the CI log; empty when there is no such head or line
near()
{
	local head line
	head=$(printf '%s' "$1" | sed 's/[][(){}|.*+?^$\\].*//')
	((${#head} >= 6)) || return 0
	line=$(grep -F -m1 -- "$head" "$2" 2>/dev/null) || return 0
	printf ', near: %s%.80s' "$head" "${line#*"$head"}"
}

# judge_failure KIND RE SRC-RC CLI-RC: empty when a run that must fail did so as asked,
# else why not. fail: one side or both exit non-zero, none hangs or dies of a signal,
# and RE matches the output of a side. bothfail: both sides exit non-zero, each prints
# one error line (one "error:"), RE matches one side's output.
judge_failure()
{
	local kind=$1 re=$2 src=$3 crc=$4 why= side rc n
	for side in server client; do
		[[ $side == server ]] && rc=$src || rc=$crc
		if ((rc >= 124)); then
			why+="$side: $(rc_desc "$rc"); "
		elif [[ $kind == bothfail ]]; then
			((rc != 0)) || why+="$side: exit 0, expected a clean failure; "
			n=$(grep -c "error:" "$cdir/$side.out")
			((n == 1)) || why+="$side printed $n error lines, expected one; "
		fi
	done
	[[ $src -eq 0 && $crc -eq 0 ]] && why+="both sides exit 0, expected a failure; "
	if [[ -n $re ]] && ! grep -Eq -- "$re" "$cdir/server.out" "$cdir/client.out"; then
		why+="no output matches /$re/; "
	fi
	printf '%s' "${why%; }"
}

# ---- peer faults: each must end in bounded time, with clean (non-crash) errors ----
fault_opts()
{
	[[ $tool == gdr ]] && echo "--timeout 5" # peer waits give up after 5 s
}

# start_server NAME PORT LIMIT ARGS...: background server (gdr_$SBIN, default write_bw),
# sets spid; 1 if not listening
start_server()
{
	local name=$1 p=$2 lim=$3
	shift 3
	cdir=$out/cases/$name
	rm -rf -- "$cdir"
	mkdir -p "$cdir"
	local sbin=${prefix}${SBIN:-write_bw}
	echo "server: $sbin -d $dev -p $p $(fault_opts) $*" >>"$cdir/cmd"
	# shellcheck disable=SC2046
	timeout -k 5 "$lim" "$sbin" -d "$dev" -p "$p" $(fault_opts) "$@" >"$cdir/server.out" 2>&1 &
	spid=$!
	wait_listen "$p" $spid 20 && return 0
	reap $spid 1
	fail "$name" "server not listening on port $p after 20 s (server: $(rc_desc $reaped))"
	return 1
}

# client killed (SIGKILL) mid-run: the server must give up with an error, not hang.
fault_client_killed()
{
	local n=fault_client_killed p=$port t0=$SECONDS src
	port=$((port + 1))
	start_server $n $p 60 || return
	# shellcheck disable=SC2046
	(timeout -s KILL 6 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) -D 30 -s 64K "$addr" >"$cdir/client.out" 2>&1; true) 2>/dev/null
	reap $spid 30
	src=$reaped
	if failed_cleanly $src; then pass $n $((SECONDS - t0)); else fail $n "server: $(rc_desc $src) after its client died; expected a clean error"; fi
}

# server killed (SIGKILL) mid-run: the client must give up with an error, not hang.
fault_server_killed()
{
	local n=fault_server_killed p=$port t0=$SECONDS crc
	port=$((port + 1))
	cdir=$out/cases/$n
	rm -rf -- "$cdir"
	mkdir -p "$cdir"
	# shellcheck disable=SC2046
	(timeout -s KILL 6 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) >"$cdir/server.out" 2>&1; true) 2>/dev/null &
	spid=$!
	if ! wait_listen "$p" $spid 5; then
		reap $spid 1
		fail $n "server not listening on port $p"
		return
	fi
	# shellcheck disable=SC2046
	timeout -k 5 60 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) -D 30 -s 64K "$addr" >"$cdir/client.out" 2>&1
	crc=$?
	wait $spid
	if failed_cleanly $crc; then pass $n $((SECONDS - t0)); else fail $n "client: $(rc_desc $crc) after its server died; expected a clean error"; fi
}

# a second client while a test runs: it must be refused (error, bounded time) and
# the running test must complete.
fault_second_client()
{
	local n=fault_second_client p=$port t0=$SECONDS c1 c2 src c1pid why=
	port=$((port + 1))
	start_server $n $p 90 || return
	# shellcheck disable=SC2046
	timeout -k 5 60 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) -D 8 -s 64K "$addr" >"$cdir/client.out" 2>&1 &
	c1pid=$!
	sleep 3
	# shellcheck disable=SC2046
	timeout -k 5 30 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) -D 2 -s 64K "$addr" >"$cdir/client2.out" 2>&1
	c2=$?
	wait $c1pid
	c1=$?
	reap $spid 20
	src=$reaped
	failed_cleanly $c2 || why+="second client: $(rc_desc $c2), expected a clean refusal; "
	grep -q "busy" "$cdir/client2.out" || why+="second client was not told the server is busy; "
	[[ $c1 -eq 0 ]] || why+="first client: $(rc_desc $c1); "
	[[ $src -eq 0 ]] || why+="server: $(rc_desc $src); "
	if [[ -z $why ]]; then pass $n $((SECONDS - t0)); else fail $n "${why%; }"; fi
}

# --run_infinitely: a progress line per --interval until SIGINT, then the summary row and exit 0
# on both sides (the receiving server learns the end from the client's last messages). SIGINT
# comes once two progress lines are out (at most 60 s: on a loaded host the setup alone took
# more than 6 s; a fixed 15 s before).
infinite_sigint()
{
	local n=infinite_sigint p=$port t0=$SECONDS crc src lines=0 why= cpid i
	local re='\[ *[0-9.]+ s\] 65536 bytes'
	port=$((port + 1))
	SBIN=send_bw start_server $n $p 90 || return
	# shellcheck disable=SC2046
	timeout -k 30 120 "${prefix}send_bw" -d "$dev" -p "$p" $(fault_opts) \
		--run_infinitely --interval 1 -s 64K "$addr" >"$cdir/client.out" 2>&1 &
	cpid=$!
	for ((i = 0; i < 200 && lines < 2; i++)); do
		kill -0 $cpid 2>/dev/null || break
		nap 0.3
		lines=$(grep -Ec "$re" "$cdir/client.out")
	done
	kill -INT $cpid # timeout(1) passes it on to the client
	reap $cpid 30
	crc=$reaped
	reap $spid 30
	src=$reaped
	lines=$(grep -Ec "$re" "$cdir/client.out")
	[[ $crc -eq 0 ]] || why+="client: $(rc_desc $crc) after SIGINT, expected exit 0; "
	[[ $src -eq 0 ]] || why+="server: $(rc_desc $src), expected exit 0; "
	((lines >= 2)) || why+="$lines progress lines at --interval 1 before SIGINT (60 s at most); "
	text_ok "$cdir/client.out" || why+="no summary row; "
	if [[ -z $why ]]; then pass $n $((SECONDS - t0)); else fail $n "${why%; }"; fi
}

# garbage on the server's TCP port, then a real client: the server must either reject
# the garbage and serve the real client, or stop with a clean error; never crash or hang.
fault_garbage()
{
	local n=fault_garbage p=$port t0=$SECONDS src crc
	port=$((port + 1))
	start_server $n $p 60 || return
	python3 -c '
import socket, sys, os
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)
s.sendall(b"GET / HTTP/1.0\r\n\r\n" + os.urandom(4000))
s.close()' "$addr" "$p" >"$cdir/garbage.out" 2>&1
	sleep 1
	if kill -0 $spid 2>/dev/null; then
		# shellcheck disable=SC2046
		timeout -k 5 30 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) -s 4K -n 20 "$addr" >"$cdir/client.out" 2>&1
		crc=$?
		reap $spid 20
		src=$reaped
		if [[ $crc -eq 0 && $src -eq 0 ]]; then
			pass $n $((SECONDS - t0))
		else
			fail $n "after garbage, real client: $(rc_desc $crc), server: $(rc_desc $src)"
		fi
	else
		wait $spid
		src=$?
		fail $n "server stopped after garbage ($(rc_desc $src)); it must drop the connection and keep serving"
	fi
}

# the same test option given on both sides with different values: one clear error on
# both sides, within the time limit.
fault_mismatch()
{
	local n=fault_mismatch p=$port t0=$SECONDS src crc why=
	port=$((port + 1))
	start_server $n $p 30 -s 4096 || return
	# shellcheck disable=SC2046
	timeout -k 5 20 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) -s 64K -n 10 "$addr" >"$cdir/client.out" 2>&1
	crc=$?
	reap $spid 20
	src=$reaped
	failed_cleanly $crc || why+="client: $(rc_desc $crc); "
	failed_cleanly $src || why+="server: $(rc_desc $src); "
	grep -q "mismatched" "$cdir/client.out" || why+="client not told about the mismatch; "
	grep -q "mismatched" "$cdir/server.out" || why+="server did not report the mismatch; "
	if [[ -z $why ]]; then pass $n $((SECONDS - t0)); else fail $n "${why%; }"; fi
}

# a client that connects and says nothing: the server must not wait forever on it.
fault_silent_client()
{
	local n=fault_silent_client p=$port t0=$SECONDS src
	port=$((port + 1))
	start_server $n $p 60 || return
	timeout 40 python3 -c '
import socket, sys, time
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=5)
time.sleep(35)' "$addr" "$p" >"$cdir/silent.out" 2>&1 &
	local gpid=$!
	# until the server drops it (its HELLO deadline, 5 s after the connection; a fixed 12 s
	# before), at most 20 s: the python start alone takes seconds in the VM
	wait_for "$cdir/server.out" 'dropped .*; still waiting for a client' 20 $spid
	if kill -0 $spid 2>/dev/null; then
		# still alive: it must serve a real client now
		# shellcheck disable=SC2046
		timeout -k 5 30 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) -s 4K -n 20 "$addr" >"$cdir/client.out" 2>&1
		local crc=$?
		reap $spid 20
		src=$reaped
		kill $gpid 2>/dev/null
		wait $gpid 2>/dev/null
		if [[ $crc -eq 0 && $src -eq 0 ]]; then pass $n $((SECONDS - t0)); else fail $n "server stuck on a silent client (real client: $(rc_desc $crc), server: $(rc_desc $src))"; fi
	else
		wait $spid
		src=$?
		kill $gpid 2>/dev/null
		wait $gpid 2>/dev/null
		if failed_cleanly $src; then pass $n $((SECONDS - t0)); else fail $n "server: $(rc_desc $src)"; fi
	fi
}

# a client of another protocol version: a well-formed frame with version 2. It must get
# a REJECT back, and the server must drop it and keep serving a real client.
fault_version()
{
	local n=fault_version p=$port t0=$SECONDS src crc why=
	port=$((port + 1))
	start_server $n $p 60 || return
	python3 -c '
import socket, struct, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=10)
s.sendall(b"GDRP" + struct.pack("<HHI", 9, 1, 0))  # a version this build does not speak
hdr = s.recv(12)
ok = len(hdr) == 12 and hdr[:4] == b"GDRP" and struct.unpack("<H", hdr[6:8])[0] == 3
print("got REJECT" if ok else "no REJECT: %r" % hdr)
sys.exit(0 if ok else 1)' "$addr" "$p" >"$cdir/version.out" 2>&1 || why+="the other-version client got no REJECT ($(cat "$cdir/version.out")); "
	# shellcheck disable=SC2046
	timeout -k 5 30 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) -s 4K -n 20 "$addr" >"$cdir/client.out" 2>&1
	crc=$?
	reap $spid 20
	src=$reaped
	[[ $crc -eq 0 ]] || why+="real client after it: $(rc_desc $crc); "
	[[ $src -eq 0 ]] || why+="server: $(rc_desc $src); "
	grep -q "protocol version 9" "$cdir/server.out" || why+="server did not name the version; "
	if [[ -z $why ]]; then pass $n $((SECONDS - t0)); else fail $n "${why%; }"; fi
}

# client OUT LIMIT TEST PORT ARGS...: one client of gdr_TEST into $cdir/OUT; status in $crc
client()
{
	local o=$1 lim=$2 b=$3 p=$4
	shift 4
	echo "client: ${prefix}$b -d $dev -p $p $(fault_opts) $* $addr" >>"$cdir/cmd"
	# shellcheck disable=SC2046
	timeout -k 5 "$lim" "${prefix}$b" -d "$dev" -p "$p" $(fault_opts) "$@" "$addr" >"$cdir/$o" 2>&1
	crc=$?
}

# served_after WHAT [CLIENT-ARGS]: a real write_bw client (-s 4K -n 20) now succeeds and
# the server then exits 0; appends to the caller's $why (uses its $p and $spid)
served_after()
{
	local what=$1
	shift
	[[ $# -gt 0 ]] || set -- -s 4K -n 20
	client client.out 30 write_bw "$p" "$@"
	[[ $crc -eq 0 ]] || why+="real client${what:+ after $what}: $(rc_desc $crc); "
	reap $spid 20
	[[ $reaped -eq 0 ]] || why+="server: $(rc_desc $reaped); "
}

# end_case NAME T0 WHY: pass when WHY is empty
end_case()
{
	if [[ -z $3 ]]; then pass "$1" $((SECONDS - $2)); else fail "$1" "${3%; }"; fi
}

# a server started as read_bw and a write_bw client: one clear line on both sides.
# The server says at once what it waits for and how to start the client.
fault_wrong_test()
{
	local n=fault_wrong_test p=$port t0=$SECONDS why=
	port=$((port + 1))
	SBIN=read_bw start_server $n $p 30 -n 20 || return
	client client.out 20 write_bw "$p" -s 4K -n 20
	reap $spid 20
	failed_cleanly $crc || why+="client: $(rc_desc $crc); "
	failed_cleanly $reaped || why+="server: $(rc_desc $reaped); "
	grep -q "wrong test" "$cdir/client.out" || why+="client not told about the wrong test; "
	grep -q "wrong test" "$cdir/server.out" || why+="server did not report the wrong test; "
	grep -q "start the client with: gdr_read_bw" "$cdir/server.out" || why+="server did not say how to start its client; "
	grep -q "note: -n: the client decides" "$cdir/server.out" || why+="server did not say the client decides -n; "
	end_case $n $t0 "$why"
}

# a variant's wrong test (--write_with_imm against a read_bw server): the refusal names the
# program and its flag to start (gdr_write_bw --write_with_imm), not a binary that does not exist
fault_wrong_variant()
{
	local n=fault_wrong_variant p=$port t0=$SECONDS why=
	port=$((port + 1))
	SBIN=read_bw start_server $n $p 30 || return
	client client.out 20 write_bw "$p" --write_with_imm -s 4K -n 20
	reap $spid 20
	failed_cleanly $crc || why+="client: $(rc_desc $crc); "
	grep -q "client runs write_imm_bw" "$cdir/server.out" || why+="server did not name write_imm_bw; "
	grep -q "start it as gdr_write_bw --write_with_imm," "$cdir/client.out" ||
		why+="client not told how to start the server; "
	end_case $n $t0 "$why"
}

# --persistent: two clients one after another, different tests, both served; the server
# ends by itself (exit 0) when no client comes within --listen_timeout.
fault_persistent()
{
	local n=fault_persistent p=$port t0=$SECONDS why=
	port=$((port + 1))
	start_server $n $p 90 --persistent --listen_timeout 15 --prom="$out/cases/$n/server.prom" || return
	client client1.out 40 write_bw "$p" -s 4K -n 20
	[[ $crc -eq 0 ]] || why+="first client (write_bw): $(rc_desc $crc); "
	client client2.out 40 read_lat "$p" -s 64 -n 20
	[[ $crc -eq 0 ]] || why+="second client (read_lat): $(rc_desc $crc); "
	reap $spid 40
	[[ $reaped -eq 0 ]] || why+="server: $(rc_desc $reaped), expected exit 0 after idling; "
	grep -q "served 2 clients" "$cdir/server.out" || why+="server did not count 2 clients; "
	# --prom: each served client's outcome, the last one's kept (idling out writes nothing)
	grep -q '^gdr_run_success{.*test="read_lat"} 1$' "$cdir/server.prom" ||
		why+="the server's --prom lacks the last client's gdr_run_success 1; "
	[[ ! -e $cdir/server.prom.lock ]] || why+="the server left server.prom.lock; "
	end_case $n $t0 "$why"
}

# --persistent with the sm copier (the CUDA driver double's GPUs): two staged clients of one
# server process; the server loads the kernel's module once, not per client (GDR_DOUBLE_LOADS:
# the double's count of cuModuleLoadData), and still copies with it for the second (issue 33)
fault_persistent_sm()
{
	local n=fault_persistent_sm p=$port t0=$SECONDS why= c nl
	port=$((port + 1))
	if [[ ! -f $libcuda ]]; then
		cdir=$out/cases/$n
		mkdir -p "$cdir"
		skip $n "no CUDA driver double at $libcuda"
		return
	fi
	GDR_LIBCUDA=$libcuda GDR_DOUBLE_LOADS=$out/cases/$n/loads start_server $n $p 90 --persistent \
		--listen_timeout 12 --use_cuda=0 --stage_copy=sm || return
	for c in 1 2; do
		GDR_LIBCUDA=$libcuda client client$c.out 40 write_bw "$p" --use_cuda=1 --stage_copy=sm \
			--staged --validate -s 4K -n 20
		[[ $crc -eq 0 ]] || why+="client $c: $(rc_desc $crc); "
	done
	reap $spid 40
	[[ $reaped -eq 0 ]] || why+="server: $(rc_desc $reaped), expected exit 0 after idling; "
	grep -q "served 2 clients" "$cdir/server.out" || why+="server did not count 2 clients; "
	[[ $(grep -c "Stage copy *: sm at every size" "$cdir/server.out") -eq 2 ]] ||
		why+="the server did not stage with sm for both clients; "
	nl=$(grep -c cuModuleLoadData "$cdir/loads" 2>/dev/null)
	[[ $nl -eq 1 ]] || why+="the server loaded the sm kernel's module ${nl:-0} times, not once; "
	end_case $n $t0 "$why"
}

# a request over --max_mem gets a REJECT naming the limit; the server keeps serving and
# a client within the limit then succeeds.
fault_max_mem()
{
	local n=fault_max_mem p=$port t0=$SECONDS why=
	port=$((port + 1))
	start_server $n $p 60 --max_mem=4M || return
	client client1.out 20 write_bw "$p" -s 1M -n 20
	failed_cleanly $crc || why+="big client: $(rc_desc $crc), expected a clean refusal; "
	grep -q "max_mem" "$cdir/client1.out" || why+="big client not told about --max_mem; "
	served_after "the refused one"
	end_case $n $t0 "$why"
}

# --allow: a client from elsewhere is closed before anything is read; the server goes on
# waiting (and gives up after --listen_timeout).
fault_allow()
{
	local n=fault_allow p=$port t0=$SECONDS why=
	port=$((port + 1))
	start_server $n $p 90 --allow=192.0.2.0/24 --listen_timeout 60 || return
	client client.out 30 write_bw "$p" -s 4K -n 20
	failed_cleanly $crc || why+="client: $(rc_desc $crc), expected a clean failure; "
	grep -q "went away" "$cdir/client.out" || why+="client was not closed after connecting; "
	kill -0 $spid 2>/dev/null || why+="server stopped at the refused client; "
	kill $spid 2>/dev/null
	wait $spid 2>/dev/null
	grep -q "not in --allow" "$cdir/server.out" || why+="server did not say why it closed the connection; "
	end_case $n $t0 "$why"
}

# 40 connections that never speak, then a real client: served at once (read side by
# side), well within the client's own --timeout and the server's --listen_timeout.
fault_silent_many()
{
	local n=fault_silent_many p=$port t0=$SECONDS why= gpid t1
	port=$((port + 1))
	start_server $n $p 150 --listen_timeout 120 || return
	timeout 140 python3 -c '
import socket, sys, time
s = [socket.create_connection((sys.argv[1], int(sys.argv[2])), timeout=20) for _ in range(40)]
print("40 silent connections open", flush=True)
time.sleep(130)' "$addr" "$p" >"$cdir/silent.out" 2>&1 &
	gpid=$!
	for ((t1 = 0; t1 < 600; t1++)); do # python starts slowly in the VM
		grep -q "open" "$cdir/silent.out" 2>/dev/null && break
		kill -0 $gpid 2>/dev/null || break
		sleep 0.1
	done
	grep -q "40 silent connections open" "$cdir/silent.out" || why+="the silent connections did not open: $(tail -1 "$cdir/silent.out"); "
	served_after "40 silent connections"
	kill $gpid 2>/dev/null
	wait $gpid 2>/dev/null
	end_case $n $t0 "$why"
}

# a client of another transport (its HELLO names --transport=ofi; this build's clients
# refuse a transport they lack before the network, so the HELLO is raw): the server
# refuses it in one line before any QP exists, the client reads the same reason.
fault_transport()
{
	local n=fault_transport p=$port t0=$SECONDS why=
	port=$((port + 1))
	[[ $tool == gdr ]] || return
	start_server $n $p 60 || return
	hello host=other-xport xport=ofi >"$cdir/xport.out"
	grep -q '^REJECT .*uses --transport=ofi, this server --transport=verbs' "$cdir/xport.out" ||
		why+="no REJECT naming the transports: $(head -c 200 "$cdir/xport.out"); "
	reap $spid 20
	failed_cleanly $reaped || why+="server: $(rc_desc $reaped), expected a clean refusal; "
	grep -q "error: mismatched transports: the client (.*) uses --transport=ofi, this server --transport=verbs" "$cdir/server.out" ||
		why+="the server did not say why it refused: $(grep error: "$cdir/server.out" | head -1); "
	[[ $(grep -c 'error:' "$cdir/server.out") -eq 1 ]] || why+="server: not one error line; "
	end_case $n $t0 "$why"
}

# a HELLO that decodes but asks for a send queue of 134217728 entries: refused with a
# REJECT naming the field and its range; the server keeps serving a real client.
fault_bad_hello()
{
	local n=fault_bad_hello p=$port t0=$SECONDS why=
	port=$((port + 1))
	start_server $n $p 60 || return
	hello tx=134217728 >"$cdir/hostile.out"
	grep -q '^REJECT .*-t 134217728 is out of range' "$cdir/hostile.out" ||
		why+="no REJECT naming -t: $(head -c 200 "$cdir/hostile.out"); "
	served_after "the hostile HELLO"
	end_case $n $t0 "$why"
}

# A request beyond the device's limits (issue 43.9): a HELLO asking -q 64 on Soft-RoCE needs
# a receive CQ of 64 x 512 + 16 = 32784 entries, over rxe's max_cqe of 32767. The server
# refuses it at admission with one line naming max_cqe (it used to accept it and die on
# ibv_create_cq: EINVAL) and goes on serving; a gdr client asking -q 64 on rxe says so
# itself, before the network; a real client is served after both.
fault_cq_limit()
{
	local n=fault_cq_limit p=$port t0=$SECONDS why=
	port=$((port + 1))
	start_server $n $p 60 || return
	hello host=big-ask qps=64 >"$cdir/big.out" # -q 64
	grep -q '^REJECT .*32784 entries' "$cdir/big.out" && grep -q '^REJECT .*max_cqe' "$cdir/big.out" ||
		why+="no REJECT naming max_cqe: $(head -c 200 "$cdir/big.out"); "
	grep -q "cannot run this test on $dev: -q 64 with -r 512 needs a receive completion queue of 32784 entries" "$cdir/server.out" ||
		why+="the server did not say why it refused; "
	grep -q "cannot create a completion queue" "$cdir/server.out" && why+="the server tried the CQ; "
	client client64.out 20 write_bw "$p" -q 64 -s 4K -n 20
	failed_cleanly $crc || why+="-q 64 client: $(rc_desc $crc), expected a clean refusal; "
	grep -q "(max_cqe)" "$cdir/client64.out" || why+="-q 64 client not told about max_cqe: $(tail -1 "$cdir/client64.out"); "
	[[ $(grep -c . "$cdir/client64.out") -eq 1 ]] || why+="-q 64 client: not one line; "
	served_after "the -q 64 requests"
	end_case $n $t0 "$why"
}

# --report_gbits on the client only: the server prints the client's unit too.
fault_gbits_one_side()
{
	local n=fault_gbits_one_side p=$port t0=$SECONDS why=
	port=$((port + 1))
	start_server $n $p 40 || return
	served_after "" --report_gbits -s 64K -n 50
	grep -q "Gb/sec" "$cdir/server.out" || why+="server did not print Gb/sec; "
	end_case $n $t0 "$why"
}

# ---- real loss: UD and UC send_bw over a lossy link ----
# Soft-RoCE on one device loops back inside rxe and never touches a netdev, and two rxe
# devices in one namespace talk through lo. So: rxe1 on veth1 (10.9.0.2), and policy
# routes that send locally generated traffic between 10.9.0.2 and 10.9.0.1 out of veth1 /
# veth0 (the local table moved behind them, local source addresses accepted on input),
# and netem drops 5% of what leaves veth1. lossy_link up|down; 1 when it cannot be set up.
lossy_link()
{
	local c=net.ipv4.conf
	if [[ $1 == down ]]; then
		tc qdisc del dev veth1 root 2>/dev/null
		ip neigh del 10.9.0.1 dev veth1 2>/dev/null
		ip neigh del 10.9.0.2 dev veth0 2>/dev/null
		ip rule add pref 0 lookup local 2>/dev/null
		ip rule del pref 1000 lookup local 2>/dev/null
		ip rule del pref 100 2>/dev/null
		ip rule del pref 101 2>/dev/null
		ip route flush table 100 2>/dev/null
		ip route flush table 101 2>/dev/null
		rdma link delete rxe1 2>/dev/null
		ip addr del 10.9.0.2/24 dev veth1 2>/dev/null
		return 0
	fi
	[[ $(id -u) == 0 && -d /sys/class/net/veth1 ]] || return 1
	modprobe sch_netem 2>/dev/null
	ip addr add 10.9.0.2/24 dev veth1 &&
		rdma link add rxe1 type rxe netdev veth1 &&
		sysctl -qw $c.all.accept_local=1 $c.veth0.accept_local=1 $c.veth1.accept_local=1 \
			$c.all.rp_filter=0 $c.veth0.rp_filter=0 $c.veth1.rp_filter=0 &&
		ip route add 10.9.0.1 dev veth1 table 100 &&
		ip route add 10.9.0.2 dev veth0 table 101 &&
		ip rule add pref 100 iif lo from 10.9.0.2 to 10.9.0.1 lookup 100 &&
		ip rule add pref 101 iif lo from 10.9.0.1 to 10.9.0.2 lookup 101 &&
		ip rule add pref 1000 lookup local &&
		ip rule del pref 0 &&
		static_neighbours &&
		tc qdisc add dev veth1 root netem loss 5%
}

# The lossy pair's neighbour entries, fixed before the loss starts: a lost ARP
# would fail a QP's move to RTR (ETIMEDOUT), which is not what the cases test.
static_neighbours()
{
	local m0 m1
	m0=$(cat /sys/class/net/veth0/address) && m1=$(cat /sys/class/net/veth1/address) &&
		ip neigh replace 10.9.0.1 lladdr "$m0" dev veth1 nud permanent &&
		ip neigh replace 10.9.0.2 lladdr "$m1" dev veth0 nud permanent
}

# netem drops on veth1 so far (what the RoCE traffic from rxe1 really crossed)
netem_drops()
{
	tc -s qdisc show dev veth1 | awk '/dropped/ { sub(",", "", $7); print $7; exit }'
}

# fault_unreliable_loss: UD and UC send_bw from rxe1 to rxe0 over the lossy link. Both
# sides end cleanly and at once (no LAST message to wait out), and the row reports the
# loss: lost_messages > 0 and delivered_iterations + lost_messages = iterations.
fault_unreliable_loss()
{
	local n=fault_unreliable_loss p t0=$SECONDS why= conn size d0 d1 src
	[[ $tool == gdr ]] || return
	cdir=$out/cases/$n
	rm -rf -- "$cdir"
	mkdir -p "$cdir"
	if ! lossy_link up >"$cdir/setup.out" 2>&1; then
		lossy_link down
		skip $n "(needs root and the VM's veth pair: $(tail -1 "$cdir/setup.out"))"
		return
	fi
	for conn in UD UC; do
		p=$port
		port=$((port + 1))
		size=1024
		[[ $conn == UC ]] && size=4096 # several packets per message: one lost, all lost
		d0=$(netem_drops)
		# shellcheck disable=SC2046
		timeout -k 5 60 "${prefix}send_bw" -d "$dev" -p "$p" $(fault_opts) -c $conn >"$cdir/server.$conn.out" 2>&1 &
		spid=$!
		if ! wait_listen "$p" $spid 20; then
			reap $spid 1
			why+="$conn: server not listening; "
			continue
		fi
		# shellcheck disable=SC2046
		timeout -k 5 60 "${prefix}send_bw" -d rxe1 -p "$p" $(fault_opts) -c $conn -s $size -n 2000 \
			--csv "$cdir/$conn.csv" "$addr" >"$cdir/client.$conn.out" 2>&1
		crc=$?
		reap $spid 20
		src=$reaped
		d1=$(netem_drops)
		[[ $crc -eq 0 ]] || why+="$conn client: $(rc_desc $crc); "
		[[ $src -eq 0 ]] || why+="$conn server: $(rc_desc $src); "
		((${d1:-0} > ${d0:-0})) || why+="$conn: netem dropped nothing on veth1 (the traffic took another way); "
		python3 - "$cdir/$conn.csv" >"$cdir/$conn.check" 2>&1 <<'PY' ||
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows, "no CSV row"
for r in rows:
    assert "lost_messages" in r, "no lost_messages column"
    it, lost = int(r["iterations"]), r["lost_messages"]
    assert lost and int(lost) > 0, "a row claims no loss (lost_messages %r)" % lost
    got = int(r["delivered_iterations"])
    assert got + int(lost) == it, "delivered %d + lost %s != sent %d" % (got, lost, it)
    print("delivered %d of %d (%s MiB/s), lost %s (%s%%)" % (got, it, r["delivered_MiBps"], lost, r["loss_pct"]))
PY
			why+="$conn: $(tail -1 "$cdir/$conn.check"); "
	done
	lossy_link down
	if [[ -z $why ]]; then pass $n $((SECONDS - t0)); else fail $n "${why%; }"; fi
}

# a sweep writing CSV and JSON: both parse (Python's csv and json), one row/result per
# size, and the plot script renders a PNG from the CSV.
check_outputs()
{
	local n=check_outputs p=$port t0=$SECONDS src crc why=
	port=$((port + 1))
	[[ $tool == gdr ]] || return
	start_server $n $p 90 || return
	timeout -k 5 90 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) --sizes=64:64K:4 -n 20 \
		--compare --csv="$cdir/out.csv" --json="$cdir/out.json" "$addr" >"$cdir/client.out" 2>&1
	crc=$?
	reap $spid 20
	src=$reaped
	[[ $crc -eq 0 && $src -eq 0 ]] || why+="client: $(rc_desc $crc), server: $(rc_desc $src); "
	python3 - "$cdir/out.csv" "$cdir/out.json" >"$cdir/parse.out" 2>&1 <<'PY' || why+="outputs: $(tail -1 "$cdir/parse.out"); "
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))
want = [64, 256, 1024, 4096, 16384, 65536]
got = sorted({int(r["bytes"]) for r in rows})
assert got == want, f"CSV sizes {got} != {want}"
assert len(rows) == 2 * len(want), f"CSV has {len(rows)} rows, expected {2 * len(want)}"
assert all(float(r["bw_avg_MiBps"]) > 0 for r in rows), "a CSV row without bandwidth"
assert {r["path"] for r in rows} == {"host", "staged"}, "CSV paths"
res = doc["results"]
assert len(res) == 2 * len(want), f"JSON has {len(res)} results"
assert sorted({int(r["bytes"]) for r in res}) == want, "JSON sizes"
print("csv and json ok")
PY
	# one start of plot.py: matplotlib's import costs a minute and more in the loaded VM
	# (plot.py finds the python that has it, or says in one line that none has)
	python3 "$here/../../scripts/tools/plot.py" "$cdir/out.csv" -o "$cdir/plots" >"$cdir/plot.out" 2>&1 &&
		head -c 8 "$cdir/plots/bw_vs_size.png" | grep -q PNG ||
		why+="plot.py did not render $cdir/plots/bw_vs_size.png: $(tail -1 "$cdir/plot.out"); "
	if [[ -z $why ]]; then pass $n $((SECONDS - t0)); else fail $n "${why%; }"; fi
}

# ---- interrupts and bad peers (issue 23 item 4) ----

# wait_for FILE RE SECONDS PID: until FILE has a line matching RE (0), or PID ended or the
# time ran out (1)
wait_for()
{
	local i
	for ((i = 0; i < $3 * 10; i++)); do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		kill -0 "$4" 2>/dev/null || return 1
		nap 0.1
	done
	return 1
}

# sigint_client NAME EXPECT-RE ROWS CLIENT-ARGS...: Ctrl-C on a client once the line RE
# shows in its output (a result row, or the table header); it must stop at once with one
# line saying where, keep ROWS rows in its CSV and write its JSON (ROWS results and an
# "interrupted" member); its server must say at once that the client went away.
sigint_client()
{
	local n=$1 wait_re=$2 rows=$3 p=$port t0=$SECONDS cpid t1 why= nr
	shift 3
	port=$((port + 1))
	[[ $tool == gdr ]] || return
	start_server $n $p 90 || return
	echo "client: ${prefix}write_bw -d $dev -p $p $(fault_opts) --csv=$cdir/c.csv --json=$cdir/c.json --prom=$cdir/c.prom $* $addr" >>"$cdir/cmd"
	# shellcheck disable=SC2046
	timeout -k 5 90 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) --csv="$cdir/c.csv" \
		--json="$cdir/c.json" --prom="$cdir/c.prom" "$@" "$addr" >"$cdir/client.out" 2>&1 &
	cpid=$!
	if ! wait_for "$cdir/client.out" "$wait_re" 60 $cpid; then
		reap $cpid 1
		reap $spid 1
		end_case $n $t0 "the client never printed /$wait_re/ (or ended first)"
		return
	fi
	nap 1
	t1=$SECONDS
	kill -INT $cpid # timeout(1) passes it on to the client
	reap $cpid 10
	[[ $reaped -eq 4 ]] || why+="client after SIGINT: $(rc_desc $reaped), expected exit 4 (interrupted); "
	((SECONDS - t1 <= 5)) || why+="client took $((SECONDS - t1)) s to stop after SIGINT; "
	grep -Eq "interrupted by SIGINT during the [0-9]+-byte test after [0-9]+ (of [0-9]+ )?iterations" "$cdir/client.out" ||
		why+="client did not say where it stopped; "
	if ((rows == 0)); then
		grep -q "no size completed" "$cdir/client.out" || why+="client did not say that no size completed; "
		nr=$(grep -vc '^schema_version' "$cdir/c.csv")
		((nr == 0)) || why+="CSV has $nr rows, expected none; "
	else
		nr=$(csv_ok "$cdir/c.csv" "$rows" 2>&1) || why+="$nr; "
	fi
	python3 - "$cdir/c.json" "$rows" >"$cdir/json.out" 2>&1 <<'PY' || why+="JSON: $(tail -1 "$cdir/json.out"); "
import json, sys
doc = json.load(open(sys.argv[1]))
n = len(doc["results"])
assert n == int(sys.argv[2]), f"{n} results, expected {sys.argv[2]}"
assert doc["interrupted"].startswith("interrupted by SIGINT during the"), doc.get("interrupted")
print("json ok")
PY
	# --prom: the interruption, the exit status and the rows that completed (promtool checks it)
	grep -q '^gdr_run_interrupted{.*} 1$' "$cdir/c.prom" && grep -q '^gdr_run_success{.*} 0$' "$cdir/c.prom" &&
		grep -q '^gdr_run_exit_code{.*} 4$' "$cdir/c.prom" &&
		grep -q 'status="interrupted",reason="interrupted by SIGINT during the' "$cdir/c.prom" ||
		why+="--prom does not mark the interruption: $(grep gdr_run_info "$cdir/c.prom" 2>&1); "
	nr=$(grep -c '^gdr_bandwidth_bytes_per_second{' "$cdir/c.prom")
	((nr == rows)) || why+="--prom has $nr bandwidth rows, expected $rows; "
	promtool check metrics <"$cdir/c.prom" >"$cdir/promtool.out" 2>&1 || why+="promtool refuses the --prom file; "
	reap $spid 10
	failed_cleanly $reaped || why+="server: $(rc_desc $reaped), expected a clean error; "
	grep -Eq "the client \(.*\) went away during the [0-9]+-byte test" "$cdir/server.out" ||
		why+="server did not say the client went away during the test; "
	end_case $n $t0 "$why"
}

# Ctrl-C in the third size of a sweep: the first two are kept. Then Ctrl-C within the only
# size: no size completed, said so, and the JSON says where the run stopped.
# (text rows are flushed as they complete; the header is not, so a run of one size is
# interrupted after its first --interval line, which goes to stderr at once)
fault_client_sigint()
{
	sigint_client fault_client_sigint '^ *65536 ' 2 --sizes=4K:1M:16 -n 3000
}
fault_client_sigint0()
{
	sigint_client fault_client_sigint0 '\] 65536 bytes: ' 0 -s 64K -D 20 --interval 1
}

# the server stopped by Ctrl-C mid-run: its client says so at once, in the words used
# elsewhere ("the server (...) went away during the 65536-byte test"), not 10 s later.
fault_server_sigint()
{
	local n=fault_server_sigint p=$port t0=$SECONDS cpid t1 why=
	port=$((port + 1))
	[[ $tool == gdr ]] || return
	start_server $n $p 90 || return
	echo "client: ${prefix}write_bw -d $dev -p $p $(fault_opts) -s 64K -D 20 --interval 1 --prom=$cdir/c.prom $addr" >>"$cdir/cmd"
	# a stale PASS from an earlier run: the failed run must replace it
	echo 'gdr_run_success{host="x"} 1' >"$cdir/c.prom"
	# shellcheck disable=SC2046
	timeout -k 5 90 "${prefix}write_bw" -d "$dev" -p "$p" $(fault_opts) -s 64K -D 20 --interval 1 \
		--prom="$cdir/c.prom" "$addr" >"$cdir/client.out" 2>&1 &
	cpid=$!
	if ! wait_for "$cdir/client.out" '\] 65536 bytes: ' 60 $cpid; then
		reap $cpid 1
		reap $spid 1
		end_case $n $t0 "the client never started its run"
		return
	fi
	t1=$SECONDS
	kill -INT $spid
	reap $spid 10
	reap $cpid 15
	[[ $reaped -eq 2 ]] || why+="client: $(rc_desc $reaped), expected exit 2 (could not complete); "
	((SECONDS - t1 <= 4)) || why+="client took $((SECONDS - t1)) s to notice the server had gone; "
	grep -q '^gdr_run_success{.*device="'"$dev"'".*} 0$' "$cdir/c.prom" &&
		grep -q 'status="error",reason="the server (.*) went away during the 65536-byte test' "$cdir/c.prom" &&
		promtool check metrics <"$cdir/c.prom" >"$cdir/promtool.out" 2>&1 ||
		why+="--prom does not say the run failed (or promtool refuses it): $(grep -v '^#' "$cdir/c.prom" | head -3 | tr '\n' '|'); "
	grep -Eq "the server \(.*\) went away during the 65536-byte test" "$cdir/client.out" ||
		why+="client did not say the server went away during the 65536-byte test; "
	end_case $n $t0 "$why"
}

# a client with a GID index that holds no GID (-x 7 on rxe0): one line naming the index
# and how to list the valid ones, before it connects (before, its empty GID made the
# server fail at RTR and exit); the server goes on: a correct client that follows is served.
fault_bad_gid()
{
	local n=fault_bad_gid p=$port t0=$SECONDS why=
	port=$((port + 1))
	[[ $tool == gdr ]] || return
	start_server $n $p 90 || return
	client client1.out 20 write_bw "$p" -x 7 -s 4K -n 20
	failed_cleanly $crc || why+="client with -x 7: $(rc_desc $crc), expected a clean failure; "
	grep -q "GID index 7 .*ibv_devinfo" "$cdir/client1.out" || why+="client not told about GID index 7 and how to list GIDs: $(grep error: "$cdir/client1.out" | head -1); "
	kill -0 $spid 2>/dev/null || why+="server stopped after the failed client; "
	served_after "a client with a bad -x"
	end_case $n $t0 "$why"
}

# hello [FIELD=VALUE ...]: one raw HELLO (tests/gdrp.py: the build's protocol version, the
# fields of a default write_bw client, 4 KiB, -n 20, 1 MiB --stage_chunk, but those named)
# to the case's server ($addr, $p); its one-line answer on stdout ("REJECT <reason>",
# "reply type N" or "no reply")
hello()
{
	python3 "$here/../gdrp.py" "$addr" "$p" chunk=1048576 "$@" 2>&1
}

# a client accepted by the server that goes away before the first size (a HELLO, then it
# closes): the non-persistent server says so, goes on waiting, and serves the next client.
fault_setup_gone()
{
	local n=fault_setup_gone p=$port t0=$SECONDS why=
	port=$((port + 1))
	[[ $tool == gdr ]] || return
	start_server $n $p 90 || return
	hello host=leaves >"$cdir/leaver.out" # a valid HELLO, then gone before the QPs are exchanged
	nap 1
	kill -0 $spid 2>/dev/null || why+="server stopped after the client that went away; "
	served_after "a client that went away during the setup"
	grep -q "went away while setting up the test" "$cdir/server.out" || why+="server did not say the client went away during the setup; "
	grep -q "still waiting for a client" "$cdir/server.out" || why+="server did not say it goes on waiting; "
	end_case $n $t0 "$why"
}

# ---- main ----
# trim NAME...: strip leading and trailing blanks of each named variable, in place
# (no command substitution: a subshell per field cost seconds over the tables in the VM)
trim()
{
	local -n v
	for v in "$@"; do
		v=${v#"${v%%[![:space:]]*}"}
		v=${v%"${v##*[![:space:]]}"}
	done
}
echo "e2e: tool=$tool dev=$dev addr=$addr bin=${prefix}* out=$out"
if [[ $tool == gdr ]]; then
	"${prefix}write_bw" --version 2>&1 | head -1
else
	ib_write_bw --version 2>&1 | head -1
fi
start=$SECONDS
declare -A groups=([all]="write_bw read_bw send_bw write_lat read_lat send_lat"
	[bw]="write_bw read_bw send_bw" [lat]="write_lat read_lat send_lat")
# ---- table cases side by side (E2E_JOBS) ----
# Up to E2E_JOBS table cases run at once, each with its own port, folder and TMPDIR (the CUDA
# double's time-slice locks live there: each case's own "GPU"); a case whose check rests on a
# figure or a time (a rate, a duration, a floor, -W's port counters, a copier chosen by
# measurement, the doubles' delays, a short --timeout) runs alone, and so does one over UC or UD (what they lose
# depends on the load); a cfail/sfail case (one side, no traffic) never needs to. The
# peer-fault cases after the tables run one at a time. A case's lines come out when it ends.
jobs_max=${E2E_JOBS:-1}
declare -A job_log=()
declare -a job_name=()
job_n=0
solo_re='[ =(](-D|--duration|--rate_limit|-w|-y|--expect-bw|--interval|--run_infinitely|--report-both|-W|--report-counters|--stage_copy=auto|-c|--timeout)[ =)]|DELAY_US|UNORDERED|_RATE=|duration_s|_MiBps|_Gbps|Mpps|cpu_util'
# solo SARGS CARGS EXPECT: 0 when the case must have the machine to itself
solo()
{
	[[ $3 == [cs]fail* ]] && return 1
	[[ $3 == mixed* || " $1 $2 $3 " =~ $solo_re ]]
}
# job_start RUN_CASE-ARGS...: run_case in the background on the next port
job_start()
{
	local f=$out/jobs/$job_n t=${TMPDIR:-/tmp}/e2e-job.$$.$job_n
	job_name[$job_n]=$1
	job_n=$((job_n + 1))
	mkdir -p "$out/jobs" # run_tab removes it after each table
	# TMPDIR on the local file system (the VM's tmpfs, not the 9p share of $out: the double's
	# locks and shared mappings need a real one)
	(mkdir -p "$t" && TMPDIR=$t run_case "$@"; rm -rf -- "$t") </dev/null >"$f.log" 2>&1 &
	job_log[$!]=$f
	port=$((port + 1))
}
# job_end PID: a finished case's lines, counted
job_end()
{
	local f=${job_log[$1]} l w n=${job_name[${job_log[$1]##*/}]:-?}
	# a case whose lines are lost is a failure, never a case left uncounted
	if [[ ! -s $f.log ]] || ! grep -Eq '^(PASS|FAIL|SKIP) ' "$f.log"; then
		echo "FAIL $n (its job wrote no PASS, FAIL or SKIP line: $f.log)"
		nfail=$((nfail + 1)) failed+=("$n")
		unset 'job_log[$1]'
		return
	fi
	while IFS= read -r l; do
		echo "$l"
		read -r -a w <<<"$l"
		case ${w[0]:-} in
		PASS) npass=$((npass + 1)) ;;
		FAIL) nfail=$((nfail + 1)) failed+=("${w[1]}") ;;
		SKIP) nskip=$((nskip + 1)) ;;
		esac
	done <"$f.log"
	unset 'job_log[$1]'
}
# jobs_below N: wait until fewer than N cases run (1: all have ended)
jobs_below()
{
	local pid
	while ((${#job_log[@]} >= $1)); do
		wait -n -p pid "${!job_log[@]}"
		job_end "$pid"
	done
}

# run_tab FILE: every case of a table that the filter selects
run_tab()
{
	local name bins sargs cargs expect nb b n
	local -a blist
	while IFS='|' read -r name bins sargs cargs expect; do
		trim name
		[[ -z $name || $name == \#* ]] && continue
		trim bins sargs cargs expect
		[[ -n ${groups[$bins]:-} ]] && bins=${groups[$bins]}
		read -r -a blist <<<"$bins"
		nb=${#blist[@]}
		for b in "${blist[@]}"; do
			n=$name
			((nb > 1)) && n=$name.$b
			[[ $n =~ $filter ]] || continue
			if [[ -n ${GDR_LIBCUDA:-} && ! -f $GDR_LIBCUDA ]]; then
				cdir=$out/cases/$n
				mkdir -p "$cdir"
				fail "$n" "CUDA double $GDR_LIBCUDA not built (make check builds it; or set E2E_LIBCUDA)"
				continue
			fi
			if [[ -n ${GDR_LIBHIP:-} && ! -f $GDR_LIBHIP && "$sargs $cargs" == *--use_rocm* ]]; then
				mkdir -p "$out/cases/$n"
				fail "$n" "HIP double $GDR_LIBHIP not built (make check builds it; or set E2E_LIBHIP)"
				continue
			fi
			if ((jobs_max > 1)) && ! solo "$sargs" "$cargs" "$expect"; then
				jobs_below "$jobs_max"
				job_start "$n" "$b" "$sargs" "$cargs" "$expect"
			else
				jobs_below 1
				run_case "$n" "$b" "$sargs" "$cargs" "$expect"
			fi
		done
	done <"$1"
	jobs_below 1
	rm -rf -- "$out/jobs"
}
for tab in $tabs; do
	[[ -f $here/$tab ]] || {
		echo "e2e: error: E2E_TABS: no $here/$tab" >&2
		exit 1
	}
	if [[ $tab == gpu* ]]; then
		# GPU cases: the CUDA driver double stands in for the driver (host memory)
		tab_t0=$SECONDS
		# (and the HIP runtime double for ROCm, its HSA dma-buf export included)
		export GDR_LIBCUDA=$libcuda GDR_LIBMLX5=$libmlx5 GDR_LIBGDRAPI=$libgdrapi \
			GDR_LIBHIP=$libhip GDR_LIBHSA=$libhip
		run_tab "$here/$tab"
		unset GDR_LIBCUDA GDR_LIBMLX5 GDR_LIBGDRAPI GDR_LIBHIP GDR_LIBHSA
		echo "e2e: $tab (CUDA driver double $libcuda, gdrcopy double $libgdrapi, HIP double $libhip: host memory, not a GPU) took $((SECONDS - tab_t0)) s"
	else
		tab_t0=$SECONDS
		run_tab "$here/$tab"
		echo "e2e: $tab took $((SECONDS - tab_t0)) s"
	fi
done

# -W on a lossy link: an RC write_bw from rxe1 to rxe0 through lossy_link (netem drops 5% of
# what leaves veth1, rxe1's data packets). netem's drop count must grow (0: the traffic took
# another way, the setup is broken: FAIL, not SKIP), rxe's retransmission-type counters must
# move, and -W's text and the --prom files must name them (promtool checks the files).
fault_counters_loss()
{
	local n=fault_counters_loss p=$port t0=$SECONDS why= moved d0 d1 side
	port=$((port + 1))
	[[ $tool == gdr ]] || return
	cdir=$out/cases/$n
	rm -rf -- "$cdir"
	mkdir -p "$cdir"
	if ! lossy_link up >"$cdir/setup.out" 2>&1; then
		lossy_link down
		skip $n "(needs root and the VM's veth pair: $(tail -1 "$cdir/setup.out"))"
		return
	fi
	d0=$(netem_drops)
	# go-back-N after each drop is slow under emulation: small messages, a long --timeout
	timeout -k 5 120 "${prefix}write_bw" -d "$dev" -p "$p" --timeout 60 -W \
		--prom="$cdir/server.prom" >"$cdir/server.out" 2>&1 &
	spid=$!
	if ! wait_listen "$p" $spid 20; then
		reap $spid 1
		lossy_link down
		fail $n "server not listening on port $p after 20 s (server: $(rc_desc $reaped))"
		return
	fi
	timeout -k 5 100 "${prefix}write_bw" -d rxe1 -p "$p" --timeout 60 -W -s 4K -n 500 \
		--prom="$cdir/client.prom" "$addr" >"$cdir/client.out" 2>&1
	crc=$?
	reap $spid 20
	d1=$(netem_drops)
	tc -s qdisc show dev veth1 >"$cdir/tc.out" 2>&1
	lossy_link down
	echo "netem drops on veth1: ${d0:-?} before, ${d1:-?} after" >"$cdir/drops.txt"
	((${d1:-0} > ${d0:-0})) ||
		why+="netem dropped nothing on veth1 (${d0:-?} -> ${d1:-?}): the traffic took another way; "
	[[ $crc -eq 0 ]] || why+="client: $(rc_desc $crc); "
	[[ $reaped -eq 0 ]] || why+="server: $(rc_desc $reaped); "
	moved='(duplicate_request|out_of_seq_request|rcvd_seq_err|completer_retry_err|retry_exceeded_err) [+][1-9]'
	grep -Eq "counters rxe[01] port 1 \(whole size\): .*$moved" "$cdir/client.out" "$cdir/server.out" ||
		why+="no retransmission counter named in -W's text under 5% loss; "
	grep -Eq 'gdr_stat_delta[{].*stat="(duplicate_request|out_of_seq_request|rcvd_seq_err|completer_retry_err|retry_exceeded_err)"[}] [1-9]' \
		"$cdir/client.prom" "$cdir/server.prom" 2>/dev/null || why+="--prom lacks the moved counters; "
	[[ -s $cdir/client.prom ]] || why+="no client --prom file; "
	grep -q '^gdr_run_success{.*} 1$' "$cdir/client.prom" && grep -q '^gdr_run_exit_code{.*} 0$' "$cdir/client.prom" &&
		grep -q '^gdr_run_timestamp_seconds{.*} 1[0-9]\{9\}' "$cdir/client.prom" ||
		why+="the client's --prom file lacks gdr_run_success 1, exit code 0 or the timestamp; "
	for side in client server; do
		[[ -s $cdir/$side.prom ]] || continue # the client's is required above
		if command -v promtool >/dev/null &&
			! promtool check metrics <"$cdir/$side.prom" >"$cdir/promtool.$side.out" 2>&1; then
			why+="promtool refuses the $side --prom file; "
		fi
	done
	end_case $n $t0 "$why"
}

# --rails outside cluster mode: a second Soft-RoCE device (rxe1 on veth1, 10.9.0.2), both rails
# in loopback at once: a row per rail and an "all" row through the reporters (CSV, JSON,
# Prometheus, -W per rail; "all" over the union of the rails' intervals; --samples per rail
# for write_lat); -w fails every rail
# (exit 1); a device named twice and an unknown one, a rail's TCP port held by another server
# (which lives on) and -D beyond the server's limit are refused at once in one line; SIGINT to
# the launcher and to its process group stops every rail within seconds, keeps the completed
# rows, says where and exits 1; --rails=all takes the ACTIVE ports and says it skipped a DOWN one.
rails_union_ok()
{
	python3 - "$@" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for size in {r["bytes"] for r in rows}:
    rails = [float(r["duration_s"]) for r in rows if r["bytes"] == size and r["rdma_dev"] != "all"]
    al = [float(r["duration_s"]) for r in rows if r["bytes"] == size and r["rdma_dev"] == "all"]
    if len(al) == 0 and len(sys.argv) > 2:  # a size a stop cut short has no all row
        continue
    if len(rails) != 2 or len(al) != 1 or not al[0] >= max(rails) * 0.999:
        sys.exit("size %s: rails %s all %s" % (size, rails, al))
    if al[0] > max(rails) * 1.5 + 0.02:  # the barrier keeps the rails' sizes together
        sys.exit("size %s: all's interval %.4f s, the longest rail %.4f s" % (size, al[0], max(rails)))
EOF
}

# rails_sigint parent|group|twice OUT PORT: SIGINT to the launcher, to its process group,
# or to the group twice 1.5 s apart with every rail's process frozen first (SIGSTOP: rails
# that do not stop by themselves, as one hung in a driver call; an operator's second Ctrl-C)
rails_sigint()
{
	local what=$1 out=$2 p=$3 pid t1 rc
	if [[ $what != parent ]]; then
		setsid "$bin" --rails=rxe0,rxe1 -p "$p" --sizes=1K:64K:2 -D 3 --csv="$out.csv" --json="$out.json" --prom="$out.prom" >"$out" 2>&1 &
	else
		"$bin" --rails=rxe0,rxe1 -p "$p" --sizes=1K:64K:2 -D 3 --csv="$out.csv" --json="$out.json" --prom="$out.prom" >"$out" 2>&1 &
	fi
	pid=$!
	for _ in $(seq 40); do # the rails started (at most 20 s), then a size or two of 7 x 3 s
		sleep 0.5
		! grep -q 'rails at once' "$out" || break
	done
	sleep 9
	t1=$SECONDS
	[[ $what != twice ]] || pkill -STOP -P "$pid"
	if [[ $what == parent ]]; then kill -INT "$pid"; else kill -INT -- -"$pid"; fi
	if [[ $what == twice ]]; then
		sleep 1.5
		kill -INT -- -"$pid" 2>/dev/null
	fi
	wait "$pid"
	rc=$?
	local lim=5 # as fault_client_sigint: TCG under load; twice: the second signal comes 1.5 s in
	[[ $what != twice ]] || lim=7
	((SECONDS - t1 <= lim)) || why+="SIGINT ($what): $((SECONDS - t1)) s to stop; "
	[[ $rc -eq 4 ]] || why+="SIGINT ($what): $(rc_desc $rc), expected exit 4 (interrupted); "
	grep -q 'interrupted by SIG[A-Z]* during the [0-9]*-byte test; [0-9]* of 7 sizes completed on every rail' "$out" ||
		why+="SIGINT ($what): no line saying where it stopped; "
	grep -q '"interrupted": "interrupted by SIG' "$out.json" 2>/dev/null || why+="SIGINT ($what): the JSON file does not say it stopped; "
	grep -q '^gdr_run_interrupted{.*} 1$' "$out.prom" 2>/dev/null || why+="SIGINT ($what): the Prometheus file does not say it stopped; "
	[[ $(grep -c ',rxe0,' "$out.csv" 2>/dev/null) -ge 1 && $(grep -c ',rxe1,' "$out.csv" 2>/dev/null) -ge 1 ]] ||
		why+="SIGINT ($what): no completed row of each rail kept in the CSV; "
	rails_union_ok "$out.csv" stopped >"$out.union" 2>&1 || why+="SIGINT ($what) -D 3 all row: $(tail -1 "$out.union"); "
	if pgrep -f -- "-p $p " >/dev/null; then # frozen ones would hang rdma link delete below
		why+="SIGINT ($what): a rail's process still runs after the launcher's exit; "
		pkill -KILL -f -- "--rails=rxe0,rxe1 -p $p "
	fi
	[[ $what != twice ]] || grep -q 'a second signal with 2 rails still running: killed them' "$out" ||
		why+="SIGINT (twice): no line saying the second signal killed the rails; "
}

# until FILE says a server waits for its client (at most 20 s)
server_waits()
{
	for _ in $(seq 40); do
		sleep 0.5
		! grep -q 'waiting .*for a client' "$1" || return 0
	done
	return 1
}

fault_rails()
{
	local n=fault_rails t0=$SECONDS why= rc added= bpid
	cdir=$out/cases/$n
	mkdir -p "$cdir"
	if [[ $tool != gdr || $dev != rxe0 ]] || ! ip link show veth1 >/dev/null 2>&1; then
		skip $n "(Soft-RoCE rxe0 on veth0 only)"
		return
	fi
	if [[ ! -e /sys/class/infiniband/rxe1 ]]; then
		ip addr add 10.9.0.2/24 dev veth1 && rdma link add rxe1 type rxe netdev veth1 && added=1
		[[ -n $added ]] || { skip $n "(cannot add rxe1 on veth1)"; return; }
	fi
	local bin=${prefix}write_bw p=$((port + 100))
	port=$((port + 1))
	timeout -k 5 120 "$bin" --rails=rxe0,rxe1 -p $p --sizes=16K:64K:4 -n 200 --report_gbits -W \
		--csv="$cdir/ok.csv" --json="$cdir/ok.json" --prom="$cdir/ok.prom" >"$cdir/ok.out" 2>&1
	rc=$?
	[[ $rc -eq 0 ]] || why+="rails run: $(rc_desc $rc); "
	for w in 'rxe0:1 +65536 +200 +[0-9.]+' 'rxe1:1 +65536 +200 +[0-9.]+' 'all +65536 +400 +[0-9.]+'; do
		grep -Eq "^ $w" "$cdir/ok.out" || why+="no row /$w/; "
	done
	[[ $(grep -c '^ rxe0:1 ' "$cdir/ok.out") -eq 2 ]] || why+="rxe0's rows are not there once a size; "
	[[ $(grep -Ec '^   counters rxe1 port 1( \(|:)' "$cdir/ok.out") -eq 2 ]] || why+="no -W line per rxe1 row; "
	[[ $(grep -c ',rxe1,1,' "$cdir/ok.csv") -eq 2 && $(grep -c ',all,0,' "$cdir/ok.csv") -eq 2 ]] ||
		why+="CSV without the rails' and all rows; "
	grep -q 'device="rxe1:1"' "$cdir/ok.prom" && grep -q 'device="all"' "$cdir/ok.prom" ||
		why+="Prometheus file without the rails' rows; "
	grep -q '^gdr_run_success{.*} 1$' "$cdir/ok.prom" || why+="Prometheus file of the rails without gdr_run_success 1; "
	[[ $(grep -c '"bytes": 65536' "$cdir/ok.json") -eq 3 ]] || why+="JSON without three 65536-byte rows; "
	rails_union_ok "$cdir/ok.csv" >"$cdir/union.out" 2>&1 || why+="all row: $(tail -1 "$cdir/union.out"); "
	timeout -k 5 120 "$bin" --rails=rxe0,rxe1 -p $((p + 10)) -s 64K -n 50 -w 1000 --prom="$cdir/fail.prom" >"$cdir/fail.out" 2>&1
	rc=$?
	[[ $rc -eq 1 ]] || why+="rails under -w: $(rc_desc $rc), expected exit 1; "
	grep -q '^gdr_run_success{.*} 0$' "$cdir/fail.prom" && grep -q '^gdr_run_exit_code{.*} 1$' "$cdir/fail.prom" ||
		why+="Prometheus file of rails below a floor without gdr_run_success 0 and exit code 1; "
	[[ $(grep -c 'FAIL: 65536 bytes' "$cdir/fail.out") -eq 2 ]] || why+="not both rails FAIL under -w; "
	grep -Eq '^ rxe1:1 .* FAIL$' "$cdir/fail.out" || why+="no FAIL verdict in rxe1's row; "
	grep -Eq '^ all .* FAIL$' "$cdir/fail.out" || why+="no FAIL verdict in the all row; "
	timeout -k 5 120 "$bin" --rails=rxe0,rxe1 -p $((p + 15)) -s 64K -n 50 -w 1 >"$cdir/pass.out" 2>&1
	grep -Eq '^ all .* PASS$' "$cdir/pass.out" || why+="no PASS verdict in the all row under a floor; "
	timeout 10 "$bin" --rails=rxe0,rxe0 >"$cdir/twice.out" 2>&1
	[[ $? -eq 3 && $(wc -l <"$cdir/twice.out") -eq 1 ]] && grep -q "named twice" "$cdir/twice.out" || # usage
		why+="a device twice not refused in one line; "
	if [[ -f $libcuda ]]; then # GPU i with its nearest NIC: the CUDA driver double's GPUs
		# ... as a --pairing file says (each rail's GPU from it, not the rule's)
		printf '0000:9b:00.0 rxe0:1 1.0\n0000:1a:00.0 rxe1:1 1.0\n' >"$cdir/pair.txt"
		GDR_LIBCUDA=$libcuda timeout -k 5 120 "$bin" --rails=rxe0,rxe1 -p $((p + 20)) --use_cuda=auto \
			--pairing="$cdir/pair.txt" -s 64K -n 20 >"$cdir/cuda.out" 2>&1
		rc=$?
		[[ $rc -eq 0 ]] || why+="rails with --use_cuda=auto: $(rc_desc $rc); "
		grep -Eq '^ all +65536 ' "$cdir/cuda.out" || why+="no all row with --use_cuda=auto; "
		grep -q -- '--use_cuda=auto: GPU 1 (0000:9b:00.0) for rxe0 (measured pairing in' "$cdir/cuda.out" &&
			grep -q -- '--use_cuda=auto: GPU 0 (0000:1a:00.0) for rxe1 (measured pairing in' "$cdir/cuda.out" ||
			why+="the rails did not take their GPUs from --pairing; "
	fi
	if [[ -f $libhip ]]; then # the same with AMD GPUs: the HIP double's (--use_rocm, issue 38)
		GDR_LIBHIP=$libhip GDR_LIBHSA=$libhip timeout -k 5 120 "$bin" --rails=rxe0,rxe1 -p $((p + 25)) \
			--use_rocm=auto -s 64K -n 20 --validate --csv "$cdir/rocm.csv" >"$cdir/rocm.out" 2>&1
		rc=$?
		[[ $rc -eq 0 ]] || why+="rails with --use_rocm=auto: $(rc_desc $rc); "
		grep -Eq '^ all +65536 ' "$cdir/rocm.out" || why+="no all row with --use_rocm=auto; "
		[[ $(grep -c -- '--use_rocm=auto: GPU [01] ' "$cdir/rocm.out") -ge 2 ]] ||
			why+="the rails did not each pick an AMD GPU; "
		[[ $(grep -c ',rocm,' "$cdir/rocm.csv") -ge 2 ]] || why+="the rails' CSV rows do not say rocm memory; "
	fi
	timeout 10 "$bin" --rails=rxe0,mlx5_9 >"$cdir/unknown.out" 2>&1
	[[ $? -eq 2 && $(wc -l <"$cdir/unknown.out") -eq 1 ]] || why+="an unknown device not refused in one line (exit 2: the host lacks it); "
	# a bystander server on rail rxe1's port: refused at once, the bystander lives on
	timeout 60 "$bin" -d rxe0 -p $((p + 31)) --listen_timeout 30 >"$cdir/bystander.out" 2>&1 &
	bpid=$!
	for _ in $(seq 40); do # until it listens (at most 20 s)
		sleep 0.5
		! grep -q 'waiting .*for a client' "$cdir/bystander.out" || break
	done
	timeout 30 "$bin" --rails=rxe0,rxe1 -p $((p + 30)) -s 64K -n 50 >"$cdir/busy.out" 2>&1
	rc=$?
	[[ $rc -eq 2 && $(wc -l <"$cdir/busy.out") -eq 1 ]] && # one line: no rail started (could not run)
		grep -q 'rail rxe1:1: error: TCP port [0-9]* is in use' "$cdir/busy.out" ||
		why+="a busy rail port not refused at once in one line ($(rc_desc $rc)); "
	kill -0 $bpid 2>/dev/null || why+="the bystander server died; "
	kill $bpid 2>/dev/null
	wait $bpid 2>/dev/null
	timeout 30 "$bin" --rails=rxe0,rxe1 -p $((p + 35)) -s 64K -D 4000 >"$cdir/long.out" 2>&1
	rc=$?
	[[ $rc -eq 3 && $(wc -l <"$cdir/long.out") -eq 1 ]] && # one line: no rail started (usage)
		grep -q 'max_time' "$cdir/long.out" || why+="-D 4000 not refused at once in one line ($(rc_desc $rc)); "
	timeout -k 5 60 "${prefix}write_lat" --rails=rxe0,rxe1 -p $((p + 70)) -s 64 -n 50 --samples="$cdir/s.csv" >"$cdir/lat.out" 2>&1
	rc=$?
	[[ $rc -eq 0 ]] || why+="write_lat --rails: $(rc_desc $rc); "
	grep -Eq '^ rxe1:1 +64 +50 ' "$cdir/lat.out" || why+="no latency row for rxe1; "
	for f in "$cdir/s.csv.rxe0-1" "$cdir/s.csv.rxe1-1"; do
		[[ $(grep -c '^64,' "$f" 2>/dev/null) -eq 50 ]] || why+="--samples: not 50 samples in ${f##*/}; "
	done
	# with a server address: the clients of one server per rail there (port -p + i), every
	# side given one --run_token
	timeout 60 "$bin" -d rxe0 -p $((p + 80)) --run_token=e2e.r1 --listen_timeout 30 >"$cdir/srv0.out" 2>&1 &
	local s0=$!
	timeout 60 "$bin" -d rxe1 -p $((p + 81)) --run_token=e2e.r1 --listen_timeout 30 >"$cdir/srv1.out" 2>&1 &
	local s1=$!
	server_waits "$cdir/srv0.out" && server_waits "$cdir/srv1.out"
	timeout -k 5 60 "$bin" --rails=rxe0,rxe1 -p $((p + 80)) -s 64K -n 50 --run_token=e2e.r1 127.0.0.1 >"$cdir/remote.out" 2>&1
	rc=$?
	[[ $rc -eq 0 ]] && grep -Eq '^ all +65536 +100 ' "$cdir/remote.out" || why+="--rails with a server address: $(rc_desc $rc); "
	wait $s0 $s1
	timeout 10 "$bin" --rails=rxe0,rxe1 -p $((p + 80)) -s 64K 127.0.0.1 >"$cdir/notoken.out" 2>&1
	[[ $? -eq 3 && $(wc -l <"$cdir/notoken.out") -eq 1 ]] && grep -q -- '--run_token=WORD' "$cdir/notoken.out" ||
		why+="--rails with a server address and no --run_token not refused in one line (usage); "
	# a bystander (a server of no run) on rail rxe1's port there: rail rxe1's client is
	# refused by it, its row FAILs naming why, rail rxe0 runs; the bystander lives on and
	# serves its own client
	timeout 60 "$bin" -d rxe0 -p $((p + 90)) --run_token=e2e.r2 --listen_timeout 30 >"$cdir/srv2.out" 2>&1 &
	s0=$!
	timeout 90 "$bin" -d rxe0 -p $((p + 91)) --listen_timeout 60 >"$cdir/stray-srv.out" 2>&1 &
	bpid=$!
	server_waits "$cdir/srv2.out" && server_waits "$cdir/stray-srv.out"
	timeout -k 5 60 "$bin" --rails=rxe0,rxe1 -p $((p + 90)) -s 64K -n 50 --run_token=e2e.r2 127.0.0.1 >"$cdir/stray.out" 2>&1
	rc=$?
	[[ $rc -eq 2 ]] || why+="a rail's client facing another run's server: $(rc_desc $rc), expected exit 2; "
	grep -Eq '^ rxe0:1 +65536 +50 .* [0-9.]+' "$cdir/stray.out" || why+="rail rxe0 did not run beside the refused rail; "
	grep -q "^ rxe1:1 .*FAIL" "$cdir/stray.out" && grep -q "not this server's run" "$cdir/stray.out" ||
		why+="rail rxe1's row does not FAIL naming the other run's server; "
	grep -q "not this server's run" "$cdir/stray-srv.out" || why+="the bystander did not say why it refused the rail's client; "
	grep -q 'start the client with: .* --run_token=e2e.r2 ' "$cdir/srv2.out" || why+="a server with --run_token does not name it in how to start its client; "
	kill -0 $bpid 2>/dev/null || why+="the bystander server died on another run's client; "
	timeout -k 5 60 "$bin" -d rxe0 -p $((p + 91)) -s 64K -n 50 127.0.0.1 >"$cdir/stray-own.out" 2>&1 ||
		why+="the bystander did not serve its own client after refusing a rail's; "
	wait $s0 $bpid
	rails_sigint parent "$cdir/int-parent.out" $((p + 40))
	rails_sigint group "$cdir/int-group.out" $((p + 50))
	rails_sigint twice "$cdir/int-twice.out" $((p + 55))
	# --rails=all: ACTIVE ports only; rxe2 on a veth that stays down is skipped, and said
	if ip link add veth2 type veth peer name veth3 2>/dev/null && rdma link add rxe2 type rxe netdev veth2; then
		timeout -k 5 120 "$bin" --rails=all -p $((p + 60)) -s 64K -n 50 >"$cdir/all.out" 2>&1
		rc=$?
		[[ $rc -eq 0 ]] || why+="--rails=all with a DOWN port: $(rc_desc $rc); "
		grep -q 'skipped rxe2:1 (DOWN)' "$cdir/all.out" || why+="--rails=all did not say it skipped rxe2:1 (DOWN); "
		grep -Eq '^ rxe1:1 +65536 ' "$cdir/all.out" && ! grep -q '^ rxe2' "$cdir/all.out" ||
			why+="--rails=all rows are not rxe0 and rxe1 only; "
		rdma link delete rxe2
		ip link delete veth2
	else
		why+="cannot add rxe2 on a down veth; "
	fi
	if [[ -n $added ]]; then
		rdma link delete rxe1
		ip addr del 10.9.0.2/24 dev veth1
	fi
	end_case $n $t0 "$why"
}

# --matrix (docs/matrix.md) over real verbs: two Soft-RoCE devices, the CUDA double's GPUs at
# the PCI addresses of a sysfs fixture (GPU 0 0000:03:00.0 and GPU 1 0000:05:00.0 under one
# PCIe switch with rxe0; rxe1 on the other socket). A NIC is slowed by its netdev's MTU, not
# tc: rxe loops a packet for its own MAC back inside the driver, never through the netdev's
# qdisc (a tbf of 5 Mbit/s on veth1 counted 1 packet while a loopback write_bw on rxe1 moved
# 640 x 64 KiB at 31.7 MiB/s); MTU 400 gives rxe MTU 256, about 6x slower. rxe0 slowed: the
# pairing takes rxe1 and a line names the disagreement, the rule's rxe0 beside it; rxe1
# slowed: rxe0 and no disagreement; --use_cuda=auto takes the GPU of the --pairing file (the
# rule alone takes GPU 1 for rxe1); GPU 0 through both NICs at once (--matrix_shared). Each cell
# runs both directions (d2h: the client's memory on the GPU, the server's host memory; h2d: the
# other way round), each row says its direction and "loopback: inside the NIC, not the wire",
# and each side's memory is checked per direction (the client's mem_kind, the server's copier).
# The launcher never initialises CUDA: the double refuses every call of a child forked after
# cuInit, so a launcher that did would fail every cell here.
matrix_fixture()
{
	local R=$1 sw=pci0000:00/0000:00:01.0/0000:01:00.0 d
	rm -rf "$R"
	mkdir -p "$R/sys/bus/pci/devices" "$R/sys/class/infiniband" || return 1
	R=$(cd "$R" && pwd)
	pcidev() { # PATH VENDOR CLASS NUMA
		d=$R/sys/devices/$1
		mkdir -p "$d" && echo "$2" >"$d/vendor" && echo "$3" >"$d/class" && echo "$4" >"$d/numa_node" &&
			ln -s "../../../devices/$1" "$R/sys/bus/pci/devices/${1##*/}"
	}
	pcidev pci0000:00/0000:00:01.0 0x8086 0x060400 0
	pcidev $sw 0x10b5 0x060400 0
	pcidev $sw/0000:02:00.0 0x10b5 0x060400 0
	pcidev $sw/0000:02:00.0/0000:03:00.0 0x10de 0x030200 0
	pcidev $sw/0000:02:01.0 0x10b5 0x060400 0
	pcidev $sw/0000:02:01.0/0000:04:00.0 0x15b3 0x020000 0
	pcidev $sw/0000:02:02.0 0x10b5 0x060400 0
	pcidev $sw/0000:02:02.0/0000:05:00.0 0x10de 0x030200 0
	pcidev pci0000:80/0000:80:01.0 0x8086 0x060400 1
	pcidev pci0000:80/0000:80:01.0/0000:81:00.0 0x15b3 0x020000 1
	for d in "rxe0 $sw/0000:02:01.0/0000:04:00.0" "rxe1 pci0000:80/0000:80:01.0/0000:81:00.0"; do
		set -- $d
		mkdir -p "$R/sys/class/infiniband/$1/ports/1"
		ln -s "../../../devices/$2" "$R/sys/class/infiniband/$1/device"
		echo "4: ACTIVE" >"$R/sys/class/infiniband/$1/ports/1/state"
		echo "10 Gb/sec (4X SDR)" >"$R/sys/class/infiniband/$1/ports/1/rate"
	done
	for d in 0 1; do
		mkdir -p "$R/sys/devices/system/node/node$d" && echo 0-1 >"$R/sys/devices/system/node/node$d/cpulist"
	done
	printf '0000:03:00.0 0\n0000:05:00.0 0\n' >"$R/gpus"
}

# matrix_slowed NETDEV SLOW-FIELD FAST-FIELD OUT PORT ARGS...: gdr_write_bw --matrix ARGS -p PORT
# with NETDEV's MTU at 400 (its rxe MTU 256); the exit status. When the slowed NIC's direct
# figure (field SLOW-FIELD of GPU 0's matrix rows, one a direction) did not come out below the other's
# (FAST-FIELD), a host loaded by other work inverted the measurement (the slowdown is
# 2.4-7x on a quieter host): once more on port PORT+5, and OUT.retry says so.
matrix_slowed()
{
	local nd=$1 sf=$2 ff=$3 o=$4 mp=$5 rc try a
	shift 5
	for try in 1 2; do
		for a in "$@"; do [[ $a != --csv=* ]] || rm -f "${a#--csv=}"; done # rows of this try only
		ip link set "$nd" mtu 400
		env "${env[@]}" timeout -k 5 400 "$bin" "$@" -p "$mp" >"$o" 2>&1
		rc=$?
		ip link set "$nd" mtu 1500
		awk -v s="$sf" -v f="$ff" '/^ GPU 0 0000:03:00.0 / && $5 == "/" { n++; k += $s != "-" && $f != "-" && $s + 0 < $f + 0 }
			END { exit !(n > 0 && k == n) }' "$o" && break
		[[ $try == 2 ]] || echo "the slowed $nd measured no slower: again" >>"$o.retry"
		mp=$((mp + 5))
	done
	return $rc
}

fault_matrix()
{
	local n=fault_matrix t0=$SECONDS why= rc added= f
	cdir=$out/cases/$n
	mkdir -p "$cdir"
	if [[ $tool != gdr || $dev != rxe0 || ! -f $libcuda ]] || ! ip link show veth1 >/dev/null 2>&1; then
		skip $n "(Soft-RoCE rxe0 on veth0 and the CUDA double only)"
		return
	fi
	if [[ ! -e /sys/class/infiniband/rxe1 ]]; then
		ip addr add 10.9.0.2/24 dev veth1 && rdma link add rxe1 type rxe netdev veth1 && added=1
		[[ -n $added ]] || { skip $n "(cannot add rxe1 on veth1)"; return; }
	fi
	matrix_fixture "$cdir/fx" || why+="cannot build the sysfs fixture; "
	local bin=${prefix}write_bw p=$((port + 200)) fx=$cdir/fx
	port=$((port + 1))
	local env=(GDR_SYSFS_ROOT="$fx/sys" GDR_LIBCUDA="$libcuda" GDR_DOUBLE_FIXTURE="$fx/gpus" GDR_DOUBLE_DEVICES=1)
	local mx=(-s 64K --matrix_time 1 --stage_copy=ce)
	# the shared runs 2 s a path: at 1 s one rail of the slowed port's shared d2h direct run
	# twice timed no message in CI (2026-11-29; cause not found: the rail printed no error)
	matrix_slowed veth0 4 8 "$cdir/slow0.out" $p --matrix=rxe0,rxe1 --matrix_shared \
		-s 64K --matrix_time 2 --stage_copy=ce \
		--pairing="$cdir/pair.txt" --csv="$cdir/m.csv" --json="$cdir/m.json" --prom="$cdir/m.prom"
	rc=$?
	f=$cdir/slow0.out
	[[ $rc -eq 0 ]] || why+="--matrix with rxe0 slowed: $(rc_desc $rc); "
	[[ $(grep -Ec '^ GPU 0 0000:03:00.0 +[0-9.e-]+ / [0-9.e-]+ PIX +[0-9.e-]+ / [0-9.e-]+ SYS' "$f") -eq 2 ]] ||
		why+="not a matrix row a direction with both cells and their PCIe relations; "
	grep -q '^GPU x NIC matrix: .*; loopback: inside the NIC, not the wire$' "$f" || why+="the matrix's header does not say loopback: inside the NIC, not the wire; "
	grep -q '^d2h: GPU -> host memory (the NIC reads the GPU)' "$f" && grep -q '^h2d: host memory -> GPU (the NIC writes the GPU)' "$f" ||
		why+="the matrix does not name both directions; "
	grep -Eq '^ GPU 0 0000:03:00.0 -> rxe1:1  [0-9.e-]+ GB/s direct (d2h|h2d) \(SYS\)$' "$f" || why+="rxe0 slowed: the pairing is not rxe1 (with the smaller direction named); "
	grep -Eq '^ GPU 0: rxe1:1 \(SYS\) measured [0-9.e-]+ GB/s direct, faster than the nearer rxe0:1 \(PIX\)' "$f" ||
		why+="no line naming the disagreement with the topology; "
	grep -Eq '^ GPU 0 0000:03:00.0 +rxe0 \(PIX\) +rxe1:1 \(SYS\) +differ$' "$f" ||
		why+="the pairing rule's rxe0 and the measured rxe1 not side by side; "
	grep -q '^0000:03:00.0 rxe1:1 [0-9.]*$' "$cdir/pair.txt" 2>/dev/null || why+="--pairing file without GPU 0's rxe1; "
	# --matrix_shared: GPU 0 through both NICs at once, each direction, beside the ports' rate (loopback: no share of it)
	[[ $(grep -Ec '^ GPU 0 through 2 NIC ports, (d2h|h2d): direct [0-9.e-]+, staged [0-9.e-]+; one at a time [0-9.e-]+; ports rate 2$' "$f") -eq 2 ]] ||
		why+="not a line a direction for GPU 0 through both NICs at once beside the ports' rate; "
	! grep -q '% of' "$f" || why+="a share of the port's rate printed for loopback traffic; "
	python3 - "$cdir/m.csv" "$cdir/m.json" >"$cdir/rows.out" 2>&1 <<'PY' || why+="rows: $(tail -1 "$cdir/rows.out"); "
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
got = sorted((r["rdma_dev"], r["gpu_pci"], r["direction"], r["path"]) for r in rows
             if r["path"] not in ("gpu-proxy", "pairing"))
# a cell is a --compare run per direction, one side's memory the GPU, the other's host memory:
# host, direct, staged, and in d2h (write: the client's memory on the GPU) gpu-proxy's row when
# its kernel timed a message (the CUDA double's -D run may time none: then no row, never one
# of 0 messages); h2d (the server's) none
want = sorted([(d, "0000:03:00.0", x, p) for d in ("rxe0", "rxe1") for x in ("d2h", "h2d")
               for p in ("host", "direct", "staged")] +
              [("all", "0000:03:00.0", x, p) for x in ("d2h", "h2d")
               for p in ("direct", "staged")])  # --matrix_shared's
if got != want:
    sys.exit("CSV cells %s" % got)
if any(r["direction"] != "d2h" for r in rows if r["path"] == "gpu-proxy"):
    sys.exit("CSV: a gpu-proxy row in h2d (the client's memory is host memory)")
# the measured pairing's row (GPU 0 -> rxe1), in the smaller direction, named
pr = [(r["rdma_dev"], r["gpu_pci"], r["topology"]) for r in rows if r["path"] == "pairing"]
if pr != [("rxe1", "0000:03:00.0", "SYS")] or \
        [r["direction"] for r in rows if r["path"] == "pairing"][0] not in ("d2h", "h2d"):
    sys.exit("CSV pairing rows %s" % [r for r in rows if r["path"] == "pairing"])
for r in rows:  # every row measured: messages over a time, no unsigned difference of an unset one
    if not (int(r["iterations"]) > 0 and 0 < float(r["duration_s"]) < 1000):
        sys.exit("CSV row %s %s %s: %s messages in %s s" % (r["rdma_dev"], r["direction"], r["path"], r["iterations"], r["duration_s"]))
if {r["loopback"] for r in rows} != {"inside the NIC, not the wire"}:
    sys.exit("CSV loopback column %s" % {r["loopback"] for r in rows})
# each side's memory per direction: the client's says mem_kind, the server's its copier in the
# staged row's stage_copy (client/server; host memory copies with memcpy)
for r in rows:
    if r["rdma_dev"] == "all":
        continue
    mem, copy = {"d2h": ("cuda", "ce/memcpy"), "h2d": ("host", "memcpy/ce")}[r["direction"]]
    if r["mem_kind"] != mem or (r["path"] == "staged" and r["stage_copy"] != copy):
        sys.exit("%s %s %s: client memory %s, copiers %s; want %s, %s" % (
            r["rdma_dev"], r["direction"], r["path"], r["mem_kind"], r["stage_copy"], mem, copy))
# schema 5: each cell's PCIe relation beside its figures (--matrix_shared's rows: none)
ct = sorted({(r["rdma_dev"], r.get("topology")) for r in rows})
if ct != [("all", ""), ("rxe0", "PIX"), ("rxe1", "SYS")]:
    sys.exit("CSV topology column %s" % ct)
doc = json.load(open(sys.argv[2]))
res = [r for r in doc["results"] if r["path"] != "gpu-proxy"]
topo = {(r["rdma_dev"], r["direction"], r["path"]): r["topology"] for r in res}
if topo.get(("rxe0", "h2d", "direct")) != "PIX" or topo.get(("rxe1", "d2h", "direct")) != "SYS" or \
        [t for (d, x, p), t in topo.items() if p == "pairing"] != ["SYS"] or len(topo) != 17:
    sys.exit("JSON cells %s" % topo)
if any(r.get("mtu") is None or not r.get("link_layer") for r in doc["results"] if r["rdma_dev"] != "all"):
    sys.exit("JSON: a cell's row without its port's facts")
if {r["loopback"] for r in doc["results"]} != {"inside the NIC, not the wire"}:
    sys.exit("JSON results' loopback %s" % {r["loopback"] for r in doc["results"]})
run = doc["run"]
if run.get("topology", 0) is not None or run.get("direction", 0) is not None or \
        run.get("rdma_dev") != "rxe0:1,rxe1:1" or run.get("ib_port") != 0:
    sys.exit("JSON run %r: a cell's, not the matrix's" % {
        k: run.get(k) for k in ("rdma_dev", "ib_port", "topology", "direction")})
if run.get("loopback") != "inside the NIC, not the wire":
    sys.exit("JSON run loopback %r" % run.get("loopback"))
PY
	grep -q '^gdr_run_success{.*} 1$' "$cdir/m.prom" 2>/dev/null || why+="Prometheus file without gdr_run_success 1; "
	# each sample's path label a path a cell ran: never "" nor the bytes of a freed row
	f=$(LC_ALL=C grep -ao 'path="[^"]*"' "$cdir/m.prom" | LC_ALL=C sort -u | LC_ALL=C grep -avE '^path="(host|direct|staged|gpu-proxy|pairing)"$')
	[[ -z $f ]] && grep -q 'path="direct"' "$cdir/m.prom" || why+="Prometheus path labels: ${f:-no direct}; "
	matrix_slowed veth1 8 4 "$cdir/slow1.out" $((p + 10)) --matrix=rxe0,rxe1 "${mx[@]}"
	rc=$?
	[[ $rc -eq 0 ]] || why+="--matrix with rxe1 slowed: $(rc_desc $rc); "
	grep -q '^ GPU 0 0000:03:00.0 -> rxe0:1 ' "$cdir/slow1.out" || why+="rxe1 slowed: the pairing is not rxe0; "
	grep -q '^ none: no nearer NIC' "$cdir/slow1.out" || why+="rxe1 slowed: a disagreement named where there is none; "
	# dma-buf's fallback (rxe has no ibv_reg_dmabuf_mr) said once a process, not per region
	for f in rxe0 rxe1; do
		[[ $(grep -c "^gdr_write_bw GPU 0 x $f:1: ibv_reg_dmabuf_mr failed" "$cdir/slow1.out") -le 1 ]] ||
			why+="the dma-buf fallback said more than once in the cell of $f; "
	done
	# --use_cuda=auto with the file: GPU 0 for rxe1 (the rule alone: GPU 1, rail order)
	timeout 150 "$bin" -d rxe1 -p $((p + 20)) --listen_timeout 60 --timeout 60 >"$cdir/auto-srv.out" 2>&1 &
	local spid=$!
	env "${env[@]}" GDR_DOUBLE_DEVICES=2 timeout -k 5 120 "$bin" -d rxe1 -p $((p + 20)) --use_cuda=auto \
		--pairing="$cdir/pair.txt" -s 4K -n 5 --connect_timeout 20 --timeout 60 127.0.0.1 >"$cdir/auto.out" 2>&1
	rc=$?
	wait $spid
	[[ $rc -eq 0 ]] && grep -q 'use_cuda=auto: GPU 0 (0000:03:00.0) for rxe1 (measured pairing in ' "$cdir/auto.out" ||
		why+="--use_cuda=auto did not take GPU 0 from the --pairing file ($(rc_desc $rc)); "
	timeout 150 "$bin" -d rxe1 -p $((p + 21)) --listen_timeout 60 --timeout 60 >"$cdir/rule-srv.out" 2>&1 &
	spid=$!
	env "${env[@]}" GDR_DOUBLE_DEVICES=2 timeout -k 5 120 "$bin" -d rxe1 -p $((p + 21)) --use_cuda=auto \
		-s 4K -n 5 --connect_timeout 20 --timeout 60 127.0.0.1 >"$cdir/rule.out" 2>&1
	wait $spid
	grep -q 'use_cuda=auto: GPU 1 (0000:05:00.0) for rxe1 (rail order' "$cdir/rule.out" ||
		why+="without the file --use_cuda=auto did not take GPU 1 by the rule (the file made no difference); "
	timeout 10 "$bin" --matrix=rxe0 -d rxe0 >"$cdir/usage.out" 2>&1
	[[ $? -eq 3 && $(wc -l <"$cdir/usage.out") -eq 1 ]] || why+="--matrix with -d not refused in one line; "
	# a port the device does not have: one line before any cell runs (issue 44)
	env "${env[@]}" timeout 10 "$bin" --matrix=rxe0:2 -p $((p + 30)) >"$cdir/noport.out" 2>&1
	[[ $? -eq 2 && $(wc -l <"$cdir/noport.out") -eq 1 ]] &&
		grep -q 'error: --matrix: rxe0 has 1 port: port 2 does not exist$' "$cdir/noport.out" ||
		why+="--matrix=rxe0:2 not refused in one line; "
	# no cell measured (a GPU fault in every cell): no pairing printed, no file, no rows of it
	rm -f "$cdir/none.txt" "$cdir/none.csv"
	env "${env[@]}" GDR_DOUBLE_FAIL=alloc timeout -k 5 120 "$bin" --matrix=rxe0,rxe1 "${mx[@]}" \
		-p $((p + 35)) --pairing="$cdir/none.txt" --csv="$cdir/none.csv" >"$cdir/none.out" 2>&1
	rc=$?
	[[ $rc -eq 2 ]] || why+="--matrix with every cell failed: $(rc_desc $rc), not 2; "
	grep -q '^Measured pairing: none: 2 of 2 cells measured nothing (GPU 0 x rxe0:1 ' "$cdir/none.out" &&
		! grep -q ' -> rxe' "$cdir/none.out" || why+="no cell measured, a pairing printed; "
	[[ ! -e $cdir/none.txt ]] || why+="no cell measured, a --pairing file written; "
	! grep -q ',pairing,' "$cdir/none.csv" 2>/dev/null || why+="no cell measured, pairing rows in the CSV; "
	if [[ -n $added ]]; then
		rdma link delete rxe1
		ip addr del 10.9.0.2/24 dev veth1
	fi
	end_case $n $t0 "$why"
}

# the libfabric transport over the device: verbs;ofi_rxm, and fi_pingpong beside it
# shellcheck source=tests/e2e/ofi.sh
. "$here/ofi.sh"
ofi_cases

if [[ ${E2E_FAULTS:-1} == 1 ]]; then
	for f in fault_client_killed fault_server_killed fault_second_client fault_garbage fault_silent_client fault_mismatch fault_version \
		fault_wrong_test fault_wrong_variant fault_persistent fault_persistent_sm fault_max_mem fault_allow fault_silent_many \
		fault_bad_hello fault_transport fault_cq_limit fault_gbits_one_side fault_unreliable_loss infinite_sigint check_outputs fault_counters_loss fault_rails fault_matrix \
		fault_client_sigint fault_client_sigint0 fault_server_sigint fault_bad_gid fault_setup_gone; do
		[[ $f =~ $filter ]] && $f
	done
fi

echo "e2e: $npass passed, $nfail failed, $nskip skipped in $((SECONDS - start)) s"
((nfail == 0)) || {
	echo "e2e: failed: ${failed[*]}"
	exit 1
}
exit 0
