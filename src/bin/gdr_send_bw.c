/* SPDX-License-Identifier: MIT */
/* gdr_send_bw: the shared driver with send_bw as the default test. */
#include "launch.h"

int main(int argc, char **argv)
{
	static const struct gdr_test t = { "send_bw", GDR_VERB_SEND, GDR_KIND_BW };

	return gdr_main(argc, argv, &t);
}
