#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/gpu/lead-check.sh COMMIT OUT [BUILD [LIMIT]] - the part every device call of the lead
# starts with, on the GPU machine from the repository root: configure --enable-werror with the
# real cuda.h in BUILD (default /tmp/b-lead), make, make check with the real driver (at most
# LIMIT seconds, default 300), into OUT/check.txt: a header (machine, date, COMMIT, command),
# make's and make check's exit status, every test's line, and the log tail of each failed one.
# Sourced (`. scripts/gpu/lead-check.sh`), it only defines lead_hdr for the caller's own files.
# Exit status: make check's (make's when the build failed).
#
# lead_hdr COMMAND: the header of a results file (machine, date, GDR_COMMIT, COMMAND)
lead_hdr()
{
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader | head -1); $(uname -srm); $(nproc) CPUs"
	echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-unknown}"
	echo "# command: $1"
}
[[ ${BASH_SOURCE[0]} == "$0" ]] || return 0

set -u
[[ $# -ge 2 && $# -le 4 ]] || {
	echo "usage: scripts/gpu/lead-check.sh COMMIT OUT [BUILD [LIMIT]]" >&2
	exit 2
}
export GDR_COMMIT=$1
o=$2 b=${3:-/tmp/b-lead} lim=${4:-300} src=$PWD
[[ -f $src/configure.ac && -f $src/scripts/gpu/env.sh ]] || {
	echo "lead-check.sh: run it from the repository root" >&2
	exit 2
}
mkdir -p "$o" "$b" || exit 2
# shellcheck source=scripts/gpu/env.sh
. scripts/gpu/env.sh
rc=0
{
	lead_hdr "configure --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h; make -j$(nproc); make -j$(nproc) check (real driver)"
	autoreconf -fi >/dev/null 2>&1
	cd "$b" && "$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >conf.out 2>&1
	make -j"$(nproc)" >make.out 2>&1
	rc=$?
	echo "make: exit $rc"
	grep -E 'error|warning' make.out | head
	if [[ $rc -eq 0 ]]; then
		timeout "$lim" make -j"$(nproc)" check >check.out 2>&1
		rc=$?
		echo "make check: exit $rc"
		grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS)|^# ' check.out
		for f in $(grep -lE '^(FAIL|ERROR)' tests/*/*.trs tests/*.trs 2>/dev/null); do
			echo "== ${f%.trs}.log"
			tail -30 "${f%.trs}.log"
		done
	fi
	exit $rc
} >"$o/check.txt" 2>&1
