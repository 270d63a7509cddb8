/* SPDX-License-Identifier: MIT */
/* RDMA devices: presence, PCI function and driver, ports, link, MTU, speed, GIDs. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "doctor.h"
#include "ignore.h"
#include "ibdev.h"
#include "sysfs.h"

static void nic_pci(struct doctor *d, struct doc_nic *nic)
{
	char path[PATH_MAX];

	if (ib_dev_bdf(d->sysroot, nic->name, nic->bdf, sizeof(nic->bdf))) {
		nic->bdf[0] = '\0';
		return;
	}
	fs_link_name(fs_path(path, sizeof(path), d->sysroot,
			     "/sys/class/infiniband/%s/device/driver", nic->name),
		     nic->driver, sizeof(nic->driver));
	nic->have_loc = !topo_locate(d->sysroot, nic->bdf, &nic->loc);
}

/* GID "0000:...:ffff:0a09:0001" -> "10.9.0.1" if it is IPv4-mapped. */
static int gid_ipv4(const char *gid, char *ip, size_t n)
{
	unsigned g[8];

	if (sscanf(gid, "%4x:%4x:%4x:%4x:%4x:%4x:%4x:%4x", &g[0], &g[1], &g[2], &g[3], &g[4], &g[5],
		   &g[6], &g[7]) != 8)
		return -1;
	if (g[0] || g[1] || g[2] || g[3] || g[4] || g[5] != 0xffff)
		return -1;
	snprintf(ip, n, "%u.%u.%u.%u", g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff);
	return 0;
}

/* Find the first RoCE v2 GID holding an IPv4 address. Returns its index or -1. */
static int roce_v2_ipv4(struct doctor *d, const char *dev, const char *port, char *ip, size_t n,
			char *ndev, size_t nn)
{
	char path[PATH_MAX], type[64], gid[128], **idx;
	int count, found = -1;

	count = fs_list(fs_path(path, sizeof(path), d->sysroot,
				"/sys/class/infiniband/%s/ports/%s/gid_attrs/types", dev, port),
			&idx);
	for (int i = 0; i < count && found < 0; i++) {
		/* Reading the type of an empty GID slot fails: skip it. */
		if (fs_read_line(fs_path(path, sizeof(path), d->sysroot,
					 "/sys/class/infiniband/%s/ports/%s/gid_attrs/types/%s",
					 dev, port, idx[i]),
				 type, sizeof(type)) ||
		    strcmp(type, "RoCE v2"))
			continue;
		if (fs_read_line(fs_path(path, sizeof(path), d->sysroot,
					 "/sys/class/infiniband/%s/ports/%s/gids/%s", dev, port,
					 idx[i]),
				 gid, sizeof(gid)) ||
		    gid_ipv4(gid, ip, n))
			continue;
		found = atoi(idx[i]);
		if (fs_read_line(fs_path(path, sizeof(path), d->sysroot,
					 "/sys/class/infiniband/%s/ports/%s/gid_attrs/ndevs/%s",
					 dev, port, idx[i]),
				 ndev, nn))
			snprintf(ndev, nn, "?");
	}
	fs_free_names(idx, count);
	return found;
}

static void check_port(struct doctor *d, struct doc_nic *nic, const char *port)
{
	char path[PATH_MAX], state[64] = "?", phys[64] = "?", ll[64] = "?", rate[64] = "?";
	char mtu[32] = "", gidtxt[160] = "", ip[32], ndev[64], next[256];
	const char *sstate;
	int roce, active, gidx = -1;

#define PORT_FILE(f, buf)                                                                          \
	fs_read_line(fs_path(path, sizeof(path), d->sysroot,                                       \
			     "/sys/class/infiniband/%s/ports/%s/" f, nic->name, port),             \
		     buf, sizeof(buf))
	PORT_FILE("state", state);
	PORT_FILE("phys_state", phys);
	PORT_FILE("link_layer", ll);
	PORT_FILE("rate", rate);
#undef PORT_FILE
	/* "4: ACTIVE" -> "ACTIVE" */
	sstate = strchr(state, ':') ? strchr(state, ':') + 2 : state;
	active = !strncmp(sstate, "ACTIVE", 6);
	roce = !strcmp(ll, "Ethernet");
	if (d->live) {
		int m = verbs_active_mtu(nic->name, atoi(port));

		if (m > 0)
			snprintf(mtu, sizeof(mtu), ", active MTU %d", m);
	}
	if (roce) {
		gidx = roce_v2_ipv4(d, nic->name, port, ip, sizeof(ip), ndev, sizeof(ndev));
		if (gidx >= 0)
			snprintf(gidtxt, sizeof(gidtxt), ", RoCEv2 IPv4 GID index %d (%s on %s)",
				 gidx, ip, ndev);
	}
	if (doc_ignore_match(d->ignore, nic->name, port)) {
		out_add(&d->out, OUT_INFO, "rdma.port", NULL,
			"%s port %s: %s, %s, %s; declared unused (--ignore-port): not judged",
			nic->name, port, sstate, roce ? "Ethernet (RoCE)" : ll, rate);
		return;
	}
	if (!active) {
		size_t k;

		if (!strncmp(sstate, "INIT", 4) && !roce)
			snprintf(next, sizeof(next),
				 "no subnet manager has brought the port up: start opensm on one "
				 "host of the fabric (or check the switch's SM), then `ibstat %s`",
				 nic->name);
		else
			snprintf(next, sizeof(next),
				 "check the cable and the switch port (`ibstat %s`, `ip link` for "
				 "RoCE); the physical state is %s",
				 nic->name, phys);
		k = strlen(next);
		if (nic->bdf[0]) /* a hardware port that is down is a dead rail for acceptance */
			snprintf(next + k, sizeof(next) - k,
				 "; a port left unused on purpose is declared with "
				 "--ignore-port=%s:%s",
				 nic->name, port);
		out_add(&d->out, nic->bdf[0] ? OUT_FAIL : OUT_WARN, "rdma.port", next,
			"%s port %s: %s, %s, %s", nic->name, port, sstate,
			roce ? "Ethernet (RoCE)" : ll, rate);
		return;
	}
	nic->active_ports++;
	if (roce && gidx < 0) {
		out_add(&d->out, OUT_WARN, "rdma.port",
			"give the port's network interface an IPv4 address (`ip addr add ... dev "
			"<netdev>`), or pass an IPv6 RoCE v2 GID with -x",
			"%s port %s: ACTIVE, Ethernet (RoCE), %s%s, no RoCE v2 GID with an IPv4 "
			"address",
			nic->name, port, rate, mtu);
		return;
	}
	out_add(&d->out, OUT_OK, "rdma.port", NULL, "%s port %s: ACTIVE, %s, %s%s%s", nic->name,
		port, roce ? "Ethernet (RoCE)" : ll, rate, mtu, gidtxt);
}

static void verbs_agree(struct doctor *d)
{
	char names[DOC_MAX_DEV][64];
	int n = verbs_device_names(names, DOC_MAX_DEV);

	if (n <= 0) {
		out_add(
		    &d->out, OUT_FAIL, "rdma.verbs",
		    "install the user-space provider of the NIC (Debian/Ubuntu: apt-get install "
		    "ibverbs-providers; RHEL: dnf install libibverbs), load ib_uverbs, then "
		    "`ibv_devices`",
		    "the kernel has %d RDMA device(s) but libibverbs lists none", d->nnic);
		return;
	}
	out_add(&d->out, OUT_OK, "rdma.verbs", NULL, "libibverbs lists %d device(s)", n);
}

/* An --ignore-port entry that names no device here: a typo would hide nothing, say so. */
static void ignore_unknown(struct doctor *d)
{
	char names[DOC_MAX_DEV][64], what[96];

	for (int i = 0; i < d->nnic; i++)
		snprintf(names[i], sizeof(names[i]), "%s", d->nic[i].name);
	if (d->ignore && doc_ignore_unknown(d->ignore, names, d->nnic, what, sizeof(what)))
		out_add(&d->out, OUT_WARN, "rdma.ignore",
			"name the device as /sys/class/infiniband does (`ibv_devices`)",
			"--ignore-port: %s names no RDMA device of this host", what);
}

void check_rdma(struct doctor *d)
{
	char path[PATH_MAX], fw[64], numa[16], **devs, **ports;
	int ndev, nport, hw_active = 0, hw = 0;

	out_group(&d->out, "RDMA devices");
	ndev = fs_list(fs_path(path, sizeof(path), d->sysroot, "/sys/class/infiniband"), &devs);
	if (ndev == 0) {
		out_add(&d->out, OUT_FAIL, "rdma.present",
			"check that the NIC is seen (`lspci | grep -i -e mellanox -e infiniband`) "
			"and load its RDMA driver (e.g. `modprobe mlx5_ib`; MLNX_OFED/DOCA or the "
			"distribution's rdma-core)",
			"no RDMA device in /sys/class/infiniband");
		return;
	}
	for (int i = 0; i < ndev && d->nnic < DOC_MAX_DEV; i++) {
		struct doc_nic *nic = &d->nic[d->nnic++];

		memset(nic, 0, sizeof(*nic));
		snprintf(nic->name, sizeof(nic->name), "%s", devs[i]);
		nic_pci(d, nic);
		if (!nic->bdf[0]) {
			out_add(
			    &d->out, OUT_WARN, "rdma.device",
			    "use a hardware RDMA NIC for GPUDirect (soft-RoCE/siw are fine for "
			    "host memory tests only)",
			    "%s: software device (no PCI function): it cannot DMA into GPU memory",
			    nic->name);
		} else {
			if (fs_read_line(fs_path(path, sizeof(path), d->sysroot,
						 "/sys/class/infiniband/%s/fw_ver", nic->name),
					 fw, sizeof(fw)))
				snprintf(fw, sizeof(fw), "?");
			if (nic->driver[0])
				out_add(&d->out, OUT_OK, "rdma.device", NULL,
					"%s: PCI %s, driver %s, firmware %s, NUMA node %s",
					nic->name, nic->bdf, nic->driver, fw,
					doc_numa_str(nic->loc.numa, numa, sizeof(numa)));
			else
				out_add(&d->out, OUT_WARN, "rdma.device",
					"bind the NIC to its driver (e.g. `modprobe mlx5_core`)",
					"%s: PCI %s has no kernel driver bound", nic->name,
					nic->bdf);
		}
		nport = fs_list(fs_path(path, sizeof(path), d->sysroot,
					"/sys/class/infiniband/%s/ports", nic->name),
				&ports);
		for (int p = 0; p < nport; p++)
			check_port(d, nic, ports[p]);
		if (nport == 0)
			out_add(&d->out, OUT_WARN, "rdma.port",
				"check the driver's kernel log (dmesg)", "%s: no ports listed",
				nic->name);
		fs_free_names(ports, nport);
		if (nic->bdf[0]) {
			hw++;
			hw_active += nic->active_ports > 0;
		}
	}
	fs_free_names(devs, ndev);
	ignore_unknown(d);
	if (d->live)
		verbs_agree(d);
	if (hw == 0)
		out_add(&d->out, OUT_FAIL, "rdma.usable",
			"install a hardware RDMA NIC (InfiniBand or RoCE) and its driver",
			"no hardware RDMA device: GPUDirect RDMA needs one");
	else if (hw_active == 0)
		out_add(&d->out, OUT_FAIL, "rdma.usable",
			"bring a port up (see the port lines above)",
			"no hardware RDMA device has an ACTIVE port");
}
