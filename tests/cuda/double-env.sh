# Sourced by the *_double.sh tests: point the CUDA loader at the driver double built by
# `make check` (tests/cuda_double), with none of the double's fault switches inherited.
GDR_LIBCUDA=$PWD/tests/cuda_double/libcuda.so.1
if [ ! -f "$GDR_LIBCUDA" ]; then
	echo "error: $GDR_LIBCUDA not built (make check builds it)" >&2
	exit 99
fi
export GDR_LIBCUDA
unset GDR_DOUBLE_FAIL GDR_DOUBLE_UNORDERED GDR_DOUBLE_DEVICES GDR_DOUBLE_FIXTURE \
	GDR_DOUBLE_VERSION GDR_DOUBLE_ORDERING GDR_DOUBLE_SLICE_US GDR_DOUBLE_MPS \
	GDR_DOUBLE_TEAR_US GDR_DOUBLE_BATCHES

# double_expect FAIL RC WHAT CMD REGEX...: CMD (words split) run with GDR_DOUBLE_FAIL=FAIL must
# exit RC and print on stderr exactly one line matching each REGEX and nothing else; its stdout
# is shown, then its stderr and WHAT. Otherwise the test fails (exit 1) saying how.
double_expect()
{
	de_fail=$1 de_rc=$2 de_what=$3 de_cmd=$4
	shift 4
	de_out=$(mktemp) || exit 99
	de_err=$(GDR_DOUBLE_FAIL=$de_fail $de_cmd 2>&1 >"$de_out")
	de_got=$?
	cat "$de_out"
	rm -f "$de_out"
	de_bad=$([ $de_got -eq "$de_rc" ] || echo "exit $de_got, not $de_rc")
	for de_re in "$@"; do
		[ "$(echo "$de_err" | grep -c "$de_re")" -eq 1 ] ||
			de_bad="$de_bad, not one line /$de_re/"
	done
	[ "$(echo "$de_err" | grep -c .)" -eq $# ] ||
		de_bad="$de_bad, $(echo "$de_err" | grep -c .) lines"
	if [ -n "$de_bad" ]; then
		echo "$de_err"
		echo "FAIL: $de_cmd with GDR_DOUBLE_FAIL=$de_fail: $de_bad"
		exit 1
	fi
	[ -z "$de_err" ] || echo "$de_err" | sed 's/^/  stderr: /'
	echo "  $de_what"
}
