#!/bin/bash
# SPDX-License-Identifier: MIT
#
# scripts/ci/static.sh BUILDDIR - static analysis of src/ (the `static` step of scripts/ci/test.sh):
#   cppcheck   warning, portability and performance checks on every src/ file
#   analyzer   gcc -fanalyzer: a build of src/ in BUILDDIR (configure CFLAGS=-fanalyzer
#              --enable-werror), so that every analyzer finding fails the build
# A finding is fixed, or suppressed where it is with the reason beside it
# (cppcheck-suppress comments; #pragma GCC diagnostic for the analyzer).
# Environment: TEST_JOBS (make -j, default: number of CPUs).
# Exit: 0 no finding, 1 findings (listed), 2 usage or a tool missing.
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
[[ $# -eq 1 ]] || {
	echo "usage: scripts/ci/static.sh BUILDDIR" >&2
	exit 2
}
command -v cppcheck >/dev/null || {
	echo "static: cppcheck not found: install it (scripts/ci/deps.sh check)" >&2
	exit 2
}
fail=0
incs=()
for d in "$src"/src/*/ "$src"/src/transport/verbs/; do incs+=("-I$d"); done # GDR_SRC_DIRS
t0=$SECONDS
if cppcheck -q --std=c11 --enable=warning,portability,performance --inline-suppr \
	--error-exitcode=1 "${incs[@]}" -j "${TEST_JOBS:-$(nproc)}" "$src/src"; then
	echo "static: cppcheck: no finding ($((SECONDS - t0)) s)"
else
	echo "static: cppcheck: findings above"
	fail=1
fi

t0=$SECONDS
mkdir -p "$1" && cd "$1" || exit 2
if "$src/configure" -q --enable-werror CFLAGS="-O1 -g -fanalyzer" >configure.log 2>&1 &&
	make -j"${TEST_JOBS:-$(nproc)}" -k >make.log 2>&1; then
	echo "static: gcc -fanalyzer: no finding ($((SECONDS - t0)) s)"
else
	grep -E 'error:|warning:' configure.log make.log
	echo "static: gcc -fanalyzer: findings above (whole output: $PWD/make.log)"
	fail=1
fi
exit $fail
