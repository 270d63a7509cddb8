#!/bin/sh
# Wrong invocations of the six test programs: each must exit non-zero within
# 5 s, print nothing on stdout and exactly one line "<prog>: error: ..." on
# stderr (no sanitizer report). Cases that would reach the network are clients
# of 127.0.0.1 port 1 (closed) with --connect_timeout=1, so they fail fast
# even on a host with RDMA devices and GPUs.
# Run from the build directory (make check does), or set top_builddir.
# BADINPUT_TIMEOUT (default 5 s) may be raised under emulation (a TCG VM runs an
# ASan build 5-10x slower: even `--foo` took 7 s there).
set -u
dir=${top_builddir:-.}
limit=${BADINPUT_TIMEOUT:-5}
. "${srcdir:-.}/tests/lib.sh"
t_tmpdir tmp badinput
pass=0 fail=0
closed="--connect_timeout=1 -p 1 127.0.0.1"

# case BINARY ARGS... (ARGS are eval'ed: quote empty strings as '')
case_() {
	prog=gdr_$1
	shift
	line="$prog $*"
	if [ ! -x "$dir/$prog" ]; then
		echo "FAIL $line  ($dir/$prog not built)"
		fail=$((fail + 1))
		return
	fi
	eval "set -- $*"
	timeout "$limit" "$dir/$prog" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
	why=
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		why="did not exit within $limit s"
	elif [ $rc -eq 0 ]; then
		why="exit status 0"
	elif [ $rc -gt 128 ]; then
		why="killed by signal $((rc - 128))"
	elif grep -q 'runtime error\|AddressSanitizer\|LeakSanitizer' "$tmp/err"; then
		why="sanitizer report: $(grep -m1 'runtime error\|Sanitizer' "$tmp/err")"
	elif [ -s "$tmp/out" ]; then
		why="stdout not empty: $(head -c 120 "$tmp/out")"
	elif [ "$(wc -l <"$tmp/err")" -ne 1 ]; then
		why="$(wc -l <"$tmp/err") lines on stderr: $(head -c 200 "$tmp/err" | tr '\n' '|')"
	elif ! grep -q "^$prog: error: " "$tmp/err"; then
		why="not an error line: $(cat "$tmp/err")"
	fi
	if [ -n "$why" ]; then
		echo "FAIL $line  ($why)"
		fail=$((fail + 1))
	else
		echo "PASS $line  -> $(cut -c1-100 "$tmp/err")"
		pass=$((pass + 1))
	fi
}

# ---- malformed, zero, negative, huge values ----
case_ write_bw -s 12Q
case_ write_bw -s 0
case_ read_bw -s -1
case_ send_bw -s 2G
case_ write_lat -s 1.5K
case_ read_lat -s "''"
case_ send_lat -s 99999999999999999999999
case_ send_lat -s "'4 K'"
case_ write_bw -n 0
case_ read_bw -n -5
case_ send_bw -n 1000000001
case_ write_lat -D 0
case_ read_lat -D -1
case_ send_lat -D abc
case_ write_bw -q 0
case_ write_bw -q 65
case_ read_bw -t 0
case_ send_bw -t 16385
case_ write_bw -p 0
case_ read_bw -p 65536
case_ send_lat -p -1
case_ write_lat -i 0
case_ read_lat -x 256
case_ write_bw -m 1000
case_ send_bw -I 1025
case_ write_bw --timeout=0
case_ send_lat --percentiles=0
case_ write_lat --percentiles=1,2,3,4,5,6,7,8,9
case_ write_bw --cpu=3-1
case_ read_bw --sizes=1M:1K
case_ send_bw --sizes=1K:1M:1
case_ write_bw --stage_chunk=100
case_ read_bw --stage_chunk=2G
case_ write_lat --stage_chunk=64K
case_ send_bw --staged -r 1
# ---- bad --use_cuda values ----
case_ write_bw --use_cuda=x
case_ read_bw --use_cuda=-1
case_ send_bw --use_cuda=256
case_ write_lat --use_cuda=
case_ write_bw --use_cuda_bus_id=zz
# ---- conflicting options, options for other tests or the other side ----
case_ write_bw -s 4K -a
case_ write_bw -n 5 -D 1
case_ read_bw --staged --compare
case_ write_bw -I 64 --use_cuda=0
case_ send_bw --use_cuda_dmabuf
case_ write_bw --use_cuda=0 --use_cuda_dmabuf --use_cuda_peermem
case_ send_bw --use_cuda_pcie_mapping
case_ write_bw --use_cuda=0 --use_cuda_pcie_mapping --use_cuda_peermem
case_ read_bw --use_data_direct
case_ write_bw --use_cuda=0 --use_data_direct --use_cuda_peermem
case_ write_bw --cpu=1 --no-pin
case_ write_bw --interval=1
case_ write_bw --samples=x.txt 127.0.0.1
case_ read_lat -I 16
case_ write_lat -b
case_ read_bw --use_imm
case_ write_bw --bind=1.2.3.4 127.0.0.1
case_ read_bw --persistent 127.0.0.1
case_ send_bw --allow=10.0.0.0/8 127.0.0.1
case_ write_lat --max_mem=1G 127.0.0.1
case_ write_bw --max_mem=0
case_ read_lat --max_time=0
# ---- server limits: a bad --allow fails before the device is opened or a port taken ----
case_ write_bw --allow=10.0.0.0/33 --listen_timeout=2
case_ read_bw --allow=10.0.0.1,,10.0.0.2 --listen_timeout=2
case_ send_lat --allow=example.com --listen_timeout=2
# ---- syntax ----
case_ write_bw --foo
case_ write_bw --report_gbit $closed
case_ read_lat --listen_time=5
case_ read_lat -Z
case_ send_lat --quiet=1
case_ write_bw host1 host2
case_ write_bw 127.0.0.1 -s
# ---- run time: device, server, GPU, output files ----
case_ write_bw -d nosuch $closed
case_ read_bw -d nosuch --listen_timeout=2
case_ write_bw $closed
case_ send_bw --connect_timeout=1 no.such.host.invalid
case_ write_lat --use_cuda=0 $closed
case_ read_bw --use_cuda_bus_id=0000:ff:1f.7 $closed
case_ write_bw --csv=/nonexistent/dir/x.csv $closed
case_ read_lat --json=/nonexistent/dir/x.json $closed
case_ send_lat --samples=/nonexistent/dir/s.txt $closed
case_ write_bw --bind=no.such.host.invalid --listen_timeout=2
# acceptance: limits of zero or below, a bad PCT, limits cluster mode does not take, --prom path
case_ write_bw -w 0 $closed
case_ send_bw --limit_msgrate=-1 $closed
case_ read_bw --expect-bw=auto:0 $closed
case_ read_bw --expect-bw=auto:101 $closed
case_ write_bw --expect-bw=fast $closed
case_ write_bw -y 1 --cluster
case_ write_lat -w 1 $closed
case_ write_bw --prom=/nonexistent/dir/x.prom $closed
case_ write_bw --rails=all
case_ write_bw --rails=no_such_dev0
case_ write_bw --rails=all -D 4000
case_ write_bw --rails=no_such_dev0 -R

# KV-cache-shaped runs (docs/kv.md): bad values and combinations, caught before any network step
case_ write_bw --block=0 $closed
case_ read_bw --block=16K --batch=0 $closed
case_ write_bw --block=16K --batch=4097 $closed
case_ write_bw --block=16K,x $closed
case_ write_bw --block=1K,2K,3K,4K,5K,6K,7K,8K,9K $closed
case_ write_bw --batch=4 $closed
case_ read_bw --pool=1M $closed
case_ write_bw --block=1M --batch=2048 $closed
case_ write_bw --block=16K --batch=8 --pool=100K $closed
case_ write_bw --block=16K --place=ring $closed
case_ read_bw --block=16K --place=stride:0 $closed
case_ write_bw --block=16K --place=random:x $closed
case_ write_bw --kv-model=llama3-70b,tp:3 $closed
case_ write_bw --kv-model=gpt $closed
case_ write_bw --kv-model=llama3-70b --block=4K $closed
case_ write_bw --block=16K -t 8 --batch=64 $closed
case_ write_bw --block=16K -D 1 $closed
case_ write_bw --block=16K --batch=8 --pool=1M --regions=3 $closed
case_ write_bw --block=16K --regions=0 $closed
case_ write_bw --block=16K --pool=64M --regions=1025 $closed
case_ write_bw --regions=4 $closed
case_ write_bw --block=16K --staged --regions=2 $closed
case_ read_bw --block=16K --pool=1M --regions=4 --transport=ofi $closed
# --sge: not dividing a batch, a run straddling two regions (1M of 16K: 64 slots, 16 a
# region, runs of 32), out of range, without --block, with the staged path, over ofi
case_ write_bw --block=16K --batch=4,6 --sge=4 $closed
case_ write_bw --block=16K --batch=32 --pool=1M --regions=4 --sge=32 $closed
case_ write_bw --block=16K --batch=4 --sge=0 $closed
case_ write_bw --block=16K --batch=33 --sge=33 $closed
case_ write_bw --sge=4 $closed
case_ read_bw --block=16K --batch=4 --staged --sge=4 $closed
case_ write_bw --block=16K --batch=4 --compare --sge=4 $closed
case_ read_bw --block=16K --batch=4 --sge=4 --transport=ofi $closed
case_ read_bw --block=16K --compare --stage_copy=sm $closed
case_ write_bw --block=16K --staged --stage_chunk=64K $closed
case_ write_bw --block=16K -Q 4 $closed
case_ write_bw --block=16K -c UC $closed
case_ write_bw --block=16K --write_with_imm $closed
case_ send_bw --block=16K $closed
echo "badinput: $pass passed, $fail failed of $((pass + fail)) cases"
[ $fail -eq 0 ]
