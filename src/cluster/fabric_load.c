/* SPDX-License-Identifier: MIT */
/* A fabric from "ibnetdiscover:FILE", "slurm:FILE" or "links:FILE", read and indexed. */
#include <string.h>
#include "fabric.h"
#include "log.h"

int gdr_fab_load(struct gdr_fabric *f, const char *spec, unsigned rails)
{
	const char *c = strchr(spec, ':');
	int rc;

	gdr_fab_init(f);
	if (c && !strncmp(spec, "ibnetdiscover:", 14))
		rc = gdr_fab_read_ibnd(f, c + 1);
	else if (c && !strncmp(spec, "slurm:", 6))
		rc = gdr_fab_read_slurm(f, c + 1, rails);
	else if (c && !strncmp(spec, "links:", 6))
		rc = gdr_fab_read_links(f, c + 1);
	else {
		gdr_err("--topology=%s: expected ibnetdiscover:FILE, slurm:FILE or links:FILE",
			spec);
		rc = -1;
	}
	if (!rc)
		rc = gdr_fab_index(f);
	if (rc)
		gdr_fab_free(f);
	return rc;
}
