/* SPDX-License-Identifier: MIT */
/*
 * The --prom reporter keeps what it writes at the end: a row's path label is its own copy,
 * so a caller that frees its rows after each row (--matrix frees a cell's rows when the cell
 * ends) still gets path="direct" in the file, never "" or the bytes that took its place; and
 * a row's GPU label is its own row's (--matrix: a cell's GPU, not the run's "2 GPUs", so two
 * GPUs' cells through one port are two series, not one twice).
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "opts.h"
#include "report.h"

#define FILE_NAME "t_prom_keep.tmp.prom"

/* Two cells through one port, GPU 0 and GPU 1, the run's header naming neither. */
static void two_gpus(void)
{
	struct gdr_report_files f = {.prom = FILE_NAME, .no_text = true};
	struct gdr_run_info ri = {.test = "write_bw", .mem_kind = "cuda", .role = "client"};
	struct gdr_result r = {.path = "direct", .bytes = 65536, .iters = 10, .duration_s = 1};
	struct gdr_reports rs;
	char line[512];
	int seen[2] = {0};
	FILE *in;

	snprintf(ri.rdma_dev, sizeof(ri.rdma_dev), "rxe0");
	snprintf(ri.local_host, sizeof(ri.local_host), "h");
	snprintf(ri.gpu_pci, sizeof(ri.gpu_pci), "2 GPUs");
	CHECK(gdr_reports_open(&rs, &f) == 0 && gdr_reports_begin(&rs, &ri) == 0);
	for (int g = 0; g < 2; g++) {
		struct gdr_run_info cell = ri;

		snprintf(cell.gpu_pci, sizeof(cell.gpu_pci), "0000:0%d:00.0", g + 3);
		r.bw_avg_Bps = 1e9 * (g + 1);
		CHECK(gdr_reports_row(&rs, &cell, &r) == 0);
	}
	CHECK(gdr_reports_end(&rs, &ri) == 0);
	gdr_reports_close(&rs);
	in = fopen(FILE_NAME, "r");
	while (in && fgets(line, sizeof(line), in))
		if (!strncmp(line, "gdr_bandwidth", 13)) {
			seen[0] += strstr(line, "gpu=\"0000:03:00.0\"") != NULL;
			seen[1] += strstr(line, "gpu=\"0000:04:00.0\"") != NULL;
		}
	if (in)
		fclose(in);
	CHECK(seen[0] == 1 && seen[1] == 1, "each cell's GPU label: %d, %d", seen[0], seen[1]);
	unlink(FILE_NAME);
}

int main(void)
{
	static const char *const paths[] = {"host", "direct", "staged"};
	struct gdr_report_files f = {.prom = FILE_NAME, .no_text = true};
	struct gdr_run_info ri = {.test = "write_bw", .mem_kind = "cuda", .role = "client"};
	struct gdr_reports rs;
	char want[64], line[512];
	int seen[3] = {0};
	FILE *in;

	snprintf(ri.rdma_dev, sizeof(ri.rdma_dev), "rxe0");
	snprintf(ri.local_host, sizeof(ri.local_host), "h");
	snprintf(ri.direction, sizeof(ri.direction), "d2h");
	unlink(FILE_NAME);
	CHECK(gdr_reports_open(&rs, &f) == 0 && rs.n == 1, "--prom opens its reporter");
	CHECK(gdr_reports_begin(&rs, &ri) == 0);
	for (int p = 0; p < 3; p++) {
		char *path = strdup(paths[p]); /* the caller's string, freed after the row */
		struct gdr_result r = {.path = path,
				       .bytes = 65536,
				       .iters = 10,
				       .duration_s = 1,
				       .bw_avg_Bps = 1e9 * (p + 1)};

		CHECK(path && gdr_reports_row(&rs, &ri, &r) == 0);
		memset(path, 'X', strlen(path)); /* what the freed bytes may become */
		free(path);
	}
	CHECK(gdr_reports_end(&rs, &ri) == 0);
	gdr_reports_close(&rs);
	in = fopen(FILE_NAME, "r");
	CHECK(in, FILE_NAME " not written");
	while (in && fgets(line, sizeof(line), in)) {
		if (strncmp(line, "gdr_bandwidth", 13))
			continue;
		CHECK(!strstr(line, "path=\"\"") && !strstr(line, "XX"), "a path label lost: %s",
		      line);
		for (int p = 0; p < 3; p++) {
			snprintf(want, sizeof(want), "path=\"%s\"", paths[p]);
			seen[p] += strstr(line, want) != NULL;
		}
	}
	if (in)
		fclose(in);
	for (int p = 0; p < 3; p++)
		CHECK(seen[p] > 0, "no gdr_bandwidth sample with path=\"%s\"", paths[p]);
	unlink(FILE_NAME);
	two_gpus();
	return CHECK_DONE();
}
