#!/bin/sh
# SPDX-License-Identifier: MIT
# Memory knows nothing of the NIC (issue 45): memory exports (mem.h's export,
# memory/xmem.h), the transport registers (transport/verbs/verbs_reg.c). No header of
# a NIC API (<infiniband/...>: verbs; <rdma/...>: rdma_cm, libfabric) is included
# in src/memory or in a folder below it in the layer order (docs/ARCHITECTURE.md's
# deps-order block), since memory may include those folders' headers.
srcdir=${srcdir:-.}
. "$srcdir/tests/lib.sh"
t_tmpdir t t_mem_nic

# nic_includes DIR...: the lines that include a NIC API's header
nic_includes() {
	grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(infiniband|rdma)/' \
		--include='*.c' --include='*.h' "$@"
}

# The check can fail: it finds such a line (spaced as some files space it) in a fixture.
mkdir -p "$t/mem"
printf '#include "log.h"\n#  include <rdma/rdma_cma.h>\n' >"$t/mem/a.h"
nic_includes "$t/mem" >/dev/null || { echo "FAIL: the pattern misses '#  include <rdma/...>'"; exit 1; }

# memory and the folders below it, as the layer order lists them
dirs=$(sed -n '/^```deps-order/,/^```$/p' "$srcdir/docs/ARCHITECTURE.md" | sed '1d;$d' |
	tr ' ' '\n' | sed -n '/^memory$/,$p')
case "$dirs" in
memory*) ;;
*)
	echo "FAIL: no memory in docs/ARCHITECTURE.md's deps-order block"
	exit 1
	;;
esac
set --
for d in $dirs; do
	[ -d "$srcdir/src/$d" ] || { echo "FAIL: src/$d (in the layer order) is not a folder"; exit 1; }
	set -- "$@" "$srcdir/src/$d"
done
hits=$(nic_includes "$@")
if [ -n "$hits" ]; then
	echo "FAIL: a NIC API's header in memory or below (memory exports, the transport registers):"
	echo "$hits"
	exit 1
fi
echo "t_mem_nic: no NIC API header in src/{$(echo $dirs | tr ' ' ',')}"
