/* SPDX-License-Identifier: MIT */
/* gdr_stage_bw on one GPU: the table of sizes and directions, best of --reps each. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "log.h"
#include "stage_copy.h"
#include "stage_multi.h"

struct timed {
	struct stage_bufs *b;
	enum stage_dir dir;
	uint64_t size;
	int ns;
};

static double timed_measure(void *ctx, uint64_t n)
{
	struct timed *t = ctx;

	return stage_measure(t->b, t->dir, t->size, n, t->ns);
}

int stage_run(const struct stage_opts *o)
{
	static const enum stage_dir order[] = {STAGE_H2D, STAGE_D2H, STAGE_BIDIR};
	struct gdr_mem_cfg mc;
	struct stage_bufs b;
	FILE *csv = NULL;
	size_t i, d;
	int rc = 1;
	bool bidir = o->dirs & STAGE_BIDIR;
	int ns;
	double ceil; /* the GPU's PCIe ceiling one way, GB/s; 0 unknown */
	char how[384];
	const char *cname = stage_copier_words[o->copier];

	if (o->kv_nblocks)
		return stage_kv_run(o);
	if (stage_is_multi(o))
		return stage_run_multi(o);
	ns = stage_streams(o);
	memset(&mc, 0, sizeof(mc));
	mc.api = o->rocm ? GDR_MEM_API_ROCM : GDR_MEM_API_CUDA;
	mc.gpu = o->use_cuda;
	mc.gpu_bus_id = o->cuda_bus_id;
	memset(&b, 0, sizeof(b));
	if (gdr_mem_init(&b.m, &mc, NULL))
		return 1;
	if (stage_bufs_alloc(&b, o, ns))
		goto out;
	if (stage_copier_check(&b, ns, how, sizeof(how))) {
		gdr_err("%s", how);
		goto out;
	}
	if (o->csv_file) {
		csv = fopen(o->csv_file, "w");
		if (!csv) {
			gdr_err("--csv=%s: %s", o->csv_file, strerror(errno));
			goto out;
		}
		fprintf(csv,
			"bytes,dir,host_mem,streams,iters,gbps,usec_per_copy,gpu,pcie_fraction%s\n",
			o->copier_given ? ",copier" : "");
	}
	gdr_info("%s, %s host memory, %d stream%s, best of %u%s%s", b.m.desc,
		 o->pageable ? "pageable" : "pinned", ns, ns > 1 ? "s" : "", o->reps,
		 o->copier_given ? ", copier " : "", o->copier_given ? cname : "");
	ceil = stage_pcie_ceiling(b.m.gpu_pci, how, sizeof(how));
	gdr_info("%s", how);
	printf("%-12s %-6s %-9s %-8s %-15s %-10s %s%s\n", "#bytes", "dir", "host_mem", "streams",
	       "GB/s(10^9 B/s)", "usec/copy", o->copier_given ? "of_PCIe   " : "of_PCIe",
	       o->copier_given ? "copier" : "");
	for (i = 0; i < o->nsizes; i++) {
		uint64_t size = o->sizes[i], iters = o->iters ? o->iters : stage_auto_iters(size);

		for (d = 0; d < 3; d++) {
			enum stage_dir dir = order[d];
			double best = 0, t, gbps, usec, frac;
			char fr[16] = "-", fc[24] = "";
			unsigned int r;

			if (!(o->dirs & dir) || (dir == STAGE_BIDIR && !bidir))
				continue;
			/* warm-up: streams created, pages and copy engines touched; with --time it
			 * also times the copies of a measurement */
			if (o->time > 0) {
				struct timed tm = {&b, dir, size, ns};

				iters = stage_timed_iters(o->time, timed_measure, &tm);
				if (!iters)
					goto out;
			} else if (stage_measure(&b, dir, size, iters / 10 + 2, ns) < 0) {
				goto out;
			}
			for (r = 0; r < o->reps; r++) {
				t = stage_measure(&b, dir, size, iters, ns);
				if (t < 0)
					goto out;
				if (!r || t < best)
					best = t;
			}
			gbps = (double)size * iters * (dir == STAGE_BIDIR ? 2 : 1) / best / 1e9;
			usec = best / iters * 1e6;
			frac = ceil > 0 ? gbps / (ceil * (dir == STAGE_BIDIR ? 2 : 1)) : 0;
			if (frac > 0) {
				snprintf(fr, sizeof(fr), "%.2f", frac);
				snprintf(fc, sizeof(fc), "%.4f", frac);
			}
			if (o->copier_given)
				printf("%-12llu %-6s %-9s %-8d %-15.2f %-10.2f %-9s %s\n",
				       (unsigned long long)size, stage_dir_name(dir),
				       o->pageable ? "pageable" : "pinned", ns, gbps, usec, fr,
				       cname);
			else
				printf("%-12llu %-6s %-9s %-8d %-15.2f %-10.2f %s\n",
				       (unsigned long long)size, stage_dir_name(dir),
				       o->pageable ? "pageable" : "pinned", ns, gbps, usec, fr);
			fflush(stdout);
			if (csv)
				fprintf(csv, "%llu,%s,%s,%d,%llu,%.4f,%.4f,\"%s\",%s%s%s\n",
					(unsigned long long)size, stage_dir_name(dir),
					o->pageable ? "pageable" : "pinned", ns,
					(unsigned long long)iters, gbps, usec, b.m.gpu_name, fc,
					o->copier_given ? "," : "", o->copier_given ? cname : "");
		}
	}
	rc = 0;
out:
	if (csv && fclose(csv)) {
		gdr_err("--csv=%s: %s", o->csv_file, strerror(errno));
		rc = 1;
	}
	stage_bufs_free(&b);
	return rc;
}
