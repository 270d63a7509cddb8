/* SPDX-License-Identifier: MIT */
/* The little gdr_doctor asks libibverbs itself (live host only). */
#include <stdio.h>
#include <string.h>
#include <infiniband/verbs.h>
#include "doctor.h"

int verbs_device_names(char names[][64], int max)
{
	struct ibv_device **list;
	int n = 0, count = 0;

	list = ibv_get_device_list(&count);
	if (!list)
		return -1;
	for (int i = 0; i < count && n < max; i++)
		snprintf(names[n++], 64, "%s", ibv_get_device_name(list[i]));
	ibv_free_device_list(list);
	return n;
}

int verbs_active_mtu(const char *dev, int port)
{
	struct ibv_device **list;
	struct ibv_context *ctx = NULL;
	struct ibv_port_attr attr;
	int count = 0, mtu = -1;

	list = ibv_get_device_list(&count);
	if (!list)
		return -1;
	for (int i = 0; i < count; i++) {
		if (!strcmp(ibv_get_device_name(list[i]), dev)) {
			ctx = ibv_open_device(list[i]);
			break;
		}
	}
	if (ctx && port > 0 && port < 256 && !ibv_query_port(ctx, (uint8_t)port, &attr) &&
	    attr.active_mtu >= IBV_MTU_256 && attr.active_mtu <= IBV_MTU_4096)
		mtu = 128 << attr.active_mtu;
	if (ctx)
		ibv_close_device(ctx);
	ibv_free_device_list(list);
	return mtu;
}
