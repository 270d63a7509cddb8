/* SPDX-License-Identifier: MIT */
/* gdr_atomic_lat: the shared driver with atomic_lat (8-byte RDMA atomics) as the default test. */
#include "launch.h"

int main(int argc, char **argv)
{
	static const struct gdr_test t = { "atomic_lat", GDR_VERB_ATOMIC, GDR_KIND_LAT };

	return gdr_main(argc, argv, &t);
}
