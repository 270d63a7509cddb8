# Sourced by gdr_stage_bw's script tests: $bin, a scratch folder $tmp removed at exit with
# $err and $out in it, no() to record a failure in $fail, run() and bad() to check a run.
# shellcheck shell=sh disable=SC2034 # the variables are for the sourcing script
bin=./gdr_stage_bw
fail=0
. "${srcdir:-.}/tests/lib.sh"
t_tmpdir tmp stage
err=$tmp/err out=$tmp/out

no() { echo "FAIL: $*" >&2; fail=1; }

# $1 = expected exit status, rest = arguments; stdout -> $out, stderr -> $err
run() {
	want=$1; shift
	timeout 60 "$bin" "$@" >"$out" 2>"$err"; rc=$?
	[ "$rc" = "$want" ] || no "gdr_stage_bw $*: exit $rc, want $want ($(cat "$err"))"
}

# a usage error: exit 3 (base/exitcode.h), exactly one line on stderr, prefixed, containing $1
bad() {
	want_rc=3 one_line "$@"
}

# could not run (no driver, no such GPU, a copier that cannot open): exit 2, one line
cannot() {
	want_rc=2 one_line "$@"
}

one_line() {
	pat=$1; shift
	run "$want_rc" "$@"
	[ "$(wc -l <"$err")" -eq 1 ] || no "gdr_stage_bw $*: not one line: $(cat "$err")"
	grep -q "^gdr_stage_bw: error: .*$pat" "$err" || no "gdr_stage_bw $*: '$(cat "$err")' lacks '$pat'"
}
