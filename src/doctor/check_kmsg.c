/* SPDX-License-Identifier: MIT */
/*
 * The kernel log since boot (/dev/kmsg): NVIDIA Xid errors, with what the
 * common ones mean, and Oops/BUG reports (a GPU or NIC driver that oopsed
 * leaves the device unusable until a reboot).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "doctor.h"
#include "sysfs.h"

struct xid_name {
	int xid;
	const char *what;
};

static const struct xid_name xids[] = {
    {13, "graphics engine exception (often the application)"},
    {31, "GPU memory page fault (often the application)"},
    {43, "GPU stopped processing"},
    {45, "preemptive cleanup after an earlier error"},
    {48, "double-bit ECC error: the GPU needs a reset"},
    {61, "internal micro-controller breakpoint"},
    {62, "internal micro-controller halt"},
    {63, "ECC page retirement or row remapping recorded"},
    {64, "ECC page retirement or row remapping failed"},
    {74, "NVLink error"},
    {79, "GPU has fallen off the bus: check power, cooling and the PCIe slot"},
    {92, "high single-bit ECC error rate"},
    {94, "contained ECC error"},
    {95, "uncontained ECC error: the GPU needs a reset"},
    {119, "GSP RPC timeout"},
    {120, "GSP error"},
};

static const char *xid_what(int xid)
{
	for (size_t i = 0; i < sizeof(xids) / sizeof(xids[0]); i++)
		if (xids[i].xid == xid)
			return xids[i].what;
	return "see NVIDIA's Xid table";
}

struct seen {
	int lines, oops, nxid, last_xid;
	char oops_line[160], xid_line[200];
};

/* One record: "6,1234,5678,-;NVRM: Xid (PCI:0000:3b:00): 79, pid=..." (the text after ';'). */
static void record(struct seen *s, const char *rec)
{
	const char *text = strchr(rec, ';'), *x;

	text = text ? text + 1 : rec;
	s->lines++;
	x = strstr(text, "NVRM: Xid ");
	if (x) {
		const char *colon = strstr(x, "): ");

		s->nxid++;
		s->last_xid = colon ? atoi(colon + 3) : -1;
		snprintf(s->xid_line, sizeof(s->xid_line), "%s", x);
	}
	if (strstr(text, "Oops") || !strncmp(text, "BUG: ", 5)) {
		s->oops++;
		snprintf(s->oops_line, sizeof(s->oops_line), "%s", text);
	}
}

/* Read every record: /dev/kmsg gives one per read() and EAGAIN at the end; a file, lines. */
static int read_log(const char *path, struct seen *s)
{
	char buf[8192], *line, *save;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf) - 1)) != 0) {
		if (n < 0 && errno == EPIPE)
			continue; /* records overwritten while reading: go on */
		if (n < 0)
			break;
		buf[n] = 0;
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (line[0] != ' ') /* continuation lines of a record start with a space */
				record(s, line);
	}
	close(fd);
	return s->lines ? 0 : -1;
}

void check_kmsg(struct doctor *d)
{
	char path[PATH_MAX];
	struct seen s = {0};

	out_group(&d->out, "Kernel log");
	if (read_log(fs_path(path, sizeof(path), d->procroot, "/dev/kmsg"), &s)) {
		out_add(&d->out, OUT_INFO, "kmsg.read", "run as root to check the kernel log",
			"kernel log not readable here (/dev/kmsg): Xid and Oops not checked");
		return;
	}
	if (s.oops)
		out_add(&d->out, OUT_WARN, "kmsg.oops",
			"reboot, then check that no Oops shows (and which driver it names)",
			"%d Oops/BUG report%s since boot; last: %s", s.oops, s.oops == 1 ? "" : "s",
			s.oops_line);
	else
		out_add(&d->out, OUT_OK, "kmsg.oops", NULL,
			"no Oops or BUG since boot (%d lines read)", s.lines);
	if (s.nxid)
		out_add(
		    &d->out, OUT_WARN, "kmsg.xid",
		    "nvidia-smi -q shows the GPU's state; a GPU that fell off the bus or hit an "
		    "uncontained ECC error needs a reset or reboot",
		    "%d NVIDIA Xid error%s since boot; last Xid %d (%s): %s", s.nxid,
		    s.nxid == 1 ? "" : "s", s.last_xid, xid_what(s.last_xid), s.xid_line);
	else
		out_add(&d->out, OUT_OK, "kmsg.xid", NULL, "no NVIDIA Xid error since boot");
}
