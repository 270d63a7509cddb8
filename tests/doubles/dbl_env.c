/* SPDX-License-Identifier: MIT */
/* The doubles' shared readers: an environment number, the devices' fixture, the fault plan. */
#include "dbl_env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int dbl_env_long(const char *who, const char *name, long lo, long hi, long dflt, long *out)
{
	const char *v = getenv(name);
	char *end;
	long x;

	*out = dflt;
	if (!v || !*v)
		return 0;
	errno = 0;
	x = strtol(v, &end, 10);
	if (errno || *end || x < lo || x > hi) {
		fprintf(stderr, "%s: %s=%s: expected a number in %ld..%ld\n", who, name, v, lo, hi);
		return -1;
	}
	*out = x;
	return 0;
}

int dbl_load_fixture(const char *who, const char *env, const char *devs_env, const char *group_word,
		     const char *path, int ndev, char (*bus)[DBL_BUS_LEN], int *numa, int *group)
{
	FILE *f = fopen(path, "r");
	char line[128];
	int n = 0;

	if (!f) {
		fprintf(stderr, "%s: %s=%s: %s\n", who, env, path, strerror(errno));
		return -1;
	}
	while (n < ndev && fgets(line, sizeof(line), f)) {
		char b[32];
		int node, g = -1, got;

		if (line[0] == '#' || line[0] == '\n')
			continue;
		got = sscanf(line, "%31s %d %d", b, &node, &g);
		if (got < 2 || strlen(b) >= DBL_BUS_LEN || (got == 3 && g < 0)) {
			fprintf(stderr, "%s: %s: bad line '%.40s' (want BUS-ID NUMA [%s])\n", who,
				path, line, group_word);
			fclose(f);
			return -1;
		}
		memcpy(bus[n], b, strlen(b) + 1);
		numa[n] = node;
		group[n++] = g;
	}
	fclose(f);
	if (n < ndev) {
		fprintf(stderr, "%s: %s has %d devices, %s wants %d\n", who, path, n, devs_env,
			ndev);
		return -1;
	}
	return 0;
}

static const struct dbl_fault *fault_of(const struct dbl_fault *faults, const char *name)
{
	for (; faults->name; faults++)
		if (!strcmp(faults->name, name))
			return faults;
	return NULL;
}

int dbl_parse_faults(const char *who, const char *env, const char *spec,
		     const struct dbl_fault *faults, const char *expected)
{
	char buf[128], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(tok, ':'), *end = NULL;
		const struct dbl_fault *w;
		long n = 0;

		if (colon) {
			*colon = 0;
			n = strtol(colon + 1, &end, 10);
			if (*end || n < 0)
				goto bad;
		}
		w = fault_of(faults, tok);
		if (!w || (w->form == DBL_BARE && colon) || (w->form == DBL_COUNT && !colon))
			goto bad;
		*w->set = w->form == DBL_BARE ? 1 : n;
	}
	return 0;
bad:
	fprintf(stderr, "%s: %s=%s: expected %s\n", who, env, spec, expected);
	return -1;
}
