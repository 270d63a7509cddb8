#!/bin/bash
# SPDX-License-Identifier: MIT
#
# tests/hostile/run.sh - the hostile-peer suite (peer.py) against the gdr binaries of
# HOSTILE_BIN (the sanitizer build in scripts/ci/test.sh), inside the Soft-RoCE VM
# (scripts/ci/rxe-vm.sh runs it) or on a host with an RDMA device.
#   HOSTILE_BIN   folder of the gdr_* binaries (required)
#   HOSTILE_OUT   where process outputs go (default: $RXE_VM_OUT or ./hostile-out)
#   HOSTILE_FILTER, HOSTILE_DEV, HOSTILE_ADDR, HOSTILE_PORT: see peer.py
# Exit: peer.py's (0 every scenario passed, 1 otherwise).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${HOSTILE_BIN:?set HOSTILE_BIN to the folder of the gdr binaries}
out=${HOSTILE_OUT:-${RXE_VM_OUT:-$PWD/hostile-out}}
mkdir -p "$out" || exit 1
ulimit -l unlimited 2>/dev/null
ulimit -c 0
# a small quarantine, so that the memory bound measures the server and not ASan;
# every report fails the suite (peer.py looks for them in the outputs)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=16:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec python3 "$here/peer.py" "$bin" "$out"
