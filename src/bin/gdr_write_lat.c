/* SPDX-License-Identifier: MIT */
/* gdr_write_lat: the shared driver with write_lat as the default test. */
#include "launch.h"

int main(int argc, char **argv)
{
	static const struct gdr_test t = { "write_lat", GDR_VERB_WRITE, GDR_KIND_LAT };

	return gdr_main(argc, argv, &t);
}
