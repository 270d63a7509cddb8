/* SPDX-License-Identifier: MIT */
/*
 * The ceiling of a bandwidth row, worked out before the run from what the
 * host says: the least of the NIC port's rate, the NIC's PCIe link, for GPU
 * memory the GPU's PCIe link, and for staged rows the measured copy rate;
 * with the component that sets it and the assumptions made. ceiling_compute
 * is pure; ceiling_facts (ceil_facts.c) reads the facts from sysfs.
 *
 * `limit` is one of (the vocabulary reports and tests rely on):
 *   "NIC port <G> Gb/s"        the port's active rate
 *   "NIC PCIe Gen<g> x<w>"     the NIC's PCIe link
 *   "GPU PCIe Gen<g> x<w>"     the GPU's PCIe link (GPU memory)
 *   "PCIe Gen<g> x<w> above the NIC (<bdf>)"  a narrower link between the NIC
 *                              and the root port (host memory), or the bridge
 *                              it shares with the GPU (P2P); "... the GPU ..."
 *                              the same on the GPU's side
 *   "<copier> <R> GB/s"        staged rows: the measured copy rate (GB = 1e9 B)
 *   "<copier> <R> GB/s both ways"  ... that counts both directions (copy_both): R/2 each
 *   "gpu-proxy kernel <R> M msg/s"  gpu-proxy rows: the message size times the kernel's own
 *                              descriptor rate (kernel_rate) is below every other bound
 *   "unknown"                  nothing known (ceiling 0)
 * `note` lists the assumptions and caveats, "; " between them, "" if none:
 *   "no PCIe link (virtual device)", "NIC PCIe link not readable",
 *   "GPU PCIe link not readable", "MPS assumed 256 B",
 *   "GPU link idle at Gen1: Gen5 taken" (an idle GPU: what it and its slot
 *   can do; "... taken (its slot's maximum)" when the slot is the lower),
 *   "P2P through PHB: may be far below" (also NODE, SYS), "P2P path unknown",
 *   "port rate unknown".
 */
#ifndef GDR_SYSINFO_CEILING_H
#define GDR_SYSINFO_CEILING_H

#include <stdbool.h>
#include "pcie_path.h"
#include "pcilink.h"
#include "topo.h"

#define CEIL_MPS_ASSUMED PCIE_MPS_ASSUMED

struct ceil_in {
	double port_gbps;     /* the port's active rate; 0 unknown */
	bool nic_virtual;     /* a software device (rxe, siw): no PCIe link of its own */
	struct pcie_link nic; /* the NIC's link (ignored when nic_virtual) */
	bool gpu_mem;	      /* this side's buffer is GPU memory */
	struct pcie_link gpu; /* the GPU's link (gpu_mem) */
	/* the narrowest link above each device on the row's path: up to the root port for
	 * host memory and through a root complex, up to the bridge both share for PIX/PXB
	 * (the GPU's own slot port left out: it is the GPU's link, idle or not) */
	struct pcie_hop nic_up, gpu_up;
	enum topo_rel path;   /* NIC <-> GPU (gpu_mem, not staged); TOPO_UNKNOWN */
	double copy_Bps;      /* staged rows: the measured copy rate; 0 not staged */
	const char *copier;   /* its name in `limit`: "copy engine", "gdrcopy" */
	bool copy_both;	      /* copy_Bps counts both directions at once (-b): half each */
	/*
	 * gpu-proxy rows: the kernel's own descriptor rate (messages/s, one fence
	 * each, null NIC) and the message size; the row's bound when size x rate is
	 * below all the others (ties go to the hardware); 0: not a gpu-proxy row
	 */
	double kernel_rate;
	double msg_bytes;
};

struct ceil_out {
	double gbps; /* per direction; 0: unknown */
	char limit[48];
	char note[192];
};

/* pcie_payload_Bps (pcilink.h): a link's payload rate, the arithmetic of every ceiling. */

/*
 * The speed a link's ceiling takes: its current one, but for a GPU (gpu)
 * idling at Gen1, what the link can train at (pcie_link_cap_gts: the lower of
 * the GPU's and its slot's maximum): a GPU drops its link to Gen1 when idle
 * and raises it under load. A GPU above Gen1 is taken at its current speed (a
 * Gen5 GPU loaded in a Gen4 slot runs Gen4); gdr_doctor warns when a GPU above
 * idle runs below what it and its slot can do.
 */
double pcie_speed_taken(const struct pcie_link *l, bool gpu);

/* Fill out from in; returns out->gbps. */
double ceiling_compute(const struct ceil_in *in, struct ceil_out *out);

/*
 * The host's facts for RDMA device dev's port and, when gpu_bdf is neither
 * NULL nor "", the GPU at that PCI address (any case), read below sysroot:
 * port rate from sysfs, nic_virtual when dev is there without a PCI function
 * (rxe, siw), the links, the path class. Sets every field of in but copy_Bps and copier (zeroed).
 */
void ceiling_facts(const char *sysroot, const char *dev, int port, const char *gpu_bdf,
		   struct ceil_in *in);

#endif
