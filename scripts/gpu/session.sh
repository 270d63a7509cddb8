#!/bin/bash
# One batched H100 session (the device is lent for minutes): the GPU unit tests against the
# real driver and against the CUDA driver double (double-vs-driver.sh), the stager against a
# plain cuMemcpyAsync loop (stager.sh), then gdr_doctor and the test binaries on a GPU host
# without an RDMA device (nonic). Run from the repository root with $OUT set; every output
# file starts with machine, date, commit and command.
set -u
src=$PWD o=${OUT:-/tmp/out}
mkdir -p "$o"
timeout 300 bash scripts/gpu/double-vs-driver.sh >/dev/null 2>&1; echo "double-vs-driver: exit $?"
timeout 240 bash scripts/gpu/stager.sh >/dev/null 2>&1; echo "stager: exit $?"
b=/tmp/b-dvd
E=$o/h100-nonic.txt
{ echo "# machine: $(nvidia-smi --query-gpu=name,driver_version,pci.bus_id --format=csv,noheader 2>/dev/null | head -1); $(uname -srm); $(nproc) CPUs"
  echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "$src" rev-parse --short HEAD 2>/dev/null)}"
  echo "# command: scripts/gpu/session.sh (gdr_doctor; test binaries with --use_cuda on a host without an RDMA device)"
  cd "$b" || exit 1
  for a in "--use_cuda=0 localhost" "--use_cuda=auto --staged localhost" "--use_cuda=0 --compare -s 64K localhost"; do
	echo "\$ gdr_write_bw $a"; timeout 10 ./gdr_write_bw $a; echo "exit $?"; done
  echo "\$ gdr_doctor"; timeout 60 ./gdr_doctor; echo "exit $?"
  echo "\$ gdr_doctor --json | head -c 3000"; timeout 60 ./gdr_doctor --json | head -c 3000; echo
} >"$E" 2>&1
tail -n 60 "$o"/h100-double-vs-driver.txt; cat "$o"/h100-stager.txt "$E"
