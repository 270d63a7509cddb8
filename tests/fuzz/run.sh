#!/bin/sh
# SPDX-License-Identifier: MIT
# Fuzz the exchange message codec, every message type (fuzz_xchg.c), with
# libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer, built straight
# from the sources with clang (the codec, and the option table that a HELLO's
# fields are checked against).
#
#   tests/fuzz/run.sh [SECONDS]      run for SECONDS (default 20)
#
# A longer run before a release (8 hours, 8 processes, corpus kept):
#   FUZZ_CORPUS=$HOME/gdr-fuzz-corpus FUZZ_JOBS=8 tests/fuzz/run.sh 28800
# FUZZ_LOG=FILE keeps libFuzzer's whole output.
# Exit: 0 no crash, 1 crash or build failure (the crashing input is saved as
# ./crash-* and named on stderr), 77 clang with libFuzzer is not available.
set -u

secs=${1:-20}
case $secs in '' | *[!0-9]*) echo "run.sh: SECONDS must be a whole number, not '$secs'" >&2; exit 1 ;; esac
here=$(cd "$(dirname "$0")" && pwd)
src=$here/../../src
cc=${CLANG:-clang}
jobs=${FUZZ_JOBS:-1}
work=$(mktemp -d "${TMPDIR:-/tmp}/gdr-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM

flags="-std=gnu11 -g -O1 -DPACKAGE_VERSION=\"fuzz\" -I$src/oob -I$src/options -I$src/base -I$src/kv"
code="$src/oob/xchg.c $src/options/*.c $src/kv/*.c $src/base/log.c"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' >"$work/probe.c"
if ! "$cc" -fsanitize=fuzzer "$work/probe.c" -o "$work/probe" 2>/dev/null; then
	echo "run.sh: SKIP: '$cc -fsanitize=fuzzer' does not link (install clang and libclang-rt-dev)" >&2
	exit 77
fi
"$cc" $flags -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	"$here/fuzz_xchg.c" $code -lm -o "$work/fuzz_xchg" || exit 1
"$cc" $flags -DGDR_FUZZ_GEN "$here/fuzz_xchg.c" "$src/oob/xchg.c" -lm -o "$work/gen" || exit 1

corpus=${FUZZ_CORPUS:-$work/corpus}
mkdir -p "$corpus" && "$work/gen" "$corpus" || exit 1

par=
[ "$jobs" -gt 1 ] && par="-fork=$jobs" # workers share the corpus, each prints its stats
"$work/fuzz_xchg" -max_total_time="$secs" -max_len=9000 -print_final_stats=1 $par \
	-artifact_prefix="$PWD/" "$corpus" >"$work/log" 2>&1
rc=$?
[ -n "${FUZZ_LOG:-}" ] && cp "$work/log" "$FUZZ_LOG"
execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | awk '{s += $1} END {print s + 0}')
if [ $rc -ne 0 ]; then
	tail -n 40 "$work/log" >&2
	echo "run.sh: FAIL: the fuzzer found a crash after $execs executions (input saved as ./crash-*)" >&2
	exit 1
fi
# libFuzzer's last status line: "#N DONE cov: EDGES ft: FEATURES corp: ..."
cov=$(grep -E '^#[0-9]+.*cov: ' "$work/log" | tail -n 1 | sed -n 's/.*\(cov: [0-9]* ft: [0-9]*\).*/\1/p')
echo "fuzz_xchg: $execs executions in $secs s, no crash ($(ls "$corpus" | wc -l) corpus entries${cov:+, $cov})"
