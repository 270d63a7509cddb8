/* SPDX-License-Identifier: MIT */
/* This host's verbs devices by name and their port counts, for --rails (launch/rails.c). */
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>
#include "verbs_api.h"

int gdr_vx_dev_names(char (*names)[64], int max)
{
	int ndev = 0, n = 0;
	struct ibv_device **devs = ibv_get_device_list(&ndev);

	while (devs && n < ndev && n < max) {
		snprintf(names[n], sizeof(names[n]), "%s", ibv_get_device_name(devs[n]));
		n++;
	}
	if (devs)
		ibv_free_device_list(devs);
	return n;
}

int gdr_vx_dev_ports(const char *dev)
{
	int ndev = 0, ports = -1;
	struct ibv_device **devs = ibv_get_device_list(&ndev);

	for (int d = 0; devs && d < ndev; d++) {
		struct ibv_context *ctx;
		struct ibv_device_attr a;

		if (strcmp(ibv_get_device_name(devs[d]), dev))
			continue;
		ctx = ibv_open_device(devs[d]);
		if (ctx && !ibv_query_device(ctx, &a))
			ports = a.phys_port_cnt;
		if (ctx)
			ibv_close_device(ctx);
		break;
	}
	if (devs)
		ibv_free_device_list(devs);
	return ports;
}
