#!/bin/bash
# SPDX-License-Identifier: MIT
# tests/cluster/lib.sh - helpers of the cluster-mode tests (sourced): run a job under the
# launcher in the array `launch`, check its exit status, its CSV and its output.
# Uses: bin (folder of the programs), out (folder for outputs), limit (seconds per job).

fails=0

# job NAME EXPECTED_RC PROGRAM ARGS...: one --cluster job; output and CSV kept in $out
# (EXPECTED_RC "any": any status but the outer limit's)
job()
{
	local name=$1 want=$2 prog=$3 t0 rc
	shift 3
	t0=$(date +%s.%N)
	timeout "$limit" "${launch[@]}" "$bin/$prog" --cluster --same-host --timeout 20 \
		--csv "$out/$name.csv" "$@" >"$out/$name.out" 2>&1
	rc=$?
	printf '%s: exit %d (want %s), %.1f s\n' "$name" "$rc" "$want" \
		"$(echo "$(date +%s.%N) - $t0" | bc)" | tee -a "$out/times.txt"
	if [[ $want == any ]]; then [[ $rc -ne 124 ]] && return 0; elif [[ $rc -eq $want ]]; then return 0; fi
	echo "FAIL $name: exit $rc, want $want"
	sed 's/^/    /' "$out/$name.out"
	fails=$((fails + 1))
	return 1
}

# rows NAME COUNT CONDITION: NAME's CSV has COUNT data rows, each satisfying the awk
# CONDITION (fields by header name: $col["status"])
rows()
{
	local name=$1 want=$2 cond=$3 got
	if got=$(awk -F, -v want="$want" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ n++ }
		!('"$cond"') { bad++; print "    row " NR ": " $0 > "/dev/stderr" }
		END { printf "%d rows, %d not matching", n, bad; exit !(n == want && !bad) }' \
		"$out/$name.csv"); then
		echo "  $name CSV: $got"
		return 0
	fi
	echo "FAIL $name: CSV: $got (want $want rows matching: $cond)"
	fails=$((fails + 1))
	return 1
}

# has NAME REGEX: NAME's output matches REGEX
has()
{
	grep -Eq "$2" "$out/$1.out" && return 0
	echo "FAIL $1: output lacks /$2/"
	sed 's/^/    /' "$out/$1.out"
	fails=$((fails + 1))
	return 1
}

# lacks NAME REGEX: NAME's output does not match REGEX
lacks()
{
	grep -Eq "$2" "$out/$1.out" || return 0
	echo "FAIL $1: output has /$2/"
	sed 's/^/    /' "$out/$1.out"
	fails=$((fails + 1))
	return 1
}
