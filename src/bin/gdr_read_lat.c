/* SPDX-License-Identifier: MIT */
/* gdr_read_lat: the shared driver with read_lat as the default test. */
#include "launch.h"

int main(int argc, char **argv)
{
	static const struct gdr_test t = { "read_lat", GDR_VERB_READ, GDR_KIND_LAT };

	return gdr_main(argc, argv, &t);
}
