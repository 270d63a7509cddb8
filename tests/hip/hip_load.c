/* SPDX-License-Identifier: MIT */
/*
 * The HIP loader as a program, for the tests: one line "hip: ..." with what
 * gdr_hip_load answered (the devices and their PCI bus ids, or its refusal), and
 * with "hsa" as argument a second line "hsa: ..." with the dma-buf export's state.
 * Exit 0 when every asked part loaded, 1 otherwise.
 */
#include "config.h"
#include <stdio.h>
#include <string.h>
#include "hip_api.h"

int main(int argc, char **argv)
{
	const struct gdr_hip_api *api = NULL;
	const struct gdr_hsa_dmabuf *hsa = NULL;
	char why[512] = "", bus[32];
	int rc = 0;

	if (gdr_hip_load(&api, why, sizeof(why))) {
		printf("hip: %s\n", why);
		rc = 1;
	} else {
		printf("hip: %d device(s), runtime %d:", api->ndev, api->runtime_version);
		for (int i = 0; i < api->ndev; i++)
			printf(" %s", api->hipDeviceGetPCIBusId(bus, sizeof(bus), i) ? "?" : bus);
		printf("\n");
	}
	if (argc > 1 && !strcmp(argv[1], "hsa")) {
		if (gdr_hsa_dmabuf_load(&hsa, why, sizeof(why))) {
			printf("hsa: %s\n", why);
			rc = 1;
		} else {
			printf("hsa: hsa_amd_portable_export_dmabuf found\n");
		}
	}
	return rc;
}
