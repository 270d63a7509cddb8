# Sourced by the gdrcopy *_double.sh tests, after double-env.sh: point the gdrcopy loader at
# the gdrcopy double built by `make check` (tests/gdrcopy_double), no fault switch inherited.
GDR_LIBGDRAPI=$PWD/tests/gdrcopy_double/libgdrapi.so.2
if [ ! -f "$GDR_LIBGDRAPI" ]; then
	echo "error: $GDR_LIBGDRAPI not built (make check builds it)" >&2
	exit 99
fi
export GDR_LIBGDRAPI
unset GDR_GDRCOPY_DOUBLE_FAIL
