#!/bin/sh
# SPDX-License-Identifier: MIT
# No two scripts/*/*.py import each other (issue 24 item 6: plot.py <-> clustercsv.py was a
# circle through a lazy import): every "import X" / "from X import", at any indentation,
# that names another script of the same folder (Python imports from its own folder) is an edge; a pair of opposite edges fails.
srcdir=${srcdir:-.}
edges=$(for f in "$srcdir"/scripts/*/*.py; do
	d=$(dirname "$f")
	a=${d##*/}/$(basename "$f" .py)
	sed -n 's/^[[:space:]]*\(import\|from\)[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\).*/\2/p' "$f" |
		sort -u | while read -r b; do
			[ "${d##*/}/$b" != "$a" ] && [ -f "$d/$b.py" ] && echo "$a ${d##*/}/$b"
		done
done)
[ -n "$edges" ] || { echo "FAIL: no import between scripts/*/*.py found (the check reads nothing)"; exit 1; }
fail=0
echo "$edges" | while read -r a b; do
	if echo "$edges" | grep -qx "$b $a"; then
		echo "FAIL: scripts/$a.py and scripts/$b.py import each other"
		exit 1
	fi
done || fail=1
[ $fail = 0 ] && echo "ok: no import circle among scripts/*/*.py ($(echo "$edges" | tr '\n' ';'))"
exit $fail
