#!/bin/bash
# SPDX-License-Identifier: MIT
#
# rxe-try.sh - run your own gdrperf server and client on Soft-RoCE, no RDMA hardware needed.
# It runs inside the VM of scripts/ci/rxe-vm.sh (rxe0 on veth0, 10.9.0.1):
#
#   bash scripts/ci/rxe-vm.sh scripts/tools/rxe-try.sh
#   GDR_TEST=read_lat GDR_ARGS="-s 64 -n 1000" RXE_VM_ENV="GDR_TEST GDR_ARGS" \
#       bash scripts/ci/rxe-vm.sh scripts/tools/rxe-try.sh
#
# GDR_BIN   folder of the built programs (default: the first of this checkout, its
#           build folders, then PATH that holds gdr_write_bw)
# GDR_TEST  write_bw (default), read_bw, send_bw, write_lat, read_lat or send_lat
# GDR_ARGS  the client's test options (default: -s 64K -n 200); the server needs none
# Prints both sides' output; exits with the client's status (the server's if it failed).
set -u
here=$(cd "$(dirname "$0")" && pwd)
test=${GDR_TEST:-write_bw}
args=${GDR_ARGS:--s 64K -n 200}
bin=${GDR_BIN:-}
if [[ -z $bin ]]; then
	for d in "$here/../.." "$here"/../../build/* "$(dirname "$(command -v gdr_write_bw 2>/dev/null || echo .)")"; do
		[[ -x $d/gdr_$test ]] && bin=$d && break
	done
fi
[[ -n $bin && -x $bin/gdr_$test ]] || {
	echo "rxe-try: error: gdr_$test not found: build first (see README), or set GDR_BIN" >&2
	exit 1
}
ip -br addr show veth0 2>/dev/null | grep -q 10.9.0.1 || {
	echo "rxe-try: error: no Soft-RoCE setup here: run me through scripts/ci/rxe-vm.sh" >&2
	exit 1
}
echo "== server: gdr_$test -d rxe0"
timeout 120 "$bin/gdr_$test" -d rxe0 --listen_timeout 60 >server.out 2>&1 &
spid=$!
sleep 1 # the server prints at once what it waits for; the client retries for 3 s anyway
echo "== client: gdr_$test -d rxe0 $args 10.9.0.1"
# shellcheck disable=SC2086
timeout 120 "$bin/gdr_$test" -d rxe0 $args 10.9.0.1
crc=$?
wait $spid
src=$?
echo "== the server printed:"
cat server.out
[[ $crc -ne 0 ]] && exit $crc
exit $src
