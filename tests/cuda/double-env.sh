# Sourced by the *_double.sh tests: point the CUDA loader at the driver double built by
# `make check` (tests/cuda_double), with none of the double's fault switches inherited.
GDR_LIBCUDA=$PWD/tests/cuda_double/libcuda.so.1
if [ ! -f "$GDR_LIBCUDA" ]; then
	echo "error: $GDR_LIBCUDA not built (make check builds it)" >&2
	exit 99
fi
export GDR_LIBCUDA
unset GDR_DOUBLE_FAIL GDR_DOUBLE_UNORDERED GDR_DOUBLE_DEVICES GDR_DOUBLE_FIXTURE \
	GDR_DOUBLE_VERSION GDR_DOUBLE_ORDERING
