/* SPDX-License-Identifier: MIT */
/* gdr_doctor: is this host ready for GPUDirect RDMA, and if not, why. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "doctor.h"
#include "exitcode.h"
#include "ignore.h"
#include "log.h"
#include "optengine.h"
#include "prom.h"

struct doctor_opts {
	bool json;
	char *prom;
	char *ignore;
	char *sysroot;
	char *procroot;
	uint64_t set_bits[2]; /* which rows were given (the option engine's) */
};

#define F(field) GDR_OPT_FIELD(struct doctor_opts, field)

static const struct gdr_opt rows[] = {
    {.name = "json", .type = GDR_OT_FLAG, F(json), .help = "print the findings as JSON on stdout"},
    {.name = "prom",
     .arg = "FILE",
     .type = GDR_OT_STR,
     F(prom),
     .help = "also write one gauge per check (0 ok, 1 warn, 2 fail) to FILE, Prometheus text"},
    {.name = "ignore-port",
     .arg = "DEV[:PORT],...",
     .type = GDR_OT_STR,
     F(ignore),
     .help = "ports left unused on purpose: not judged (else a port that is not ACTIVE "
	     "fails); also GDR_DOCTOR_IGNORE_PORTS"},
    {.name = "sysfs-root",
     .arg = "DIR",
     .type = GDR_OT_STR,
     F(sysroot),
     .def = "/",
     .help = "read sys/... below DIR (test fixtures)"},
    {.name = "proc-root",
     .arg = "DIR",
     .type = GDR_OT_STR,
     F(procroot),
     .def = "/",
     .help = "read proc/... below DIR"},
    {.name = "help", .letter = 'h', .type = GDR_OT_HELP, .help = "show this help"},
    {.name = "version", .letter = 'V', .type = GDR_OT_VERSION, .help = "show the version"},
};

static void head(FILE *f, const void *ctx)
{
	(void)ctx;
	fprintf(f, "Usage: gdr_doctor [--json] [--prom=FILE] [--ignore-port=DEV[:PORT],...]\n"
		   "                  [--sysfs-root=DIR] [--proc-root=DIR]\n"
		   "Check whether this host is ready for GPUDirect RDMA: RDMA devices and ports,\n"
		   "NVIDIA GPUs and driver, peer-memory module, GPU-NIC PCIe topology, PCIe ACS,\n"
		   "IOMMU mode and the memlock limit. On an AMD node (no NVIDIA GPU): amdgpu and\n"
		   "/dev/kfd, the GPUs ROCm sees (HIP), amdgpu_peermem or dma-buf (the kernel\n"
		   "config: CONFIG_PCI_P2PDMA, CONFIG_DMABUF_MOVE_NOTIFY) and large BAR. Every\n"
		   "finding is OK, WARN or FAIL with the next step to take.\n");
}

static int is_slash(const char *dir)
{
	return dir[strspn(dir, "/")] == '\0';
}

static int check_dir(const char *opt, const char *dir)
{
	struct stat st;

	if (!dir[0] || stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		gdr_err("%s=%s: not a directory; give the folder that holds sys/ (or proc/)", opt,
			dir);
		return -1;
	}
	return 0;
}

/* Both roots must be directories. */
static int check(void *settings, const void *ctx)
{
	struct doctor_opts *o = settings;

	(void)ctx;
	char why[160];
	const char *env = getenv("GDR_DOCTOR_IGNORE_PORTS");

	if (check_dir("--sysfs-root", o->sysroot) || check_dir("--proc-root", o->procroot))
		return -1;
	if (o->ignore && doc_ignore_parse(o->ignore, why, sizeof(why))) {
		gdr_err("--ignore-port: %s", why);
		return -1;
	}
	if (env && *env && doc_ignore_parse(env, why, sizeof(why))) {
		gdr_err("GDR_DOCTOR_IGNORE_PORTS: %s", why);
		return -1;
	}
	return 0;
}

static const struct gdr_optdef doctor_optdef = {
    .rows = rows,
    .nrows = sizeof(rows) / sizeof(rows[0]),
    .help_col = 24,
    .set_off = offsetof(struct doctor_opts, set_bits),
    .head = head,
    .tail = "Exit status: 0 when GPUDirect RDMA should work (no FAIL), 1 when a check\n"
	    "failed (an RDMA port that is not ACTIVE included), 2 when the --prom file\n"
	    "cannot be written, 3 on a usage error (one line on stderr, no report on stdout).\n",
    .check = check,
};

/* The findings of every check, as text or JSON. */
static int diagnose(struct doctor *d, bool json, const char *prom)
{
	char host[256] = "?", header[512];
	struct utsname un;
	int rc;

	d->live = is_slash(d->sysroot) && is_slash(d->procroot);
	if (d->live) {
		gethostname(host, sizeof(host) - 1);
		if (uname(&un) == 0)
			snprintf(header, sizeof(header),
				 "gdr_doctor %s: GPUDirect RDMA readiness of %s (Linux %s)",
				 PACKAGE_VERSION, host, un.release);
		else
			snprintf(header, sizeof(header),
				 "gdr_doctor %s: GPUDirect RDMA readiness of %s", PACKAGE_VERSION,
				 host);
	} else {
		snprintf(host, sizeof(host), "fixture");
		snprintf(
		    header, sizeof(header),
		    "gdr_doctor %s: GPUDirect RDMA readiness of the system under %s (proc: %s)",
		    PACKAGE_VERSION, d->sysroot, d->procroot);
	}

	out_init(&d->out);
	check_rdma(d);
	check_nicpci(d);
	check_gpu(d);
	check_peermem(d);
	check_topo(d);
	check_pcie(d);
	check_acs(d);
	check_iommu(d);
	check_limits(d);
	check_kmsg(d);
	check_ofi(d);

	if (json)
		out_print_json(&d->out, stdout, host, PACKAGE_VERSION);
	else
		out_print_text(&d->out, stdout, header);
	rc = out_count(&d->out, OUT_FAIL) ? GDR_EXIT_FAIL : GDR_EXIT_OK;
	if (prom && out_write_prom(&d->out, prom, host))
		rc = GDR_EXIT_ERROR;
	if (fflush(stdout)) {
		gdr_err("cannot write the report to stdout");
		rc = GDR_EXIT_ERROR;
	}
	out_free(&d->out);
	return rc;
}

/* The option's list and the environment's, joined (checked by check()); NULL out of memory. */
static char *ignore_list(const char *opt, const char *env)
{
	size_t n = (opt ? strlen(opt) : 0) + (env ? strlen(env) : 0) + 2;
	char *s = malloc(n);

	if (!s) {
		gdr_err("out of memory");
		return NULL;
	}
	snprintf(s, n, "%s%s%s", opt ? opt : "", opt && env && *env ? "," : "", env ? env : "");
	return s;
}

int main(int argc, char **argv)
{
	static struct doctor_opts o;
	static struct doctor d;
	int rc = gdr_optparse(&doctor_optdef, &o, NULL, argc, argv);

	if (rc)
		return rc < 0 ? GDR_EXIT_USAGE : GDR_EXIT_OK;
	d.sysroot = o.sysroot;
	d.procroot = o.procroot;
	if (o.prom && gdr_prom_check(o.prom, "--prom")) { /* an output file, as the tests' */
		gdr_optfree(&doctor_optdef, &o);
		return GDR_EXIT_ERROR;
	}
	d.ignore = ignore_list(o.ignore, getenv("GDR_DOCTOR_IGNORE_PORTS"));
	rc = d.ignore ? diagnose(&d, o.json, o.prom) : GDR_EXIT_ERROR;
	free((char *)d.ignore);
	gdr_optfree(&doctor_optdef, &o);
	return rc;
}
