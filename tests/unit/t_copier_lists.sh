#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/copier-lists.sh: src/ lists the copiers once (options/copier_names.h); a copy of
# src/ given back one of the parallel lists main had before (the --stage_copy words, the
# name switch, an enum, an X list) fails naming the file and line; no list file fails.
srcdir=${srcdir:-.}
c=$srcdir/scripts/ci/copier-lists.sh
. "$srcdir/tests/lib.sh"
t_tmpdir t t_copier_lists
t_case "src/" 0 "listed once" sh "$c" "$srcdir/src"
n=0
# one copy of src/; each case appends its line to a file and puts the file back after
cp -R "$srcdir/src" "$t/src" && chmod -R u+w "$t/src" || exit 1
while IFS='|' read -r file line; do
	n=$((n + 1))
	cp "$t/src/$file" "$t/keep"
	printf '%s\n' "$line" >>"$t/src/$file"
	t_case "a list in $file: $line" 1 "$file:" sh "$c" "$t/src"
	cp "$t/keep" "$t/src/$file"
done <<'LISTS'
options/opts_table.c|static const char *const w[] = {"auto", "ce", "gdrcopy", "sm", NULL};
staging/choice.c|	return "gdrcopy";
staging/copier.h|	GDR_COPIER_SM,
stagebw/stage_copy.c|static const int k[] = {GDR_COPIER_CE, GDR_COPIER_GDRCOPY};
staging/copier.c|	X(memcpy)
LISTS
[ $n = 5 ] || { echo "FAIL: $n cases read"; t_fail=1; }
rm -rf "$t/src" && mkdir -p "$t/src/options"
t_case "no list file" 1 "cannot read" sh "$c" "$t/src"
exit $t_fail
