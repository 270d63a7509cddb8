/* SPDX-License-Identifier: MIT */
/* gdr_atomic_bw: the shared driver with atomic_bw (8-byte RDMA atomics) as the default test. */
#include "launch.h"

int main(int argc, char **argv)
{
	static const struct gdr_test t = { "atomic_bw", GDR_VERB_ATOMIC, GDR_KIND_BW };

	return gdr_main(argc, argv, &t);
}
