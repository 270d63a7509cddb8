#!/bin/bash
# SPDX-License-Identifier: MIT
# Run on the GPU machine from the repository root (the librdmacm-dev .deb in .carry/, $OUT a
# folder; GDR_COMMIT names the commit when the copy has no .git): build only what the CUDA
# conformance cases need (tests/conformance/c_*, the driver double), then run every case
# against the real driver and against the double (tests/conformance/compare.sh), each held to
# its .expect. Writes $OUT/conformance.txt: machine, driver, date and commit at the top, then
# per case the RULE lines of the real driver, of the double and of the .expect, and for each
# rule "agree" or "DISAGREE" (real vs expect, double vs expect, real vs double).
# A real-driver DISAGREE means the .expect is wrong (fix it from the real lines: they are the
# facts) or the machine differs; a double DISAGREE means the double is kinder than the driver.
set -u
src=$PWD b=/tmp/b-conf o=${OUT:-/tmp/out}
mkdir -p "$o" "$b"
R=$o/conformance.txt
cases="fork timeslice stream_order ctx_thread errors attrs dmabuf batch"
t0=$(date +%s)
{
	echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
	echo "# driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1); MPS: $(pgrep -x nvidia-cuda-mps-control >/dev/null && echo on || echo off)"
	echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
	echo "# command: scripts/gpu/conformance.sh (configure --enable-werror; the cases and the double"
	echo "#          only; each case on the real driver, then on tests/cuda_double/libcuda.so.1)"
} >"$R"
. scripts/gpu/env.sh
(autoreconf -fi >/dev/null 2>&1 || autoreconf -fi) >>"$R" 2>&1
cd "$b" || exit 1
"$src/configure" --enable-werror CUDA_H_PATH=/usr/local/cuda/include/cuda.h >configure.out 2>&1 ||
	{ tail -20 configure.out >>"$R"; cat "$R"; exit 1; }
targets="tests/cuda_double/libcuda.so.1"
for c in $cases; do targets="$targets tests/conformance/c_$c"; done
# shellcheck disable=SC2086
make -j"${JOBS:-16}" $targets >make.out 2>&1 || { tail -30 make.out >>"$R"; cat "$R"; exit 1; }
echo "# built in $(($(date +%s) - t0)) s" >>"$R"
dbl=$b/tests/cuda_double/libcuda.so.1
for c in $cases; do
	e=$src/tests/conformance/c_$c.expect
	rm -f "$b/real.$c" "$b/double.$c"
	{
		echo
		echo "== c_$c"
		env -u GDR_LIBCUDA sh "$src/tests/conformance/compare.sh" tests/conformance/c_$c "$e" \
			"$b/real.$c" 2>&1 | sed 's/^/   real:   /'
		rrc=${PIPESTATUS[0]}
		GDR_LIBCUDA=$dbl sh "$src/tests/conformance/compare.sh" tests/conformance/c_$c "$e" \
			"$b/double.$c" 2>&1 | sed 's/^/   double: /'
		grep '^RULE ' "$e" >"$b/expect.$c"
		for r in $(awk '{print $2}' "$b/expect.$c"); do
			x=$(grep "^RULE $r " "$b/expect.$c")
			rl=$(grep "^RULE $r " "$b/real.$c" 2>/dev/null)
			dl=$(grep "^RULE $r " "$b/double.$c" 2>/dev/null)
			v1=$([ "$rl" = "$x" ] && echo agree || echo DISAGREE)
			v2=$([ "$dl" = "$x" ] && echo agree || echo DISAGREE)
			v3=$([ "$rl" = "$dl" ] && echo agree || echo DISAGREE)
			[ -f "$b/real.$c" ] || { [ "$rrc" -eq 77 ] && v1="skipped (no driver)" v3=-; } ||
				v1="DISAGREE (the case failed: above)" v3=-
			[ -f "$b/double.$c" ] || v2="skipped" v3=-
			echo "rule $r: real vs expect $v1, double vs expect $v2, real vs double $v3"
			echo "   real:   ${rl:-(none)}"
			echo "   double: ${dl:-(none)}"
			echo "   expect: $x"
		done
	} >>"$R" 2>&1
done
fails=$(grep -c '^rule .*vs expect DISAGREE' "$R")
{
	echo
	echo "# rules not agreeing with their .expect (real or double): $fails; total $(($(date +%s) - t0)) s"
} >>"$R"
cat "$R"
