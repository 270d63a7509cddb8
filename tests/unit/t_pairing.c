/* SPDX-License-Identifier: MIT */
/*
 * The pairing file (memory/pairing.h): what --matrix writes, --use_cuda=auto finds again
 * by NIC and port; a NIC it does not name, a missing file and a malformed line each say why;
 * whether it can be written, asked before --matrix runs.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "pairing.h"

int main(void)
{
	const char *f = "t_pairing.tmp";
	struct gdr_pairing_row rows[2] = {{"0000:3b:00.0", "mlx5_1", 1, 48.2},
					  {"0000:af:00.0", "mlx5_10", 2, 0}};
	struct gdr_pairing_row r;
	char why[300];
	FILE *bad;

	CHECK(gdr_pairing_write(f, "first line\nsecond line", rows, 2) == 0);
	CHECK(gdr_pairing_find(f, "mlx5_10", 0, &r, why, sizeof(why)) == 1 &&
	      !strcmp(r.gpu, "0000:af:00.0") && r.port == 2 && r.gbps == 0);
	CHECK(gdr_pairing_find(f, "mlx5_1", 1, &r, why, sizeof(why)) == 1 &&
		  !strcmp(r.gpu, "0000:3b:00.0") && r.port == 1 && r.gbps > 48.19 && r.gbps < 48.21,
	      "mlx5_1, not a prefix of mlx5_10");
	CHECK(gdr_pairing_find(f, "mlx5_0", 0, &r, why, sizeof(why)) == 0 && strstr(why, "mlx5_0"),
	      "%s", why);
	bad = fopen(f, "a");
	CHECK(bad != NULL);
	if (bad) {
		fputs("0000:01:00.0 mlx5_3 fast\n", bad);
		fclose(bad);
	}
	CHECK(gdr_pairing_find(f, "mlx5_3", 1, &r, why, sizeof(why)) == -1 && strstr(why, "line 6"),
	      "%s", why);
	unlink(f);
	CHECK(gdr_pairing_find(f, "mlx5_1", 1, &r, why, sizeof(why)) == -1 && strstr(why, f), "%s",
	      why);
	/* a dual-port NIC whose ports pair with different GPUs: -i 2 gets port 2's (issue 43) */
	{
		struct gdr_pairing_row two[3] = {{"0000:3b:00.0", "mlx5_0", 1, 40.1},
						 {"0000:5e:00.0", "mlx5_0", 2, 39.7},
						 {"0000:af:00.0", "mlx5_1", 1, 41.0}};

		CHECK(gdr_pairing_write(f, "dual port", two, 3) == 0);
		CHECK(gdr_pairing_find(f, "mlx5_0", 2, &r, why, sizeof(why)) == 1 &&
			  !strcmp(r.gpu, "0000:5e:00.0") && r.port == 2,
		      "mlx5_0 port 2: %s", r.gpu);
		CHECK(gdr_pairing_find(f, "mlx5_0", 1, &r, why, sizeof(why)) == 1 &&
			  !strcmp(r.gpu, "0000:3b:00.0") && r.port == 1,
		      "mlx5_0 port 1: %s", r.gpu);
		CHECK(gdr_pairing_find(f, "mlx5_1", 2, &r, why, sizeof(why)) == 0 &&
			  strstr(why, "mlx5_1 port 2"),
		      "mlx5_1 port 2 not in the file: %s", why);
		unlink(f);
	}
	/* asked before --matrix runs: a new file is left absent, an existing one untouched */
	CHECK(gdr_pairing_writable(f) == 0 && access(f, F_OK) != 0, "a new file left behind");
	CHECK(gdr_pairing_write(f, "kept", rows, 1) == 0 && gdr_pairing_writable(f) == 0 &&
	      gdr_pairing_find(f, "mlx5_1", 1, &r, why, sizeof(why)) == 1);
	unlink(f);
	CHECK(gdr_pairing_writable("t_pairing.no-such-dir/p") == -1);
	return CHECK_DONE();
}
