/* SPDX-License-Identifier: MIT */
/* A fabric from "ibnetdiscover:FILE", "slurm:FILE" or "links:FILE", read and indexed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "fabric.h"
#include "log.h"

enum kind { IBND, SLURM, LINKS };

/* The kind of spec, its file after the colon; -1 (printed) when unknown. */
static int kind_of(const char *spec, const char **file)
{
	static const char *const name[] = {"ibnetdiscover:", "slurm:", "links:"};

	for (int k = IBND; k <= LINKS; k++)
		if (!strncmp(spec, name[k], strlen(name[k]))) {
			*file = spec + strlen(name[k]);
			return k;
		}
	gdr_err("--topology=%s: expected ibnetdiscover:FILE, slurm:FILE or links:FILE", spec);
	return -1;
}

int gdr_fab_spec_check(const char *spec)
{
	const char *file;
	FILE *f;

	if (kind_of(spec, &file) < 0)
		return -1;
	f = fopen(file, "r");
	if (!f) {
		gdr_err("--topology: cannot read %s: %s", file, strerror(errno));
		return -1;
	}
	fclose(f);
	return 0;
}

int gdr_fab_load(struct gdr_fabric *f, const char *spec, unsigned rails)
{
	const char *file;
	int k = kind_of(spec, &file), rc;

	gdr_fab_init(f);
	if (k < 0)
		return -1;
	rc = k == IBND	  ? gdr_fab_read_ibnd(f, file)
	     : k == SLURM ? gdr_fab_read_slurm(f, file, rails)
			  : gdr_fab_read_links(f, file);
	if (!rc)
		rc = gdr_fab_index(f);
	if (rc)
		gdr_fab_free(f);
	return rc;
}
