/* SPDX-License-Identifier: MIT */
/* The IPv4 address of an RDMA device port, from its GID table or its netdev (dev_addr.h). */
#include "config.h"
#include <arpa/inet.h>
#include <dirent.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include "dev_addr.h"

#define GDR_MAX_GIDS 256

/* A GID as sysfs writes it (8 groups of 4 hex digits) to 16 bytes. */
static int parse_gid(const char *s, unsigned char g[16])
{
	unsigned int v[8];

	if (sscanf(s, "%4x:%4x:%4x:%4x:%4x:%4x:%4x:%4x", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
		   &v[6], &v[7]) != 8)
		return -1;
	for (int i = 0; i < 8; i++) {
		g[2 * i] = (unsigned char)(v[i] >> 8);
		g[2 * i + 1] = (unsigned char)v[i];
	}
	return 0;
}

static int from_gids(const char *sysfs, const char *dev, int port, char *buf, size_t len)
{
	static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	char path[512], line[64];
	unsigned char g[16];

	for (int i = 0; i < GDR_MAX_GIDS; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/class/infiniband/%s/ports/%d/gids/%d", sysfs, dev,
			 port, i);
		f = fopen(path, "r");
		if (!f)
			break;
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		if (parse_gid(line, g) || memcmp(g, mapped, sizeof(mapped)))
			continue;
		if (inet_ntop(AF_INET, g + 12, buf, (socklen_t)len))
			return 0;
	}
	return -1;
}

/* An IPv4 address of a network interface of the device's PCI function (IPoIB). */
static int from_netdevs(const char *sysfs, const char *dev, char *buf, size_t len)
{
	char path[512];
	struct ifaddrs *ifa = NULL, *i;
	struct dirent *e;
	DIR *d;
	int ret = -1;

	snprintf(path, sizeof(path), "%s/class/infiniband/%s/device/net", sysfs, dev);
	d = opendir(path);
	if (!d)
		return -1;
	if (getifaddrs(&ifa)) {
		closedir(d);
		return -1;
	}
	while (ret && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		for (i = ifa; i && ret; i = i->ifa_next)
			if (i->ifa_addr && i->ifa_addr->sa_family == AF_INET &&
			    !strcmp(i->ifa_name, e->d_name) &&
			    inet_ntop(AF_INET, &((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr,
				      buf, (socklen_t)len))
				ret = 0;
	}
	freeifaddrs(ifa);
	closedir(d);
	return ret;
}

int gdr_dev_ipv4(const char *sysfs, const char *dev, int port, char *buf, size_t len)
{
	if (!len)
		return -1;
	buf[0] = '\0';
	if (!from_gids(sysfs, dev, port, buf, len) || !from_netdevs(sysfs, dev, buf, len))
		return 0;
	buf[0] = '\0';
	return -1;
}
