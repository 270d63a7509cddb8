#!/bin/sh
# SPDX-License-Identifier: MIT
# The CUDA double keeps the driver's time slicing: the persistent kernels of two processes on one
# GPU take turns (a slice each, GDR_DOUBLE_SLICE_US), so a ping-pong between them (tests/cuda/
# ts_ping) waits a slice per hand-off; under MPS (GDR_DOUBLE_MPS=1, or CUDA_MPS_PIPE_DIRECTORY
# naming a folder) they run at once. The slices are long (50 ms, 1 s) so the bounds hold by
# construction on any load: with slicing a hand-off cannot come before the holder's slice ends;
# without it 20 hand-offs of 1 s would take 20 s. No GPU here: scripts/gpu/timeslice-check.sh
# runs ts_ping against the real driver.
. "${srcdir:-.}/tests/cuda/double-env.sh"
dir=$(mktemp -d) || exit 99
trap 'rm -rf "$dir"' EXIT
export TMPDIR=$dir

# handoff ENV...: the first side's median hand-off in us, both sides run with ENV
handoff()
{
	rm -f "$dir/flags"
	env "$@" tests/cuda/ts_ping "$dir/flags" second 20 >"$dir/second" 2>&1 &
	hp=$!
	env "$@" tests/cuda/ts_ping "$dir/flags" first 20 >"$dir/first" 2>&1 || {
		cat "$dir/first"
		echo "FAIL: ts_ping first ($*)" >&2
		return 1
	}
	wait $hp || {
		cat "$dir/second"
		echo "FAIL: ts_ping second ($*)" >&2
		return 1
	}
	sed -n 's/^handoff_us \([0-9.]*\)$/\1/p' "$dir/first"
}

us=$(handoff GDR_DOUBLE_SLICE_US=50000) || exit 1
echo "  two processes, slice 50 ms: ${us} us per hand-off"
awk -v u="$us" 'BEGIN { exit !(u >= 25000) }' ||
	{ echo "FAIL: two processes' kernels on one GPU did not take turns (${us} us < 25 ms)"; exit 1; }

us=$(handoff GDR_DOUBLE_SLICE_US=1000000 GDR_DOUBLE_MPS=1) || exit 1
echo "  two processes under MPS (GDR_DOUBLE_MPS=1), slice 1 s: ${us} us per hand-off"
awk -v u="$us" 'BEGIN { exit !(u < 500000) }' ||
	{ echo "FAIL: under MPS the two kernels took turns (${us} us)"; exit 1; }

mkdir "$dir/mps"
us=$(handoff GDR_DOUBLE_SLICE_US=1000000 CUDA_MPS_PIPE_DIRECTORY="$dir/mps") || exit 1
echo "  two processes, CUDA_MPS_PIPE_DIRECTORY a folder, slice 1 s: ${us} us per hand-off"
awk -v u="$us" 'BEGIN { exit !(u < 500000) }' ||
	{ echo "FAIL: with CUDA_MPS_PIPE_DIRECTORY the two kernels took turns (${us} us)"; exit 1; }

# one process, two kernels (gdr_proxy_bw --ping): concurrent whatever the slice
out=$(GDR_DOUBLE_SLICE_US=1000000 ./gdr_proxy_bw -q -n 20 --ping --no_rate) ||
	{ echo "FAIL: gdr_proxy_bw --ping"; exit 1; }
med=$(echo "$out" | awk -F, '$1 == "ping" { print $6 }')
echo "  one process, two kernels, slice 1 s: ${med} us per message"
awk -v u="$med" 'BEGIN { exit !(u != "" && u < 500000) }' ||
	{ echo "FAIL: two kernels of one process took turns ($out)"; exit 1; }
echo "PASS: t_timeslice_double"
