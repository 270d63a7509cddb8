/* SPDX-License-Identifier: MIT */
/* The HIP runtime's view of the AMD GPUs: which of them ROCm sees, and its index of each. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "doctor.h"
#include "hip_api.h"

/* "0000:0c:00.0" and HIP's bus id, compared without case and leading zeros of the domain. */
static int same_bdf(const char *a, const char *busid)
{
	char b[TOPO_BDF_LEN];
	size_t i;

	for (i = 0; i < sizeof(b) - 1 && busid[i]; i++)
		b[i] = (char)tolower((unsigned char)busid[i]);
	b[i] = '\0';
	while (*a == '0' && a[1] != ':')
		a++;
	for (i = 0; b[i] == '0' && b[i + 1] != ':';)
		i++;
	return !strcmp(a, b + i);
}

int rocm_probe(struct doctor *d, int *seen, char *why, size_t n)
{
	const struct gdr_hip_api *api;
	char bus[32];

	*seen = 0;
	if (gdr_hip_load(&api, why, n))
		return -1;
	for (int h = 0; h < api->ndev; h++) {
		if (api->hipDeviceGetPCIBusId(bus, sizeof(bus), h) != GDR_HIP_SUCCESS)
			continue;
		for (int g = 0; g < d->ngpu; g++)
			if (d->gpu[g].amd && same_bdf(d->gpu[g].bdf, bus)) {
				d->gpu[g].cuda_index = h;
				++*seen;
			}
	}
	snprintf(why, n, "HIP %d.%d", api->runtime_version / 10000000,
		 api->runtime_version / 100000 % 100);
	return 0;
}
