#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/deps-graph.sh takes the layer order from the deps-order block of
# docs/ARCHITECTURE.md: the real document passes; a copy without the block, or
# with the block unclosed, fails with one line naming the block; a copy whose
# block lacks a folder of src/ fails naming that folder.
srcdir=${srcdir:-.}
g=$srcdir/scripts/ci/deps-graph.sh
doc=$srcdir/docs/ARCHITECTURE.md
. "$srcdir/tests/lib.sh"
t_tmpdir t t_deps_order
T_MATCH=re
graph() { DEPS_ORDER_DOC=$1 sh "$g"; } # DOC: the script on src/ with that order
tree() { DEPS_ORDER_DOC=$doc sh "$g" "$t/src"; }
t_case "the document's order" 0 'all pointing down the order' graph "$doc"
sed '/^```deps-order/,/^```$/d' "$doc" >"$t/none.md"
t_case "no block" 1 'no ```deps-order block' graph "$t/none.md"
awk '/^```deps-order/ { on = 1 } on && /^```$/ { next } { print }' "$doc" >"$t/open.md"
t_case "unclosed block" 1 'no ```deps-order block' graph "$t/open.md"
sed '/^```deps-order/,/^```$/{/^staging$/d}' "$doc" >"$t/short.md"
t_case "a folder left out" 1 'folder src/staging is not in the order' graph "$t/short.md"
t_case "no document" 1 'cannot read the layer order' graph "$t/missing.md"
# the edges themselves, on a small tree: a header of a lower folder is fine, a header of a
# higher one fails naming the file and header; a header of the folder's own wins over a
# same-named one elsewhere
mkdir -p "$t/src/base" "$t/src/transport"
printf '#include "log.h"\n' >"$t/src/transport/conn.h"
printf '/* x */\n' >"$t/src/base/log.h"
printf '/* x */\n' >"$t/src/base/util.h"
printf '/* x */\n' >"$t/src/transport/util.h"
printf ' #  include "util.h" /* its own */\n#include <stdio.h>\n' >"$t/src/base/a.c"
t_case "a tree pointing down" 0 '1 edges between' tree
printf '#include "conn.h"\n' >>"$t/src/base/a.c"
t_case "an upward include" 1 'base/a.c:conn.h: src/base includes a header of src/transport, which is not below it' tree
# a subfolder (src/transport/loop) is its top folder's: its own headers and the folder's are
# fine, an upward include is caught like any other
sed -i '$d' "$t/src/base/a.c"
mkdir -p "$t/src/transport/loop" "$t/src/base/sub"
printf '/* x */\n' >"$t/src/transport/loop/lp.h"
printf '#include "lp.h"\n#include "conn.h"\n#include "log.h"\n' >"$t/src/transport/loop/lp.c"
t_case "a subfolder pointing down" 0 '1 edges between' tree
printf '#include "conn.h"\n' >"$t/src/base/sub/b.c"
t_case "a subfolder's upward include" 1 'base/sub/b.c:conn.h: src/base includes a header of src/transport, which is not below it' tree
# a header of a transport's own folder (src/transport/verbs) is its top folder's: the driver
# above may include it, a folder below may not
sed -i '$d' "$t/src/base/sub/b.c"
mkdir -p "$t/src/transport/verbs" "$t/src/driver"
printf '/* x */\n' >"$t/src/transport/verbs/verbs_api.h"
printf '#include "verbs_api.h"\n' >"$t/src/driver/d.c"
t_case "the driver includes a transport subfolder's header" 0 'all pointing down' tree
printf '#include "verbs_api.h"\n' >>"$t/src/base/sub/b.c"
t_case "a lower folder includes it" 1 'base/sub/b.c:verbs_api.h: src/base includes a header of src/transport, which is not below it' tree
exit $t_fail
