#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/doc-names.sh: the code names of docs/ARCHITECTURE.md exist in src/; a copy
# that names a function, struct, array or macro src/ lacks (gdr_launch, the name the
# document used before gdr_main) fails with one line naming it; a missing document fails.
srcdir=${srcdir:-.}
c=$srcdir/scripts/ci/doc-names.sh
doc=$srcdir/docs/ARCHITECTURE.md
t=$(mktemp -d "${TMPDIR:-/tmp}/t_doc_names.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
fail=0
# case NAME WANT-RC WANT-TEXT DOC
case_() {
	srcdir=$srcdir sh "$c" "$4" >"$t/out" 2>&1
	rc=$?
	if [ "$rc" != "$2" ] || ! grep -qF -- "$3" "$t/out"; then
		echo "FAIL $1: rc $rc (want $2), output:"; sed 's/^/  /' "$t/out"; fail=1
	else
		echo "ok $1"
	fi
}
case_ "the document" 0 "exist in src/" "$doc"
for n in '`gdr_launch`' '`gdr_launch()`' '`struct gdr_launch`' '`gdr_launches[]`' '`GDR_LAUNCH`' '`gdr_launch_*`'; do
	{ cat "$doc"; echo "The mains call $n."; } >"$t/bad.md"
	case_ "names $n" 1 "names $n, which src/ does not define" "$t/bad.md"
done
# a prototype alone is not a definition
{ cat "$doc"; echo 'See `gdr_doc_names_proto()`.'; } >"$t/proto.md"
mkdir -p "$t/tree/src/x" "$t/tree/docs"
echo 'int gdr_doc_names_proto(void);' >"$t/tree/src/x/a.h"
srcdir=$t/tree sh "$c" "$t/proto.md" >"$t/out" 2>&1 && { echo "FAIL a prototype counted as a definition"; fail=1; } || echo "ok a prototype alone"
case_ "no document" 1 'cannot read' "$t/missing.md"
exit $fail
