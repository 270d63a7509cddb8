#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/doc-names.sh [DOC...]: every code name a document mentions in backticks exists
# in src/. Checked: `name()` (a function defined in a .c/.cu file), `struct name` (defined
# with its braces), `name[]` (an array defined with =), and bare `gdr_*`/`GDR_*` names
# (a function, a macro, an enum member, a variable or, for gdr_*, a program of a .mk file).
# `x_*` stands for at least one name that begins with x_; `<name>` for any word.
# Default document: docs/ARCHITECTURE.md. Exit 0 all found, 1 with one line per missing name.
srcdir=${srcdir:-$(dirname "$0")/../..}
src=$srcdir/src
[ $# -gt 0 ] || set -- "$srcdir/docs/ARCHITECTURE.md"
[ -d "$src" ] || { echo "doc-names.sh: error: no folder $src" >&2; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/doc-names.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
find "$src" -name '*.[ch]' -o -name '*.cu' | sort | xargs cat >"$t/code"
find "$src" -name '*.mk' | sort | xargs cat >"$t/mk"

# a name as an extended regex: `<name>` is any word, a trailing * at least one more character
pat() { printf '%s\n' "$1" | sed -e 's/<[a-z]*>/[A-Za-z0-9_]+/g' -e 's/\*$/[A-Za-z0-9_]+/'; }

# the backticked spans of the documents, one per line
spans() { grep -o '`[^`]*`' "$@" | sed 's/^[^`]*`//; s/`$//'; }

fail=0
n=0
for doc; do
	[ -r "$doc" ] || { echo "doc-names.sh: error: cannot read $doc" >&2; exit 1; }
	spans "$doc" | sort -u >"$t/spans"
	while IFS= read -r s; do
		case $s in
		*[!A-Za-z0-9_\<\>*\(\)\[\]\ ]*) continue ;;
		struct\ *)
			p=$(pat "${s#struct }")
			re="struct $p \{" ;;
		*\(\))
			p=$(pat "${s%??}")
			# a definition: the line starts with its type, names it, and opens no prototype
			re="^[A-Za-z].*[^A-Za-z0-9_]$p\(.*[^;]\$|^#define $p\(" ;;
		*\[\])
			p=$(pat "${s%??}")
			re="[^A-Za-z0-9_]$p\[[^]]*\] *=" ;;
		gdr_* | GDR_*)
			case $s in *[!A-Za-z0-9_\<\>*]*) continue ;; esac
			p=$(pat "$s")
			re="^[A-Za-z].*[^A-Za-z0-9_]$p\(.*[^;]\$|^#define $p([^A-Za-z0-9_]|\$)|^[[:space:]]+$p( = [^;]*)?,?\$|^[A-Za-z].*[^A-Za-z0-9_]$p(\[[^]]*\])? =|^[A-Za-z][A-Za-z0-9_ ]*[^A-Za-z0-9_]$p\( *[A-Za-z0-9_]* *\)\$" ;;
		*) continue ;;
		esac
		n=$((n + 1))
		if grep -Eq -- "$re" "$t/code"; then
			continue
		fi
		case $s in
		gdr_*) grep -Eq -- "(^|[[:space:]])${p}( |\$)" "$t/mk" && continue ;;
		esac
		echo "doc-names.sh: $doc names \`$s\`, which src/ does not define" >&2
		fail=1
	done <"$t/spans"
done
[ $fail = 0 ] && echo "doc-names.sh: the $n code names of $* exist in src/"
exit $fail
