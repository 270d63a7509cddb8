#!/bin/bash
# lead's device call A, 2026-11-29: merged main with the real driver on one H200: make -j16
# check (the real-driver tests, the conformance cases against the double), then --matrix=all on
# a host without an RDMA port (the launcher lists the GPUs from a short-lived child: the fork
# rule), gdr_write_bw --compare on one GPU without a NIC (what a user sees).
set -u
b=/tmp/b-final o=${OUT:-/tmp/out}
# the build and make check with the real driver into $o/check.txt (lead_hdr: the header)
bash scripts/gpu/lead-check.sh "${GDR_COMMIT:-unknown}" "$o" "$b" 330
. scripts/gpu/lead-check.sh
. scripts/gpu/env.sh
cd "$b"
{ lead_hdr "gdr_write_bw --matrix=all -s 4M --matrix_time 0.5 (no RDMA port: the copy leg)"
  timeout 120 ./gdr_write_bw --matrix=all -s 4M --matrix_time 0.5; echo "exit $?"
  lead_hdr "gdr_write_bw --use_cuda=0 --compare localhost (no RDMA device here)"
  timeout 20 ./gdr_write_bw --use_cuda=0 --compare localhost; echo "exit $?"
} >"$o/matrix.txt" 2>&1
tail -25 "$o/check.txt"; cat "$o/matrix.txt"
