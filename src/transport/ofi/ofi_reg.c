/* SPDX-License-Identifier: MIT */
/* The libfabric transport's registrations: host, GPU by address (FI_HMEM), dma-buf (>= 1.20). */
#include "config.h"
#include "ofi_xp.h"

#include <stdlib.h>
#include <string.h>
#include <rdma/fi_errno.h>
#include "log.h"

static uint64_t fi_access(unsigned int access)
{
	uint64_t a = FI_SEND | FI_RECV | FI_READ | FI_WRITE; /* local operations on it */

	if (access & GDR_XA_REMOTE_WRITE)
		a |= FI_REMOTE_WRITE;
	if (access & GDR_XA_REMOTE_READ)
		a |= FI_REMOTE_READ;
	return a;
}

/* The memory's iface, or -1 with the line said. */
static int iface_of(struct gdr_xdom *d, const struct gdr_xmem *m, struct fi_mr_attr *a)
{
	if (m->kind == GDR_XMEM_HOST) {
		a->iface = FI_HMEM_SYSTEM;
		return 0;
	}
	if (!d->hmem) {
		gdr_err("ofi: provider %s does not offer FI_HMEM: GPU memory cannot be registered "
			"(use host memory, or a provider with FI_HMEM such as efa, cxi or shm)",
			d->info->fabric_attr->prov_name);
		return -1;
	}
	if (!(d->gpu_kinds & (1u << m->kind))) {
		uint32_t v = d->api->fi_version();

		gdr_err(
		    "ofi: provider %s offers FI_HMEM, but this libfabric (%u.%u) cannot register "
		    "%s memory (built without it): use host memory or --staged, or a libfabric "
		    "built with %s",
		    d->info->fabric_attr->prov_name, FI_MAJOR(v), FI_MINOR(v),
		    m->kind == GDR_XMEM_CUDA ? "CUDA" : "ROCr",
		    m->kind == GDR_XMEM_CUDA ? "CUDA" : "ROCr");
		return -1;
	}
	if (m->kind == GDR_XMEM_CUDA) {
		a->iface = FI_HMEM_CUDA;
		a->device.cuda = m->device;
	} else {
		a->iface = FI_HMEM_ROCR; /* libfabric 1.x names no ROCr device: the pointer says */
	}
	return 0;
}

/*
 * Whether the library registers iface's memory at all: a page of host memory
 * named as that iface. A library built without the iface refuses any such
 * registration (-FI_ENOSYS) before it looks at the pointer; one built with it
 * accepts or refuses the page for other reasons (it is not device memory).
 */
static bool iface_registers(struct gdr_xdom *d, enum fi_hmem_iface iface)
{
	static char page[4096] __attribute__((aligned(4096)));
	struct iovec iov = {.iov_base = page, .iov_len = sizeof(page)};
	struct fi_mr_attr a = {
	    .mr_iov = &iov, .iov_count = 1, .access = FI_SEND | FI_RECV, .iface = iface};
	struct fid_mr *mr = NULL;
	int rc;

	if (!(d->mr_mode & FI_MR_PROV_KEY))
		a.requested_key = d->next_key++;
	rc = fi_mr_regattr(d->domain, &a, 0, &mr);
	if (!rc && mr)
		fi_close(&mr->fid);
	return rc != -FI_ENOSYS;
}

unsigned int gdr_ofi_gpu_kinds(struct gdr_xdom *d)
{
	return (iface_registers(d, FI_HMEM_CUDA) ? 1u << GDR_XMEM_CUDA : 0) |
	       (iface_registers(d, FI_HMEM_ROCR) ? 1u << GDR_XMEM_ROCM : 0);
}

int gdr_ofi_reg(struct gdr_xdom *d, const struct gdr_xmem *m, unsigned int access,
		struct gdr_xmr **out, const char **method)
{
	struct iovec iov = {.iov_base = m->addr, .iov_len = m->len};
	struct fi_mr_attr a = {.mr_iov = &iov, .iov_count = 1};
#ifdef FI_MR_DMABUF
	struct fi_mr_dmabuf db; /* a.dmabuf points here until fi_mr_regattr */
#endif
	uint64_t flags = 0;
	struct gdr_xmr *mr;
	int rc;

	*out = NULL;
	a.access = fi_access(access);
	if (iface_of(d, m, &a))
		return -1;
	*method = m->kind == GDR_XMEM_HOST ? "host" : "hmem";
#ifdef FI_MR_DMABUF
	if (m->dmabuf_fd >= 0) {
		db = (struct fi_mr_dmabuf){.fd = m->dmabuf_fd,
					   .offset = m->dmabuf_off,
					   .len = m->len,
					   .base_addr = m->addr};
		a.dmabuf = &db;
		flags |= FI_MR_DMABUF;
		*method = "dma-buf";
	}
#else
	/* xmem.h: a dma-buf that cannot register falls back to the address, unless dma-buf
	 * alone is asked for */
	if (m->dmabuf_fd >= 0 && (m->flags & GDR_XMEM_BY_DMABUF)) {
		gdr_err("ofi: dma-buf registration needs libfabric >= 1.20 headers when gdrperf is "
			"built (this build has %d.%d): register by address or rebuild",
			FI_MAJOR_VERSION, FI_MINOR_VERSION);
		return -1;
	}
	if (m->dmabuf_fd >= 0)
		gdr_info("ofi: %s registered by address: dma-buf needs libfabric >= 1.20 headers "
			 "when gdrperf is built (this build has %d.%d)",
			 m->desc ? m->desc : "GPU memory", FI_MAJOR_VERSION, FI_MINOR_VERSION);
#endif
	if (!(d->mr_mode & FI_MR_PROV_KEY))
		a.requested_key = d->next_key++;
	mr = calloc(1, sizeof(*mr));
	if (!mr) {
		gdr_err("ofi: out of memory");
		return -1;
	}
	rc = fi_mr_regattr(d->domain, &a, flags, &mr->mr);
	if (rc) {
		gdr_err("ofi: %s: cannot register %zu bytes of %s memory at %p: %s",
			d->info->fabric_attr->prov_name, m->len,
			m->kind == GDR_XMEM_HOST ? "host" : "GPU", m->addr,
			d->api->fi_strerror(-rc));
		free(mr);
		return -1;
	}
	mr->d = d;
	mr->desc = fi_mr_desc(mr->mr);
	mr->base = m->addr;
	mr->len = m->len;
	mr->next = d->mrs;
	d->mrs = mr;
	if ((d->mr_mode & FI_MR_ENDPOINT) && d->neps && d->eps[0] && gdr_ofi_mr_bind(d, d->eps[0]))
		return -1; /* the region stays on d->mrs: close frees it */
	*out = mr;
	return 0;
}

/*
 * FI_MR_ENDPOINT (cxi): a region works once bound to an endpoint and enabled.
 * Every region of the domain is bound to its first endpoint (index 0).
 */
int gdr_ofi_mr_bind(struct gdr_xdom *d, struct gdr_xep *ep)
{
	int rc;

	for (struct gdr_xmr *mr = d->mrs; mr; mr = mr->next) {
		if (mr->bound)
			continue;
		rc = fi_mr_bind(mr->mr, &ep->ep->fid, 0);
		if (!rc)
			rc = fi_mr_enable(mr->mr);
		if (rc) {
			gdr_err(
			    "ofi: %s: cannot bind a region to its endpoint (FI_MR_ENDPOINT): %s",
			    d->info->fabric_attr->prov_name, d->api->fi_strerror(-rc));
			return -1;
		}
		mr->bound = true;
	}
	return 0;
}

uint64_t gdr_ofi_key(const struct gdr_xmr *mr)
{
	return fi_mr_key(mr->mr);
}

void gdr_ofi_dereg(struct gdr_xmr *mr)
{
	struct gdr_xmr **p;

	if (!mr)
		return;
	for (p = &mr->d->mrs; *p; p = &(*p)->next)
		if (*p == mr) {
			*p = mr->next;
			break;
		}
	fi_close(&mr->mr->fid);
	free(mr);
}
