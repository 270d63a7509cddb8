#!/bin/sh
# SPDX-License-Identifier: MIT
# scripts/ci/verbs-headers.sh on small trees: a file outside the verbs transport
# and the doctor that sees a verbs header, even through two headers of ours, fails
# naming the file and the header; the verbs transport, the doctor and libfabric's
# rdma/fabric.h pass; a file the compiler cannot preprocess fails naming it.
# (The real src/ is checked by the script itself, in TESTS.)
srcdir=${srcdir:-.}
g=$srcdir/scripts/ci/verbs-headers.sh
. "$srcdir/tests/lib.sh"
t_tmpdir t t_verbs_headers
s=$t/src
mkdir -p "$s/transport/verbs" "$s/driver" "$s/doctor" "$s/transport/ofi"
printf '#include "conn_v.h"\n' >"$s/transport/conn.h"
printf '#include <infiniband/verbs.h>\n' >"$s/transport/verbs/conn_v.h"
printf '#include <infiniband/verbs.h>\n#include "conn.h"\n' >"$s/transport/verbs/v.c"
printf '#include <rdma/rdma_cma.h>\n' >"$s/doctor/d.c"
# libfabric's rdma/fabric.h is not the verbs API; a host without its headers (the GPU hosts
# here: no libfabric-dev) cannot preprocess it, so that part is left out there, said in a line
if printf '#include <rdma/fabric.h>\n' | ${CC:-cc} -E -x c - >/dev/null 2>&1; then
	printf '#include <rdma/fabric.h>\n' >"$s/transport/ofi/o.c"
else
	echo "skip libfabric's rdma/fabric.h passing: this host has no libfabric headers"
	printf '#include <stdio.h>\n' >"$s/transport/ofi/o.c"
fi
printf '#include <stdio.h>\n' >"$s/driver/a.c"
tree() { sh "$g" "$s" "$t"; }
t_case "verbs only where it belongs" 0 'none of 2 files outside' tree
printf '#include "conn.h"\n' >>"$s/driver/a.c"
t_case "through two headers" 1 'driver/a.c sees the verbs API (infiniband/verbs.h' tree
printf '#include <stdio.h>\n' >"$s/driver/a.c"
printf '#include <rdma/rdma_cma.h>\n' >"$s/transport/x.c"
# rdma_cma.h named; infiniband/verbs.h beside it where the host has libibverbs' headers (the
# GPU hosts here have librdmacm's alone)
T_MATCH=re t_case "rdma_cm outside its folder" 1 'transport/x.c sees the verbs API ([a-z/. ]*rdma/rdma_cma.h)' tree
printf '#include <stdio.h>\n#if\n' >"$s/transport/x.c"
t_case "a file that does not preprocess" 1 'transport/x.c: the compiler cannot list its headers' tree
t_case "no such folder" 1 'no such folder' sh "$g" "$t/none"
exit $t_fail
