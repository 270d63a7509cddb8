#!/bin/sh
# SPDX-License-Identifier: MIT
# The folder dependency graph of src/, from its #include "..." lines, checked
# against the intended order (docs/ARCHITECTURE.md). Each line of ORDER is one
# layer, top first; a folder may include headers of its own folder and of any
# layer below its own, nothing else (no cycles, no upward or sideways edge).
# Usage: scripts/deps-graph.sh [--dot] [SRCDIR]   (exit 0 ok, 1 on a violation)
set -u
dot=0
[ "${1:-}" = --dot ] && { dot=1; shift; }
src=${1:-$(dirname "$0")/../src}
ORDER='bin stage doctor
launch
cluster
driver
engine
staging
transport
oob
memory
report
measure
options
sysinfo
base'

[ -d "$src" ] || { echo "deps-graph: $src: no such folder" >&2; exit 1; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# "folder header-folder file" for every include of a header that lives in src/
for f in "$src"/*/*.c "$src"/*/*.h; do
	from=$(basename "$(dirname "$f")")
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" |
		while read -r h; do
			if [ -e "$src/$from/$h" ]; then
				to=$from
			else
				to=$(cd "$src" && ls -d */"$h" 2>/dev/null | head -1 | cut -d/ -f1)
			fi
			[ -n "$to" ] && echo "$from $to ${f#"$src"/}:$h"
		done
done >"$tmp"

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
	if (!(from in rank)) { print "deps-graph: folder src/" from " is not in the order (add it to ORDER and to docs/ARCHITECTURE.md)"; bad = 1; next }
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
