#!/bin/sh
# SPDX-License-Identifier: MIT
# --matrix on a host with no ACTIVE RDMA port (a sysfs fixture with none; the CUDA double's
# two GPUs): it says the NIC columns did not run and runs the copy leg of the staged path,
# gdr_stage_bw on each GPU and then on both at once, each measurement --matrix_time long
# (gdr_stage_bw --time: its copies from the rate its warm-up measured, not from an assumed
# 25 GB/s, which took 20 minutes in an emulated VM; docs/matrix.md); --pairing is not
# written then (a warning says so), and one that cannot be written is refused before any run;
# --csv/--json/--prom are refused in one line before any run (no cell would fill them);
# a SIGTERM ends the gdr_stage_bw it runs and exits 4.
# Under tests/cross (qemu-user, no binfmt_misc) an aarch64 gdr_write_bw cannot exec the aarch64
# gdr_stage_bw it starts (the exec shim lives only in the host's shells): skip there with why.
if [ -n "${GDR_CROSS_QEMU:-}" ]; then
	echo "SKIP: --matrix execs gdr_stage_bw from an emulated program; qemu-user without binfmt_misc cannot start it"
	exit 77
fi
. "${srcdir:-.}/tests/cuda/double-env.sh"
fx=t_matrix_copyleg.tmp.d
rm -rf "$fx"
mkdir -p "$fx/sys/class/infiniband/rxe9/ports/1" || exit 99
echo "1: DOWN" >"$fx/sys/class/infiniband/rxe9/ports/1/state"
out=$fx/out
GDR_SYSFS_ROOT=$PWD/$fx/sys GDR_DOUBLE_DEVICES=2 timeout 120 ./gdr_write_bw --matrix=all -s 1M \
	--matrix_time 0.001 --pairing="$fx/pairing.txt" >"$out" 2>&1
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "FAIL: --matrix without a NIC exited $rc"; fail=1; }
grep -q '^--matrix: no ACTIVE RDMA port on this host: the NIC columns did not run' "$out" ||
	{ echo "FAIL: it does not say the NIC columns did not run"; fail=1; }
for g in 0 1 all; do
	grep -q "^\$ gdr_stage_bw --use_cuda=$g --size=1048576 --time=0.001 --reps=1 --dir=all\$" "$out" ||
		{ echo "FAIL: no gdr_stage_bw run on GPU $g"; fail=1; }
done
[ "$(grep -Ec '^1048576 +h2d +pinned ' "$out")" -eq 2 ] || { echo "FAIL: not an h2d row per GPU alone"; fail=1; }
grep -Eq '^1048576 +h2d +all\(2\) ' "$out" || { echo "FAIL: no h2d row of both GPUs at once"; fail=1; }
grep -q "^gdr_write_bw: warning: --pairing=$fx/pairing.txt: not written: no NIC port ran" "$out" &&
	[ ! -e "$fx/pairing.txt" ] || { echo "FAIL: --pairing without a NIC: no warning, or a file"; fail=1; }
[ $fail -eq 0 ] || { cat "$out"; exit 1; }
# a --pairing file that cannot be written: refused in one line before anything runs
GDR_SYSFS_ROOT=$PWD/$fx/sys GDR_DOUBLE_DEVICES=2 timeout 120 ./gdr_write_bw --matrix=all -s 1M \
	--matrix_time 0.001 --pairing="$fx/no-such-dir/p" >"$out" 2>&1
rc=$?
[ $rc -eq 2 ] && [ "$(wc -l <"$out")" -eq 1 ] &&
	grep -q "^gdr_write_bw: error: --pairing=$fx/no-such-dir/p: No such file or directory" "$out" ||
	{ cat "$out"; echo "FAIL: an unwritable --pairing not refused before the run (exit $rc)"; exit 1; }
# --csv, --json, --prom: no cell to write; one line, before any gdr_stage_bw
for f in csv json prom; do
	GDR_SYSFS_ROOT=$PWD/$fx/sys GDR_DOUBLE_DEVICES=2 timeout 120 ./gdr_write_bw --matrix=all -s 1M \
		--matrix_time 0.001 --$f="$fx/m.$f" >"$out" 2>&1
	rc=$?
	[ $rc -eq 3 ] && [ "$(wc -l <"$out")" -eq 1 ] && [ ! -e "$fx/m.$f" ] &&
		grep -q "^gdr_write_bw: error: --matrix: no ACTIVE RDMA port on this host: no cell to write to --$f " "$out" ||
		{ cat "$out"; echo "FAIL: --$f without an RDMA port not refused in one line (exit $rc)"; exit 1; }
done
# a stop (SIGTERM to this program alone, as `kill PID` sends it) ends the gdr_stage_bw it
# runs too and exits 4 (interrupted), not by the signal with gdr_stage_bw left running
GDR_SYSFS_ROOT=$PWD/$fx/sys GDR_DOUBLE_DEVICES=2 ./gdr_write_bw --matrix=all -s 1M \
	--matrix_time 60 >"$out" 2>&1 &
mx=$!
child=
for i in $(seq 100); do # its gdr_stage_bw started (10 s at most)
	child=$(ps -o pid= --ppid $mx 2>/dev/null | tr -d ' ')
	[ -n "$child" ] && break
	sleep 0.1
done
kill -TERM $mx
for i in $(seq 100); do kill -0 $mx 2>/dev/null || break; sleep 0.1; done
kill -0 $mx 2>/dev/null && { kill -KILL $mx; echo "FAIL: --matrix did not end 10 s after SIGTERM"; fail=1; }
wait $mx
rc=$?
sleep 0.5
if [ -n "$child" ] && kill -0 "$child" 2>/dev/null; then
	kill -KILL "$child"
	echo "FAIL: SIGTERM left gdr_stage_bw (pid $child) running"
	fail=1
fi
[ -n "$child" ] || { echo "FAIL: no gdr_stage_bw seen"; fail=1; }
[ $rc -eq 4 ] || { echo "FAIL: --matrix stopped by SIGTERM exited $rc, not 4"; fail=1; }
[ $fail -eq 0 ] || { cat "$out"; exit 1; }
rm -rf "$fx"
echo "ok: no NIC: the NIC columns said, the copy leg on GPU 0, GPU 1 and both at once"
