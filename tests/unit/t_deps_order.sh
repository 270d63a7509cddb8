#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/deps-graph.sh takes the layer order from the deps-order block of
# docs/ARCHITECTURE.md: the real document passes; a copy without the block, or
# with the block unclosed, fails with one line naming the block; a copy whose
# block lacks a folder of src/ fails naming that folder.
srcdir=${srcdir:-.}
g=$srcdir/scripts/ci/deps-graph.sh
doc=$srcdir/docs/ARCHITECTURE.md
t=$(mktemp -d "${TMPDIR:-/tmp}/t_deps_order.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
# case NAME WANT-RC WANT-TEXT DOC
case_() { # NAME WANT-RC WANT-TEXT DOC [COMMAND]: COMMAND (default: the script on src/)
	if [ $# -gt 4 ]; then "$5"; else DEPS_ORDER_DOC=$4 sh "$g"; fi >"$t/out" 2>&1
	rc=$?
	if [ "$rc" != "$2" ] || ! grep -q -- "$3" "$t/out"; then
		echo "FAIL $1: rc $rc (want $2), output:"; sed 's/^/  /' "$t/out"; fail=1
	else
		echo "ok $1"
	fi
}
case_ "the document's order" 0 'all pointing down the order' "$doc"
sed '/^```deps-order/,/^```$/d' "$doc" >"$t/none.md"
case_ "no block" 1 'no ```deps-order block' "$t/none.md"
awk '/^```deps-order/ { on = 1 } on && /^```$/ { next } { print }' "$doc" >"$t/open.md"
case_ "unclosed block" 1 'no ```deps-order block' "$t/open.md"
sed '/^```deps-order/,/^```$/{/^staging$/d}' "$doc" >"$t/short.md"
case_ "a folder left out" 1 'folder src/staging is not in the order' "$t/short.md"
case_ "no document" 1 'cannot read the layer order' "$t/missing.md"
# the edges themselves, on a small tree: a header of a lower folder is fine, a header of a
# higher one fails naming the file and header; a header of the folder's own wins over a
# same-named one elsewhere
mkdir -p "$t/src/base" "$t/src/transport"
printf '#include "log.h"\n' >"$t/src/transport/conn.h"
printf '/* x */\n' >"$t/src/base/log.h"
printf '/* x */\n' >"$t/src/base/util.h"
printf '/* x */\n' >"$t/src/transport/util.h"
printf ' #  include "util.h" /* its own */\n#include <stdio.h>\n' >"$t/src/base/a.c"
tree() { DEPS_ORDER_DOC=$doc sh "$g" "$t/src"; }
case_ "a tree pointing down" 0 '1 edges between' "$doc" tree
printf '#include "conn.h"\n' >>"$t/src/base/a.c"
case_ "an upward include" 1 'base/a.c:conn.h: src/base includes a header of src/transport, which is not below it' "$doc" tree
exit $fail
