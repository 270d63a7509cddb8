#!/bin/sh
# SPDX-License-Identifier: MIT
# The transport conformance harness (t_xport) over every row below: a transport
# and its argument (its device, or the provider: t_xport.c's rows[]), one a line. A row whose transport is not in
# this build, or whose device or provider this host lacks, is skipped (t_xport exits 77); the test skips when all are.
x=./tests/xport/t_xport
[ -x "$x" ] || { echo "t_xport.sh: $x not built"; exit 1; }
rows='loop
ofi tcp;ofi_rxm
ofi shm'
fails=0 ran=0
while IFS= read -r row; do
	[ -n "$row" ] || continue
	# shellcheck disable=SC2086 # a row is a transport and its argument, split on blanks
	$x $row
	case $? in
	0) ran=$((ran + 1)) ;;
	77) ;;
	*) echo "FAIL: t_xport $row"; fails=$((fails + 1)) ;;
	esac
done <<ROWS
$rows
ROWS
[ $fails -eq 0 ] || exit 1
[ $ran -gt 0 ] || exit 77
echo "t_xport.sh: $ran transports conform"
