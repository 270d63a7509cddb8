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

# the backticked spans of the documents, one per line
spans() { grep -o '`[^`]*`' "$@" | sed 's/^[^`]*`//; s/`$//'; }

# One awk pass per document: each span's regex (below), then every code line is tried
# against the names not yet found that it contains literally (the part before a wildcard;
# one alternation of those parts passes over the lines that hold none).
# A name as an extended regex: `<name>` is any word, a trailing * at least one more character.
check() { # DOC SPANS: the missing names on stderr; prints the count of names checked
	awk -v doc="$1" -v spans="$2" -v code="$t/code" -v mk="$t/mk" '
	function pat(x) {
		gsub(/<[a-z]*>/, "[A-Za-z0-9_]+", x)
		sub(/\*$/, "[A-Za-z0-9_]+", x)
		return x
	}
	function lit(x) { sub(/[<*(\[].*/, "", x); return x }
	BEGIN {
		nw = "[^A-Za-z0-9_]"
		while ((getline s <spans) > 0) {
			if (s ~ /[^]A-Za-z0-9_<>*()[ ]/) continue
			if (s ~ /^struct /) {
				x = substr(s, 8); p = pat(x); r = "struct " p " \\{"
			} else if (s ~ /\(\)$/) {
				x = substr(s, 1, length(s) - 2); p = pat(x)
				# a definition: the line starts with its type, names it, and opens no prototype
				r = "^[A-Za-z].*" nw p "\\(.*[^;]$|^#define " p "\\("
			} else if (s ~ /\[\]$/) {
				x = substr(s, 1, length(s) - 2); p = pat(x)
				r = nw p "\\[[^]]*\\] *="
			} else if (s ~ /^(gdr_|GDR_)/) {
				if (s ~ /[^A-Za-z0-9_<>*]/) continue
				x = s; p = pat(x)
				r = "^[A-Za-z].*" nw p "\\(.*[^;]$|^#define " p "(" nw "|$)|^[[:space:]]+" p \
				    "( = [^;]*)?,?$|^[A-Za-z].*" nw p "(\\[[^]]*\\])? =|^[A-Za-z][A-Za-z0-9_ ]*" \
				    nw p "\\( *[A-Za-z0-9_]* *\\)$"
			} else
				continue
			n++; name[n] = s; re[n] = r; lt[n] = lit(x); mkre[n] = ""
			if (s ~ /^gdr_/) mkre[n] = "(^|[[:space:]])" p "( |$)"
		}
		left = n
		any = ""
		for (i = 1; i <= n; i++)
			any = lt[i] !~ /^[A-Za-z0-9_ ]+$/ || any == "^" ? "^" : any (any == "" ? "" : "|") lt[i]
		while (left && (getline line <code) > 0)
			if (line ~ any)
				for (i = 1; i <= n; i++)
					if (!found[i] && (lt[i] == "" || index(line, lt[i])) && line ~ re[i]) {
						found[i] = 1
						left--
					}
		while (left && (getline line <mk) > 0)
			for (i = 1; i <= n; i++)
				if (!found[i] && mkre[i] != "" && line ~ mkre[i]) { found[i] = 1; left-- }
		for (i = 1; i <= n; i++)
			if (!found[i])
				printf "doc-names.sh: %s names `%s`, which src/ does not define\n", doc, name[i] >"/dev/stderr"
		print n
		exit (left > 0)
	}'
}

fail=0
n=0
for doc; do
	[ -r "$doc" ] || { echo "doc-names.sh: error: cannot read $doc" >&2; exit 1; }
	spans "$doc" | sort -u >"$t/spans"
	k=$(check "$doc" "$t/spans") || fail=1
	n=$((n + k))
done
[ $fail = 0 ] && echo "doc-names.sh: the $n code names of $* exist in src/"
exit $fail
