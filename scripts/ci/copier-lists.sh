#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/copier-lists.sh [SRC]: the staging copiers are listed once, in
# src/options/copier_names.h (GDR_COPIERS); everything else derives from it. Fails, one
# line each, on a second list anywhere else in SRC (default src/): a line holding two or
# more copier names as strings ("ce", "gdrcopy"), a name switch (return "sm";), or an
# initializer or enum of GDR_COPIER_<NAME> values (two on a line, or one alone on its line),
# or an X(name) line of another X-macro list.
srcdir=${srcdir:-$(dirname "$0")/../..}
src=${1:-$srcdir/src}
list=$src/options/copier_names.h
[ -r "$list" ] || { echo "copier-lists.sh: error: cannot read $list" >&2; exit 1; }
names=$(sed -n 's/^[[:space:]]*X(\([a-z0-9_]*\), *[A-Z0-9_]*).*/\1/p' "$list" | tr '\n' '|')
names=${names%|}
[ -n "$names" ] || { echo "copier-lists.sh: error: no X(name, NAME) line in $list" >&2; exit 1; }
upper=$(printf '%s' "$names" | tr 'a-z' 'A-Z')
str="\"($names)\""
kind="GDR_COPIER_($upper)"
# code only: one-line comments and the inner lines of block comments are blanked first;
# one awk over every file (the regex from the environment, as grep -E would read it)
re="${str}[^\"]*$str|return $str;|^[[:space:]]*X\\(($names)[,)]|$kind,[[:space:]]*$kind|^[[:space:]]*$kind,?[[:space:]]*\$"
hits=$(find "$src" -name '*.[ch]' ! -path "$list" | sort | RE=$re xargs -r awk '
{
	l = $0
	gsub(/\/\*.*\*\//, "", l)
	sub(/^[[:space:]]*\*.*/, "", l)
	sub(/\/\/.*/, "", l)
	if (l ~ ENVIRON["RE"]) print FILENAME ":" FNR ":" l
}')
if [ -n "$hits" ]; then
	printf '%s\n' "$hits" | sed 's/^/copier-lists.sh: a second list of copier names (derive it from GDR_COPIERS, options\/copier_names.h): /' >&2
	exit 1
fi
echo "copier-lists.sh: the copiers ($names) are listed once, in options/copier_names.h"
