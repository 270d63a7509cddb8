/* SPDX-License-Identifier: MIT */
/* gdr_doctor: is this host ready for GPUDirect RDMA, and if not, why. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include "doctor.h"
#include "log.h"

static void usage(FILE *f)
{
	fprintf(f, "Usage: gdr_doctor [--json] [--sysfs-root=DIR] [--proc-root=DIR]\n"
		   "Check whether this host is ready for GPUDirect RDMA: RDMA devices and ports,\n"
		   "NVIDIA GPUs and driver, peer-memory module, GPU-NIC PCIe topology, PCIe ACS,\n"
		   "IOMMU mode and the memlock limit. Every finding is OK, WARN or FAIL with\n"
		   "the next step to take.\n"
		   "\n"
		   "  --json             print the findings as JSON on stdout\n"
		   "  --sysfs-root=DIR   read sys/... below DIR instead of / (test fixtures)\n"
		   "  --proc-root=DIR    read proc/... below DIR instead of /\n"
		   "  -h, --help         show this help\n"
		   "  -V, --version      show the version\n"
		   "\n"
		   "Exit status: 0 when GPUDirect RDMA should work (no FAIL), 1 when a check\n"
		   "failed, 2 on a usage error.\n");
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

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"json", no_argument, NULL, 'j'},
	    {"sysfs-root", required_argument, NULL, 's'},
	    {"proc-root", required_argument, NULL, 'p'},
	    {"help", no_argument, NULL, 'h'},
	    {"version", no_argument, NULL, 'V'},
	    {NULL, 0, NULL, 0},
	};
	static struct doctor d;
	char host[256] = "?", header[512];
	struct utsname un;
	int json = 0, c, rc;

	gdr_set_prog(argv[0]);
	d.sysroot = "/";
	d.procroot = "/";
	while ((c = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 's':
			d.sysroot = optarg;
			break;
		case 'p':
			d.procroot = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("gdr_doctor (%s) %s\n", PACKAGE_NAME, PACKAGE_VERSION);
			return 0;
		default:
			gdr_err("unknown option; see gdr_doctor --help");
			return 2;
		}
	}
	if (optind < argc) {
		gdr_err("unexpected argument '%s'; see gdr_doctor --help", argv[optind]);
		return 2;
	}
	if (check_dir("--sysfs-root", d.sysroot) || check_dir("--proc-root", d.procroot))
		return 2;
	d.live = is_slash(d.sysroot) && is_slash(d.procroot);
	if (d.live) {
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
		    PACKAGE_VERSION, d.sysroot, d.procroot);
	}

	out_init(&d.out);
	check_rdma(&d);
	check_nicpci(&d);
	check_gpu(&d);
	check_peermem(&d);
	check_topo(&d);
	check_pcie(&d);
	check_acs(&d);
	check_iommu(&d);
	check_limits(&d);
	check_kmsg(&d);

	if (json)
		out_print_json(&d.out, stdout, host, PACKAGE_VERSION);
	else
		out_print_text(&d.out, stdout, header);
	rc = out_count(&d.out, OUT_FAIL) ? 1 : 0;
	if (fflush(stdout)) {
		gdr_err("cannot write the report to stdout");
		rc = 2;
	}
	out_free(&d.out);
	return rc;
}
