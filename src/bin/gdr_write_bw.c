/* SPDX-License-Identifier: MIT */
/* gdr_write_bw: the shared driver with write_bw as the default test. */
#include "launch.h"

int main(int argc, char **argv)
{
	static const struct gdr_test t = { "write_bw", GDR_VERB_WRITE, GDR_KIND_BW };

	return gdr_main(argc, argv, &t);
}
