/* SPDX-License-Identifier: MIT */
/*
 * t_cuda_pick NIC...: --use_cuda=auto for each RDMA device, through the CUDA backend
 * (tests/cuda/t_cuda_pick_double.sh runs it on fixtures with the driver double).
 * Prints "NIC -> GPU N (BUS-ID)" per device; the rule is on stderr.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "mem.h"

int main(int argc, char **argv)
{
	gdr_set_prog("t_cuda_pick");
	for (int i = 1; i < argc; i++) {
		struct gdr_mem m = {0};
		struct gdr_mem_cfg o;

		memset(&o, 0, sizeof(o));
		o.gpu = GDR_MEM_GPU_AUTO;
		if (gdr_mem_cuda_init(&m, &o, argv[i]))
			return 1;
		printf("%s -> %s\n", argv[i], m.desc);
		gdr_mem_fini(&m);
	}
	return 0;
}
