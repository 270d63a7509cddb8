/* SPDX-License-Identifier: MIT */
/* The pairing file (pairing.h): written by --matrix, read by --use_cuda=auto. */
#include "config.h"
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "log.h"
#include "pairing.h"

int gdr_pairing_write(const char *file, const char *about, const struct gdr_pairing_row *rows,
		      int n)
{
	FILE *f = fopen(file, "w");
	const char *p = about;

	if (!f) {
		gdr_err("--pairing=%s: %s", file, strerror(errno));
		return -1;
	}
	while (p && *p) {
		const char *e = strchr(p, '\n');
		int len = e ? (int)(e - p) : (int)strlen(p);

		fprintf(f, "# %.*s\n", len, p);
		p += len + (e != NULL);
	}
	fprintf(f, "# GPU NIC:PORT direct_GBps\n");
	for (int i = 0; i < n; i++)
		fprintf(f, "%s %s:%d %.3f\n", rows[i].gpu, rows[i].nic, rows[i].port, rows[i].gbps);
	if (fclose(f)) {
		gdr_err("--pairing=%s: %s", file, strerror(errno));
		return -1;
	}
	return 0;
}

int gdr_pairing_writable(const char *file)
{
	bool existed = access(file, F_OK) == 0;
	FILE *f = fopen(file, "a");

	if (!f) {
		gdr_err("--pairing=%s: %s (the measured pairing is written there at the end)", file,
			strerror(errno));
		return -1;
	}
	fclose(f);
	if (!existed)
		unlink(file);
	return 0;
}

int gdr_pairing_find(const char *file, const char *dev, int port, struct gdr_pairing_row *row,
		     char *why, size_t n)
{
	FILE *f = fopen(file, "r");
	char line[256];
	int no = 0, rc = 0;

	if (!f) {
		snprintf(why, n, "%s: %s", file, strerror(errno));
		return -1;
	}
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		struct gdr_pairing_row r = {0};
		char nic[80], *colon, end;

		no++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%31s %79s %lf %c", r.gpu, nic, &r.gbps, &end) != 3 ||
		    !(colon = strrchr(nic, ':')) || sscanf(colon + 1, "%d", &r.port) != 1 ||
		    r.port < 1 || colon - nic >= (long)sizeof(r.nic)) {
			snprintf(why, n, "%s line %d: not 'GPU NIC:PORT GB/s'", file, no);
			rc = -1;
			break;
		}
		*colon = '\0';
		snprintf(r.nic, sizeof(r.nic), "%.63s", nic);
		if (!strcmp(r.nic, dev) && (port <= 0 || r.port == port)) {
			*row = r;
			rc = 1;
		}
	}
	fclose(f);
	if (rc == 0 && port > 0)
		snprintf(why, n, "%s does not name %s port %d", file, dev, port);
	else if (rc == 0)
		snprintf(why, n, "%s does not name %s", file, dev);
	return rc;
}
