#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/lib.sh itself: t_case says ok only when both the status and the text are as wanted
# (fixed string, or a regex with T_MATCH=re), FAIL and t_fail=1 otherwise; t_tmpdir's folder
# is gone when the script exits.
srcdir=${srcdir:-.}
. "$srcdir/tests/lib.sh"
t_tmpdir t t_lib
bad=0
want() { # WANT-WORD WANT-T_FAIL NAME: the last t_case's first word and t_fail
	first=$(head -1 "$t/said" | cut -d' ' -f1)
	[ "$first" = "$1" ] && [ "$t_fail" = "$2" ] || { echo "BAD $3: said '$first', t_fail $t_fail"; bad=1; }
	t_fail=0
}
t_case "both right" 3 "a.c" sh -c 'echo "x a.c y"; exit 3' >"$t/said"; want ok 0 "both right"
t_case "wrong status" 0 "a.c" sh -c 'echo "x a.c y"; exit 3' >"$t/said"; want FAIL 1 "wrong status"
t_case "text missing" 3 "b.c" sh -c 'echo "x a.c y"; exit 3' >"$t/said"; want FAIL 1 "text missing"
t_case "a fixed string" 3 "a.c" sh -c 'echo "x abc y"; exit 3' >"$t/said"; want FAIL 1 "'.' read as a regex"
T_MATCH=re t_case "a regex" 3 "a.c" sh -c 'echo "x abc y"; exit 3' >"$t/said"; want ok 0 "T_MATCH=re"
# the folder is removed at exit, also for a script that fails
d=$(sh -c '. "$1/tests/lib.sh"; t_tmpdir x t_lib_inner; echo "$x"; exit 1' sh "$srcdir")
[ -n "$d" ] && [ ! -e "$d" ] || { echo "BAD the folder $d is left"; bad=1; }
[ $bad = 0 ] && echo "t_lib.sh: passed"
exit $bad
