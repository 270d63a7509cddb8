# SPDX-License-Identifier: MIT
# tests/lib.sh: what the shell tests share. Source it after setting srcdir:
#   srcdir=${srcdir:-.}
#   . "$srcdir/tests/lib.sh"
# (POSIX sh; names begin with t_ so a test's own variables stay its own.)

# t_tmpdir VAR [NAME]: a new folder NAME.XXXXXX under $TMPDIR (or /tmp) into VAR,
# removed when the script exits (or is interrupted). One per script.
t_tmpdir() {
	T_TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/${2:-gdrperf-test}.XXXXXX") ||
		{ echo "$0: cannot make a temporary folder" >&2; exit 1; }
	eval "$1=\$T_TMPDIR"
	trap 'rm -rf "$T_TMPDIR"' EXIT
	trap 'rm -rf "$T_TMPDIR"; exit 130' INT TERM
}

# t_case NAME WANT-RC WANT-TEXT COMMAND...: run COMMAND (stdout and stderr into
# $T_TMPDIR/out); print "ok NAME", or "FAIL NAME" with the output and set t_fail=1, when
# its exit status is not WANT-RC or its output lacks WANT-TEXT (a fixed string; with
# T_MATCH=re a basic regular expression).
t_fail=0
t_case() {
	_t_name=$1 _t_rc=$2 _t_text=$3
	shift 3
	"$@" >"$T_TMPDIR/out" 2>&1
	_t_got=$?
	if [ "${T_MATCH:-}" = re ]; then
		grep -q -- "$_t_text" "$T_TMPDIR/out"
	else
		grep -qF -- "$_t_text" "$T_TMPDIR/out"
	fi
	if [ $? != 0 ] || [ "$_t_got" != "$_t_rc" ]; then
		echo "FAIL $_t_name: rc $_t_got (want $_t_rc), output:"
		sed 's/^/  /' "$T_TMPDIR/out"
		t_fail=1
	else
		echo "ok $_t_name"
	fi
}
