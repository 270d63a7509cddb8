#!/bin/sh
# SPDX-License-Identifier: MIT
# Line and branch coverage of the exchange codec (src/oob/xchg.c) reached by a
# fuzz corpus: the fuzz target built with clang's source coverage runs every input
# of CORPUS once (libFuzzer -runs=0), then llvm-cov reports.
#
#   tests/fuzz/coverage.sh CORPUS      (e.g. the FUZZ_CORPUS of a run.sh run)
# Exit: 0 report printed, 1 failure, 77 clang/llvm-cov not available.
set -u
[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: tests/fuzz/coverage.sh CORPUS-DIR" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../src
cc=${CLANG:-clang}
ver=$("$cc" --version | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1)
prof=$(command -v llvm-profdata-"$ver" || command -v llvm-profdata)
cov=$(command -v llvm-cov-"$ver" || command -v llvm-cov)
[ -n "$prof" ] && [ -n "$cov" ] || { echo "coverage.sh: SKIP: llvm-profdata/llvm-cov not found" >&2; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/gdr-fuzzcov.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
"$cc" -std=gnu11 -O1 -DPACKAGE_VERSION=\"fuzz\" -I"$src/oob" -I"$src/options" -I"$src/base" \
	-fsanitize=fuzzer -fprofile-instr-generate -fcoverage-mapping \
	"$here/fuzz_xchg.c" "$src/oob/xchg.c" "$src"/options/*.c "$src/base/log.c" -lm \
	-o "$work/fz" || exit 1
LLVM_PROFILE_FILE="$work/fz.profraw" "$work/fz" -runs=0 "$1" >"$work/log" 2>&1 || {
	tail -n 20 "$work/log" >&2
	exit 1
}
"$prof" merge -sparse "$work/fz.profraw" -o "$work/fz.profdata" || exit 1
echo "corpus: $(ls "$1" | wc -l) inputs"
"$cov" report "$work/fz" -instr-profile="$work/fz.profdata" "$src/oob/xchg.c" "$here/fuzz_xchg.c"
