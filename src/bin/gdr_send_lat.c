/* SPDX-License-Identifier: MIT */
/* gdr_send_lat: the shared driver with send_lat as the default test. */
#include "launch.h"

int main(int argc, char **argv)
{
	static const struct gdr_test t = { "send_lat", GDR_VERB_SEND, GDR_KIND_LAT };

	return gdr_main(argc, argv, &t);
}
