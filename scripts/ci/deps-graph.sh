#!/bin/sh
# SPDX-License-Identifier: MIT
# The folder dependency graph of src/, from its #include "..." lines, checked
# against the intended order, read from the ```deps-order block of
# docs/ARCHITECTURE.md (or DEPS_ORDER_DOC): one layer per line, top first; a
# folder may include headers of its own folder and of any layer below its own,
# nothing else (no cycles, no upward or sideways edge).
# Usage: scripts/ci/deps-graph.sh [--dot] [SRCDIR]   (exit 0 ok, 1 on a violation)
set -u
dot=0
[ "${1:-}" = --dot ] && { dot=1; shift; }
src=${1:-$(dirname "$0")/../../src}
doc=${DEPS_ORDER_DOC:-$(dirname "$0")/../../docs/ARCHITECTURE.md}
[ -r "$doc" ] || { echo "deps-graph: $doc: cannot read the layer order" >&2; exit 1; }
# The lines between "```deps-order" and the next "```"; empty when the block is
# missing or unclosed.
ORDER=$(awk '/^```deps-order[[:space:]]*$/ { on = 1; n = 0; next }
	on && /^```/ { printf "%s", out; exit }
	on && NF { out = out (n++ ? "\n" : "") $0 }' "$doc")
[ -n "$ORDER" ] || {
	echo "deps-graph: $doc: no \`\`\`deps-order block (one layer of src/ folders per line, top first)" >&2
	exit 1
}

[ -d "$src" ] || { echo "deps-graph: $src: no such folder" >&2; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# "folder header-folder file" for every include of a header that lives in src/, in one
# pass: the files below src/'s folders (where a header is looked for: its own folder,
# else the first folder, in name order, that has it), then every #include "..." line.
# A file of a subfolder (src/transport/loop) counts as its top folder's (transport), and so
# does a header there included by its bare name (src/transport/verbs is on the include path).
export LC_ALL=C
{
	(cd "$src" && find . -mindepth 2 -path './*/*' \( -type f -o -type l \) | sed 's|^\./|F |')
	grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$src"/*/*.c "$src"/*/*.h \
		"$src"/*/*/*.c "$src"/*/*/*.h 2>/dev/null
} | awk -v src="$src/" '
$1 == "F" && !inc {
	file[$2] = 1
	fo = substr($2, 1, index($2, "/") - 1)
	rest = substr($2, index($2, "/") + 1)
	if (!(rest in owner) || fo < owner[rest]) owner[rest] = fo
	# a subfolder on the include path (src/transport/verbs) is found by the bare name too
	base = rest; sub(/.*\//, "", base)
	if (base != rest && (!(base in owner) || fo < owner[base])) owner[base] = fo
	next
}
{
	inc = 1
	f = substr($0, 1, index($0, ":") - 1)
	rel = substr(f, length(src) + 1)
	from = substr(rel, 1, index(rel, "/") - 1)
	h = substr($0, index($0, "\"") + 1)
	h = substr(h, 1, index(h, "\"") - 1)
	dir = rel; sub(/[^\/]*$/, "", dir)
	to = (dir h) in file || (from "/" h) in file ? from : h in owner ? owner[h] : ""
	if (to != "") print from, to, rel ":" h
}' >"$tmp"

awk -v order="$ORDER" -v dot="$dot" '
BEGIN {
	n = split(order, layer, "\n")
	for (i = 1; i <= n; i++) {
		m = split(layer[i], f, " ")
		for (j = 1; j <= m; j++) rank[f[j]] = i
	}
}
{
	from = $1; to = $2
	if (!(from in rank)) { print "deps-graph: folder src/" from " is not in the order (add it to the deps-order block of docs/ARCHITECTURE.md)"; bad = 1; next }
	if (from == to) next
	if (!((from, to) in seen)) { seen[from, to] = 1; edges[++ne] = from " -> " to }
	if (!(to in rank) || rank[to] <= rank[from]) {
		print "deps-graph: " $3 ": src/" from " includes a header of src/" to ", which is not below it"
		bad = 1
	}
}
END {
	if (dot) {
		print "digraph src {"
		for (i = 1; i <= ne; i++) { split(edges[i], e, " -> "); print "  \"" e[1] "\" -> \"" e[2] "\";" }
		print "}"
	} else if (!bad) {
		printf "deps-graph: %d edges between %d folders, all pointing down the order\n", ne, length(rank)
	}
	exit bad
}' "$tmp"
