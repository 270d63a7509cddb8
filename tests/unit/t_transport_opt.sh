#!/bin/sh
# SPDX-License-Identifier: MIT
# --transport=NAME (src/transport/xport_pick.c, checked in src/driver/serve.c): a name
# no transport has, and one this build lacks, are refused in one error line and exit 3
# (usage) before the device or the network is touched: a client of a closed port on a
# host without an RDMA device would otherwise fail there, naming them. The default and
# "verbs" pass the check (they fail later here, at the device or the connection).
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
# a transport in the registry that the test programs do not run over yet: refused, not ignored
# shellcheck disable=SC2086
t_case "loop not wired into the tests yet" 3 \
	'^gdr_write_bw: error: --transport=loop: the test programs run over verbs only in this version; the loop transport is held to the transport conformance harness (tests/xport) and is not yet wired into them$' \
	"$bin" --transport=loop $closed
# --provider means ofi: refused with it
# shellcheck disable=SC2086
t_case "a provider" 3 '^gdr_write_bw: error: --provider=tcp: only the ofi transport takes a provider' \
	"$bin" --provider=tcp $closed
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
