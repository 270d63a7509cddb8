#!/bin/bash
# SPDX-License-Identifier: MIT
# ofi-rxe.sh - run inside rxe-vm.sh: the ofi transport's test (tests/xport/t_ofi) over
# "verbs;ofi_rxm" on Soft-RoCE, and fi_pingpong over "tcp;ofi_rxm" as libfabric's own
# reference. From the build folder:
#   bash ../../scripts/ci/rxe-vm.sh ../../scripts/ci/ofi-rxe.sh /tmp/ofi-rxe
# FI_UNIVERSE_SIZE=16: without it ofi_rxm's fi_enable fails on rxe ("Unable to create verbs
# CQ"; field note 2026-11-28, section 1.3). Exit: t_ofi's status (77: no verbs provider).
set -u
here=$(cd "$(dirname "$0")" && pwd)
t=${OFI_T:-$PWD/tests/xport/t_ofi}
[ -x "$t" ] || t=$(find "$here/../../build" -path '*/tests/xport/t_ofi' -type f 2>/dev/null | head -1)
out=${RXE_VM_OUT:-.}
export FI_UNIVERSE_SIZE=16 T_OFI_WATCHDOG=600

fi_info -p 'verbs;ofi_rxm' -t FI_EP_RDM >"$out/fi_info-verbs.txt" 2>&1
echo "fi_info verbs;ofi_rxm: $(grep -c 'provider:' "$out/fi_info-verbs.txt") entries"
"$t" 'verbs;ofi_rxm' 2>&1 | tee "$out/t_ofi-verbs.txt"
rc=${PIPESTATUS[0]}

# the reference: libfabric's own ping-pong on the same host
fi_pingpong -p 'tcp;ofi_rxm' -e rdm -I 100 -S 4096 >"$out/pingpong-server.txt" 2>&1 &
srv=$!
sleep 3
fi_pingpong -p 'tcp;ofi_rxm' -e rdm -I 100 -S 4096 127.0.0.1 >"$out/pingpong-client.txt" 2>&1
echo "fi_pingpong tcp;ofi_rxm: client exit $?"
cat "$out/pingpong-client.txt"
wait "$srv"
echo "t_ofi verbs;ofi_rxm: exit $rc"
exit "$rc"
