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

# t_loop_pair NAME PROGRAM CLIENT-OPTIONS...: a server and a client of ./gdr_PROGRAM (run
# from the build folder) over --transport=loop on 127.0.0.1, each bounded (120 s, --timeout
# 20), on the port after $T_LOOP_PORT (counted up: set it once); the server with the words
# of $T_LOOP_SRV, both sides with those of $T_LOOP_BOTH (none by default). Outputs in
# $T_TMPDIR/NAME.s and NAME.c, the client's CSV in NAME.csv; exit statuses in t_rc_c, t_rc_s.
t_loop_pair() {
	_t_name=$1 _t_prog=./gdr_$2
	shift 2
	T_LOOP_PORT=$((T_LOOP_PORT + 1))
	# shellcheck disable=SC2086 # T_LOOP_BOTH, T_LOOP_SRV: words
	timeout 120 "$_t_prog" --transport=loop ${T_LOOP_BOTH:-} ${T_LOOP_SRV:-} -p $T_LOOP_PORT \
		--listen_timeout=60 --timeout=20 >"$T_TMPDIR/$_t_name.s" 2>&1 &
	_t_pid=$!
	# shellcheck disable=SC2086
	timeout 120 "$_t_prog" --transport=loop ${T_LOOP_BOTH:-} "$@" -p $T_LOOP_PORT \
		--connect_timeout=30 --timeout=20 --csv "$T_TMPDIR/$_t_name.csv" 127.0.0.1 \
		>"$T_TMPDIR/$_t_name.c" 2>&1
	t_rc_c=$?
	wait $_t_pid
	t_rc_s=$?
}

# t_loop_show NAME: both sides' output of t_loop_pair NAME, indented, with their exit status
t_loop_show() {
	echo "  client (exit $t_rc_c):"; sed 's/^/    /' "$T_TMPDIR/$1.c"
	echo "  server (exit $t_rc_s):"; sed 's/^/    /' "$T_TMPDIR/$1.s"
}

# t_loop_ok NAME: after t_loop_pair NAME, 0 when both sides exited 0; where this host cannot
# open the loop transport (qemu-user: no process_vm_readv), the script skips (exit 77);
# otherwise one FAIL line with both sides' output, t_fail=1, and 1
t_loop_ok() {
	if grep -q 'process_vm_readv: Function not implemented' "$T_TMPDIR/$1.c"; then
		echo "skip: this host cannot open the loop transport: $(tail -1 "$T_TMPDIR/$1.c")"
		exit 77
	fi
	[ "$t_rc_c" -eq 0 ] && [ "$t_rc_s" -eq 0 ] && return 0
	echo "FAIL $1: client exit $t_rc_c, server exit $t_rc_s"
	t_loop_show "$1"
	t_fail=1
	return 1
}
