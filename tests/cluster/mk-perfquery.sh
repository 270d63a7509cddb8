#!/bin/sh
# SPDX-License-Identifier: MIT
# Regenerates tests/cluster/fixtures/perfquery-*.txt, the output t_cswctr parses: Debian's
# ibsim-utils (ibsim) serving tests/unit/fabric/ft3.net with core0 at LID 7, and
# infiniband-diags' perfquery under ibsim's libumad2sim (attached at core0, so its own LID
# answers without a subnet manager). Port 1's counters are set first: symbol errors 7, link
# downed 1, transmit discards 3, transmit wait 5000. perfquery-refused.txt: perfquery on a
# host without the umad device. Usage: tests/cluster/mk-perfquery.sh (from the source tree).
set -eu
sim=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
fix=tests/cluster/fixtures
command -v ibsim >/dev/null && [ -r "$sim" ] && command -v perfquery >/dev/null || {
	echo "mk-perfquery.sh: needs ibsim-utils and infiniband-diags" >&2
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed '1s/^Switch\t8 "core0"$/Switch\t8 "core0" lid 7/' tests/unit/fabric/ft3.net >"$tmp/ft3.net"
mkfifo "$tmp/cmd"
ibsim -s "$tmp/ft3.net" <"$tmp/cmd" >/dev/null 2>&1 &
pid=$!
exec 7>"$tmp/cmd"
sleep 2
for a in SymbolErrorCounter=7 LinkDownedCounter=1 PortXmitDiscards=3 PortXmitWait=5000; do
	echo "PerformanceSet \"core0\"[1] PortCounters.$a" >&7
done
sleep 1
LD_PRELOAD=$sim perfquery 7 1 2>/dev/null >"$fix/perfquery-7-1.txt"
LD_PRELOAD=$sim perfquery -x 7 1 2>/dev/null >"$fix/perfquery-x-7-1.txt"
echo Quit >&7
exec 7>&-
wait $pid || true
perfquery 7 1 >"$fix/perfquery-refused.txt" 2>&1 || true
