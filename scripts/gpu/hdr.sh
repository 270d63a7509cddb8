# SPDX-License-Identifier: MIT
# scripts/gpu/hdr.sh - sourced by the GPU-machine scripts (matrix.sh, multigpu.sh): the header
# of a results file.
#   gpu_hdr FILE COMMAND [MORE]  writes to FILE "# machine: <N x GPU, driver>; <kernel>; <CPUs>;
#                                <NUMA nodes>[; MORE]", "# date: ...; commit: GDR_COMMIT (or the
#                                HEAD of $src, default the current folder)" and "# command: COMMAND"
gpu_hdr()
{
	{
		echo "# machine: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null |
			sort | uniq -c | awk '{ n = $1; $1 = ""; printf "%s%d x%s", (NR > 1 ? "; " : ""), n, $0 }'); $(uname -srm); $(nproc) CPUs; $(ls -d /sys/devices/system/node/node* 2>/dev/null | wc -l) NUMA node(s)${3:+; $3}"
		echo "# date: $(date -u +%FT%TZ); commit: ${GDR_COMMIT:-$(git -C "${src:-.}" rev-parse --short HEAD 2>/dev/null)}"
		echo "# command: $2"
	} >"$1"
}
