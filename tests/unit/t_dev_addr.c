/* SPDX-License-Identifier: MIT */
/*
 * The address rdma_cm reaches a device port at, read from a sysfs fixture:
 * the IPv4-mapped GID of the port (RoCE), skipping link-local and IPv6 GIDs,
 * and none for a port without one (and no netdev).
 */
#include "config.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dev_addr.h"

#include "check.h"
#include "put.h"

static char root[64];

int main(void)
{
	char ip[64], cmd[96];

	snprintf(root, sizeof(root), "/tmp/t_dev_addr.XXXXXX");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 1;
	}
	/* rxe0 port 1: link-local GID 0, IPv4-mapped 10.9.0.1 at 1, an IPv6 one at 2 */
	put(root, "class/infiniband/rxe0/ports/1/gids/0",
	    "fe80:0000:0000:0000:5054:00ff:fe12:3456\n");
	put(root, "class/infiniband/rxe0/ports/1/gids/1",
	    "0000:0000:0000:0000:0000:ffff:0a09:0001\n");
	put(root, "class/infiniband/rxe0/ports/1/gids/2",
	    "fd00:0000:0000:0000:0000:0000:0000:0002\n");
	CHECK(gdr_dev_ipv4(root, "rxe0", 1, ip, sizeof(ip)) == 0, "no address found");
	CHECK(!strcmp(ip, "10.9.0.1"), "got '%s', want 10.9.0.1", ip);

	/* mlx5_1 port 1: only IPv6 and link-local GIDs, no netdev folder: none */
	put(root, "class/infiniband/mlx5_1/ports/1/gids/0",
	    "fe80:0000:0000:0000:0202:c9ff:fe00:0001\n");
	put(root, "class/infiniband/mlx5_1/ports/1/gids/1",
	    "2001:0db8:0000:0000:0000:0000:0000:0001\n");
	CHECK(gdr_dev_ipv4(root, "mlx5_1", 1, ip, sizeof(ip)) == -1, "got '%s' from no IPv4 GID",
	      ip);
	CHECK(ip[0] == '\0', "buf not cleared: '%s'", ip);

	/* the wrong port, and a device that is not there */
	CHECK(gdr_dev_ipv4(root, "rxe0", 2, ip, sizeof(ip)) == -1, "port 2 has no GID table");
	CHECK(gdr_dev_ipv4(root, "nosuch0", 1, ip, sizeof(ip)) == -1, "no such device");

	/* a buffer too small for the address is no address, never a cut one */
	CHECK(gdr_dev_ipv4(root, "rxe0", 1, ip, 4) == -1, "a cut address: '%s'", ip);

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		fprintf(stderr, "t_dev_addr: could not remove %s\n", root);
	return CHECK_DONE();
}
