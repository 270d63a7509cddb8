#!/bin/bash
# lead's device call B, 2026-11-29: the time-slicing rule on the real driver
# (scripts/gpu/timeslice-check.sh), the conformance suite (scripts/gpu/conformance.sh), and the
# gpu-proxy null-NIC leg against its anchor after the descriptor change (proxy-null.sh, 3 rounds;
# the probes carried in .carry/probes).
set -u
src=$PWD o=${OUT:-/tmp/out}
mkdir -p "$o"
OUT=$o timeout 200 bash scripts/gpu/timeslice-check.sh >/dev/null 2>&1; echo "timeslice-check: exit $?"
OUT=$o CONF_TIMEOUT=90 timeout 200 bash scripts/gpu/conformance.sh >/dev/null 2>&1; echo "conformance: exit $?"
. scripts/gpu/env.sh
cd /tmp/b-ts || exit 1
make -j16 gdr_proxy_bw >/dev/null 2>&1
{ echo "# date: $(date -u +%FT%TZ); commit: $GDR_COMMIT"
  echo "# command: ROUNDS=3 PROBES=.carry/probes scripts/gpu/proxy-null.sh gdr_proxy_bw 20000"
  ROUNDS=3 PROBES=$src/.carry/probes timeout 240 bash "$src/scripts/gpu/proxy-null.sh" ./gdr_proxy_bw 20000; echo "exit $?"; } >"$o/proxy-null.txt" 2>&1
grep -E '^(==|handoff_us|ping,)' "$o/timeslice.txt"; grep -v '^   ' "$o/conformance.txt" | grep -E 'rule|#'; tail -14 "$o/proxy-null.txt"
