#!/bin/sh
# SPDX-License-Identifier: MIT
# Pairs of source files that call each other (a.c uses a symbol of b.c and b.c
# one of a.c), from the objects of a build: nm's defined and undefined symbols.
# Usage: scripts/ci/file-loops.sh [BUILDDIR]   (exit 0 none, 1 some, printed)
set -u
dir=${1:-.}
objs=$(find "$dir/src" -name '*.o' 2>/dev/null | sort)
[ -n "$objs" ] || { echo "file-loops: no objects under $dir/src; build first" >&2; exit 1; }
# one nm for all the objects: "OBJECT:VALUE TYPE NAME" or "OBJECT: U NAME" a line
# shellcheck disable=SC2086 # objs: paths without blanks, one a word
nm -A $objs 2>/dev/null | awk -v pre="$dir/" '{
	c = index($0, ":"); f = substr($0, 1, c - 1); rest = substr($0, c + 1)
	if (substr(f, 1, length(pre)) == pre) f = substr(f, length(pre) + 1)
	n = split(rest, w, " ")
	if (n == 3 && w[2] ~ /^[TDBR]$/) print "D", w[3], f
	else if (n == 2 && w[1] == "U") print "U", w[2], f
}' | awk '
$1 == "D" { def[$2] = $3; next }
{ use[++n] = $2; by[n] = $3 }
END {
	for (i = 1; i <= n; i++)
		if ((use[i] in def) && def[use[i]] != by[i]) edge[by[i], def[use[i]]] = use[i]
	for (k in edge) {
		split(k, p, SUBSEP)
		if ((p[2], p[1]) in edge && p[1] < p[2]) {
			printf "file-loops: %s <-> %s (%s, %s)\n", p[1], p[2], edge[p[1], p[2]], edge[p[2], p[1]]
			bad = 1
		}
	}
	if (!bad) print "file-loops: no two files call each other"
	exit bad
}'
