#!/bin/sh
# SPDX-License-Identifier: MIT
# --transport=NAME (src/transport/xport_pick.c, checked in src/driver/serve.c): a name
# no transport has, and one this build lacks, are refused in one error line and exit 3
# (usage) before the device or the network is touched: a client of a closed port on a
# host without an RDMA device would otherwise fail there, naming them. The default and
# "verbs" pass the check (they fail later here, at the device or the connection), so do
# loop and ofi; the options they cannot honour are refused in one line each.
srcdir=${srcdir:-.}
bin=${top_builddir:-.}/gdr_write_bw
. "$srcdir/tests/lib.sh"
t_tmpdir t t_transport_opt
closed="--connect_timeout=1 -p 1 127.0.0.1"
T_MATCH=re
# shellcheck disable=SC2086
t_case "unknown name" 3 '^gdr_write_bw: error: --transport=foo: no such transport (this build has: [a-z, ]*verbs[a-z, ]*)$' \
	"$bin" --transport=foo $closed
[ "$(wc -l <"$t/out")" -eq 1 ] || { echo "FAIL unknown name: not one line"; t_fail=1; }
# shellcheck disable=SC2086
t_case "unknown name on a server" 3 'error: --transport=Verbs: no such transport' \
	"$bin" --transport=Verbs --listen_timeout=1 -p 1
has=$(sed -n 's/.*(this build has: \(.*\))$/\1/p' "$t/out")
case ", $has," in
*", ofi,"*)
	echo "skip lacking ofi: this build has ofi ($has)" ;;
*)
	# shellcheck disable=SC2086
	t_case "a transport this build lacks" 3 \
		'^gdr_write_bw: error: --transport=ofi: this build has no ofi transport: build gdrperf with libfabric.s headers (Debian: libfabric-dev; .*) installed (this build has: .*)$' \
		"$bin" --transport=ofi $closed ;;
esac
# --provider without ofi: one line naming the transport that runs
# shellcheck disable=SC2086
t_case "a provider without ofi" 3 '^gdr_write_bw: error: --provider=tcp: only the ofi transport takes a provider (this run.s transport: verbs; add --transport=ofi)$' \
	"$bin" --provider=tcp $closed
# shellcheck disable=SC2086
t_case "a provider with loop" 3 '^gdr_write_bw: error: --provider=shm: only the ofi transport takes a provider (this run.s transport: loop; add --transport=ofi)$' \
	"$bin" --transport=loop --provider=shm $closed
# options a transport other than verbs cannot honour (src/driver/xport_fit.c): one line
# naming the option and the transport, exit 3, before the network (the port is closed:
# a check that came later would say so instead)
refuse() { # NAME PROGRAM TRANSPORT OPTION TEXT
	# shellcheck disable=SC2086
	t_case "$1" 3 "^$2: error: $4: not over the $3 transport: $5\$" \
		"${top_builddir:-.}/$2" --transport=$3 $6 $closed
}
refuse "-R over loop" gdr_write_bw loop "-R (rdma_cm)" "its endpoints connect by the address exchange only" -R
refuse "-c UC over loop" gdr_write_bw loop "-c UC" "its endpoints are reliable and connected (RC) only" "-c UC"
refuse "-c UD over loop" gdr_send_bw loop "-c UD" "its endpoints are reliable and connected (RC) only" "-c UD"
refuse "atomics over loop" gdr_atomic_bw loop atomics "it has no 64-bit atomics" ""
refuse "-e over loop" gdr_write_bw loop -e "it has no completion events (its completions are polled)" -e
refuse "-W over loop" gdr_write_bw loop -W "the counters are a verbs port.s" --report-counters=port_rcv_data
refuse "--qp_addr over loop" gdr_write_bw loop --qp_addr "the lines are verbs QP numbers" --qp_addr
refuse "GPU memory over loop, direct" gdr_write_bw loop --use_cuda \
	"it cannot register GPU memory (no HMEM or dma-buf): the direct path cannot run; --staged runs (host bounce buffers), --compare without its direct row" \
	--use_cuda=0
case ", $has," in
*", ofi,"*)
	refuse "-e over ofi" gdr_write_bw ofi -e "it has no completion events (its completions are polled)" -e
	refuse "-R over ofi" gdr_read_bw ofi "-R (rdma_cm)" "its endpoints connect by the address exchange only" -R ;;
*) echo "skip ofi refusals: this build has no ofi ($has)" ;;
esac
# a host where a transport cannot open (qemu-user has no process_vm_readv; no libfabric1
# installed) says so at open: those cases are left out there, said in a line each (the
# x86-64 build in make check and CI runs them)
cannot_open() { # OUTPUT-FILE
	grep -q 'process_vm_readv: Function not implemented\|libfabric.so.1 not found' "$1"
}
# a loop server says how to start its client: with the transport, without -d DEV or a GID
port=$((30000 + $$ % 20000))
"$bin" --transport=loop -p $port --listen_timeout=0.2 >"$t/out" 2>&1
rc=$?
if cannot_open "$t/out"; then
	echo "skip a loop server's start line: this host cannot open loop: $(tail -1 "$t/out")"
elif [ $rc -ne 2 ] ||
	! grep -q 'start the client with: gdr_write_bw --transport=loop -p PORT \[test options\]' "$t/out" ||
	! grep -q 'with the loop transport on loop$' "$t/out"; then
	echo "FAIL a loop server's start and waiting lines: rc $rc (want 2), output: $(cat "$t/out")"
	t_fail=1
else
	echo "ok a loop server's start and waiting lines"
fi
# loop and ofi run the programs now (tests/xport/t_progs.sh): past the check, they fail at
# the closed port, not at --transport
for a in --transport=loop --transport=ofi; do
	case "$a,$has" in --transport=ofi,*ofi*|--transport=loop,*) ;; *) continue ;; esac
	# shellcheck disable=SC2086
	"$bin" $a $closed >"$t/out" 2>&1
	if grep -q 'Connection refused' "$t/out" && ! grep -q -- '--transport' "$t/out"; then
		echo "ok '$a' passes the check"
	elif cannot_open "$t/out"; then
		echo "skip '$a' reaching the connection: this host cannot open it: $(tail -1 "$t/out")"
	else
		echo "FAIL '$a' did not reach the connection: $(cat "$t/out")"
		t_fail=1
	fi
done
# the default and verbs get past the check: whatever stops them here is not about it
for a in "" --transport=verbs; do
	# shellcheck disable=SC2086
	"$bin" $a $closed >"$t/out" 2>&1
	if grep -q -- '--transport\|no such transport' "$t/out"; then
		echo "FAIL '$a' refused: $(cat "$t/out")"
		t_fail=1
	else
		echo "ok '${a:-default}' passes the check"
	fi
done
exit $t_fail
