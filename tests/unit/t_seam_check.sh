#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/seam-check.sh: the real tree passes; on a small tree, a verbs call or
# constant in src/engine or src/staging fails naming the file and line, an #include
# of the verbs header does not, a name that only ends in ibv_ does not, and a tree
# without the folders fails saying so.
srcdir=${srcdir:-.}
s=$srcdir/scripts/ci/seam-check.sh
. "$srcdir/tests/lib.sh"
t_tmpdir t t_seam_check
check() { sh "$s" "$@"; }
t_case "the real tree" 0 'use no verbs identifier' check "$srcdir/src"
mkdir -p "$t/src/engine" "$t/src/staging"
printf '#include <infiniband/verbs.h>\n  # include "verbs_xp.h"\nint my_ibv_count;\n' >"$t/src/engine/a.c"
printf '/* x */\n' >"$t/src/staging/b.h"
t_case "includes and look-alikes" 0 'use no verbs identifier' check "$t/src"
printf 'int f(void)\n{\n\treturn IBV_SEND_INLINE;\n}\n' >"$t/src/staging/b.h"
t_case "a constant in staging" 1 'seam-check: staging/b.h:3:	return IBV_SEND_INLINE;' check "$t/src"
printf '/* x */\n' >"$t/src/staging/b.h"
printf 'void g(struct ibv_wc *wc);\n' >>"$t/src/engine/a.c"
t_case "a type in the engine" 1 'seam-check: engine/a.c:4:void g(struct ibv_wc' check "$t/src"
rm -r "$t/src/staging"
t_case "no staging folder" 1 'no such folder' check "$t/src"
exit $t_fail
