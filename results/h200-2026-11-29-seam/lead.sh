#!/bin/bash
# lead's device call, 2026-11-29 (session 2): main after the transport seam's first step (issue
# 45) on one H200 with the real driver: make -j16 check; the persistent kernels' one host side
# (scripts/gpu/gpukern-check.sh); memory exports (scripts/gpu/export-check.sh); the sm copier
# and the gpu-proxy null-NIC leg against their anchors (sm-anchor.sh, proxy-null.sh, 3 rounds
# each; the probes carried in .carry/probes); the conformance suite (scripts/gpu/conformance.sh).
set -u
src=$PWD o=${OUT:-/tmp/out} b=/tmp/b-seam
# the build and make check with the real driver into $o/check.txt (lead_hdr: the header)
bash scripts/gpu/lead-check.sh "${GDR_COMMIT:-unknown}" "$o" "$b" 200
. scripts/gpu/lead-check.sh
. scripts/gpu/env.sh
OUT=$o timeout 150 bash scripts/gpu/gpukern-check.sh >/dev/null 2>&1; echo "gpukern-check: exit $?"
OUT=$o timeout 90 bash scripts/gpu/export-check.sh >/dev/null 2>&1; echo "export-check: exit $?"
cd "$b" && make -j16 tests/cuda/sm_bench gdr_proxy_bw >/dev/null 2>&1
{ lead_hdr "ROUNDS=3 PROBES=.carry/probes scripts/gpu/sm-anchor.sh tests/cuda/sm_bench 20000"
  ROUNDS=3 PROBES=$src/.carry/probes timeout 150 bash "$src/scripts/gpu/sm-anchor.sh" ./tests/cuda/sm_bench 20000; echo "exit $?"; } >"$o/sm-anchor.txt" 2>&1
{ lead_hdr "ROUNDS=3 PROBES=.carry/probes scripts/gpu/proxy-null.sh gdr_proxy_bw 20000"
  ROUNDS=3 PROBES=$src/.carry/probes timeout 150 bash "$src/scripts/gpu/proxy-null.sh" ./gdr_proxy_bw 20000; echo "exit $?"; } >"$o/proxy-null.txt" 2>&1
cd "$src"
OUT=$o CONF_TIMEOUT=60 timeout 120 bash scripts/gpu/conformance.sh >/dev/null 2>&1; echo "conformance: exit $?"
tail -4 "$o/check.txt"; tail -3 "$o/gpukern-check.txt"; tail -3 "$o/export-check.txt"
tail -12 "$o/sm-anchor.txt"; tail -10 "$o/proxy-null.txt"; grep -v '^   ' "$o/conformance.txt" | grep -E 'rule|#' | tail -20
