/* SPDX-License-Identifier: MIT */
/* gdr_read_bw: the shared driver with read_bw as the default test. */
#include "launch.h"

int main(int argc, char **argv)
{
	static const struct gdr_test t = { "read_bw", GDR_VERB_READ, GDR_KIND_BW };

	return gdr_main(argc, argv, &t);
}
