#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cuda/t_gproxy against the CUDA driver double, which plays the gpu-proxy kernel on a
# host thread (the protocol of src/gproxy/gp_proto.h; only a GPU proves the kernel itself);
# then a backend that stops completing (the kernel's bounded wait ends the run: one line), a
# proxy thread that stops inside its backend (left behind, one line), a
# kernel that stops producing (the proxy says so; close bounded), and gdr_proxy_bw's rows and
# its one line when the kernel stops.
. "${srcdir:-.}/tests/cuda/double-env.sh"
t=tests/cuda/t_gproxy
$t || exit 1
# a descriptor's words apart, seq's first, the other up to 200 us later: only whole ones taken
GDR_DOUBLE_TEAR_US=200 $t tear || { echo "FAIL: t_gproxy tear (GDR_DOUBLE_TEAR_US=200)"; exit 1; }

double_expect "" 0 "a proxy that stops completing: the kernel's bounded wait, one line" "$t stall" \
	"queue 0: the kernel waited 0.400 s for descriptor 11's completion: the proxy (or the NIC behind it) stopped completing"
double_expect "" 0 "a proxy thread that stops inside its post: one line naming it, within the timeout" \
	"timeout 20 $t hang" \
	"queue 0: the proxy thread stopped: its post (descriptor 11) has not returned for \\(0\\.[4-9]\\|[1-9]\\)[0-9.]* s" \
	"gpu-proxy: [0-9] proxy threads of an earlier run are stuck: no new run"
double_expect stuck:30 0 "a kernel that stops producing: the proxy says so; the stop goes unanswered" \
	"$t stuck" \
	"queue [01]: no descriptor [0-9]* of 100 after [0-9.]* s: the kernel stopped producing (the kernel runs but writes none)" \
	"the kernel did not end within 0.400 s"
double_expect "" 0 "ping-pong of two kernels through two proxies; then no peer: the kernel's bounded wait, one line" \
	"$t ping" \
	"queue 0: the kernel waited 0.400 s for the peer's message 1: the peer (its kernel, its proxy or the NIC) stopped"
for o in 0 100; do
	GDR_DOUBLE_ORDERING=$o $t order | grep -qx "GPUDirect RDMA write ordering $o" ||
		{ echo "FAIL: t_gproxy order with GDR_DOUBLE_ORDERING=$o"; exit 1; }
done
echo "  the GPU's GPUDirect RDMA write ordering, as the proxy read it: 0 and 100"
# GDR_GP_PTX names a PTX file loaded instead of the embedded one: a pipe too, read whole
out=$(cat "${srcdir:-.}/src/gproxy/gp_kernel.ptx" | GDR_GP_PTX=/dev/stdin $t order 2>&1) ||
	{ echo "$out"; echo "FAIL: t_gproxy with GDR_GP_PTX a pipe"; exit 1; }
echo "  GDR_GP_PTX=/dev/stdin, a pipe: the kernel loaded from it runs"
GDR_DOUBLE_FAIL=launch $t nolaunch >/dev/null 2>&1 || { echo "FAIL: t_gproxy nolaunch"; exit 1; }
echo "  GDR_DOUBLE_FAIL=launch: open fails and says why"

# gdr_proxy_bw: its header, the latency row and one rate row per threads x window x batch
out=$(./gdr_proxy_bw -n 300 --threads=1,2 --window=4,32 --batch=1,4) || {
	echo "FAIL: gdr_proxy_bw on the double"
	exit 1
}
echo "$out"
echo "$out" | grep -q '^# gpu-proxy, null NIC: GPU 0 ' || { echo "FAIL: no header"; exit 1; }
echo "$out" | grep -Eq '^latency,1,1,1,270,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,-,-$' ||
	{ echo "FAIL: no latency row of 270 samples"; exit 1; }
[ "$(echo "$out" | grep -Ec '^rate,[12],(4|32),[14],(300|600),-,-,-,-,[0-9]+,[0-9]+$')" -eq 8 ] ||
	{ echo "FAIL: not 8 rate rows"; exit 1; }
# stuck:5: open's proof that the kernel runs writes one descriptor, the run's kernel four
double_expect stuck:5 2 "gdr_proxy_bw with a kernel that stops: its lines, exit 2" \
	"./gdr_proxy_bw -q -n 100 --timeout=300 --no_rate" \
	"queue 0: no descriptor 5 of 100 after [0-9.]* s: the kernel stopped producing" \
	"the kernel did not end within 0.300 s"
# --ping: the two kernels' ping-pong through a null NIC, a row of half round trips
out=$(./gdr_proxy_bw -q -n 300 --ping --no_rate) || { echo "FAIL: gdr_proxy_bw --ping on the double"; exit 1; }
echo "$out"
echo "$out" | grep -Eq '^ping,2,1,1,270,[0-9.]+,[0-9.]+,[0-9.]+,[0-9.]+,-,-$' ||
	{ echo "FAIL: no ping row of 270 samples"; exit 1; }
out=$(./gdr_proxy_bw --batch=64 --window=16 2>&1) && { echo "FAIL: a batch over the window ran"; exit 1; }
echo "$out" | grep -q 'batch=64 is larger than --window=16' || { echo "FAIL: $out"; exit 1; }
echo "PASS: t_gproxy_double"
