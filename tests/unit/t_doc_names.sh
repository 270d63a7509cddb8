#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/doc-names.sh: the code names of docs/ARCHITECTURE.md exist in src/; a copy
# that names a function, struct, array or macro src/ lacks (gdr_launch, the name the
# document used before gdr_main) fails with one line naming it; a missing document fails.
srcdir=${srcdir:-.}
c=$srcdir/scripts/ci/doc-names.sh
doc=$srcdir/docs/ARCHITECTURE.md
. "$srcdir/tests/lib.sh"
t_tmpdir t t_doc_names
names() { srcdir=$srcdir sh "$c" "$1"; } # DOC
t_case "the document" 0 "exist in src/" names "$doc"
for n in '`gdr_launch`' '`gdr_launch()`' '`struct gdr_launch`' '`gdr_launches[]`' '`GDR_LAUNCH`' '`gdr_launch_*`'; do
	{ cat "$doc"; echo "The mains call $n."; } >"$t/bad.md"
	t_case "names $n" 1 "names $n, which src/ does not define" names "$t/bad.md"
done
# a prototype alone is not a definition
{ cat "$doc"; echo 'See `gdr_doc_names_proto()`.'; } >"$t/proto.md"
mkdir -p "$t/tree/src/x" "$t/tree/docs"
echo 'int gdr_doc_names_proto(void);' >"$t/tree/src/x/a.h"
srcdir=$t/tree sh "$c" "$t/proto.md" >"$t/out" 2>&1 && { echo "FAIL a prototype counted as a definition"; t_fail=1; } || echo "ok a prototype alone"
t_case "no document" 1 'cannot read' names "$t/missing.md"
exit $t_fail
