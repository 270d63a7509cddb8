/* SPDX-License-Identifier: MIT */
/* Memory backends: host memory, and the generic pattern fill/check over any backend. */
#include "config.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "log.h"
#include "mem.h"

#define HUGE_2M (2UL << 20)

/*
 * Host memory, or (m->priv set) pinned bounce buffers allocated by the data
 * backend m->priv, so its asynchronous copies run at full speed.
 */
static int host_alloc(struct gdr_mem *m, size_t len)
{
	struct gdr_mem *data = m->priv;
	void *p;

	if (data) {
		m->addr = data->ops->host_alloc(data, len);
		m->len = len;
		return m->addr ? 0 : -1;
	}
	if (m->hugepages) {
		size_t hl = (len + HUGE_2M - 1) & ~(HUGE_2M - 1);

		p = mmap(NULL, hl, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (p == MAP_FAILED) {
			gdr_err("--use_hugepages: cannot map %zu bytes of 2 MiB hugepages (%s); "
				"reserve some with: echo 1024 > /proc/sys/vm/nr_hugepages",
				hl, strerror(errno));
			return -1;
		}
		m->len = hl;
	} else {
		if (posix_memalign(&p, 4096, len ? len : 1)) {
			gdr_err("cannot allocate %zu bytes of host memory", len);
			return -1;
		}
		m->len = len;
	}
	memset(p, 0, m->len);
	m->addr = p;
	return 0;
}

static void host_free(struct gdr_mem *m)
{
	struct gdr_mem *data = m->priv;

	if (!m->addr)
		return;
	if (data)
		data->ops->host_free(data, m->addr, m->len);
	else if (m->hugepages)
		munmap(m->addr, m->len);
	else
		free(m->addr);
	m->addr = NULL;
}

void gdr_mem_export_base(const struct gdr_mem *m, struct gdr_xmem *x, enum gdr_xmem_kind kind,
			 int device, unsigned int flags)
{
	*x = (struct gdr_xmem){
		.addr = m->addr,
		.len = m->len,
		.kind = kind,
		.device = device,
		.dmabuf_fd = -1,
		.flags = flags,
		.desc = m->desc,
	};
}

/* Host memory (and bounce buffers) is registered by its address. */
static int host_export(struct gdr_mem *m, struct gdr_xmem *x)
{
	gdr_mem_export_base(m, x, GDR_XMEM_HOST, -1, GDR_XMEM_BY_ADDR);
	return 0;
}

static int host_to_host(struct gdr_mem *m, void *dst, size_t off, size_t len)
{
	memcpy(dst, (uint8_t *)m->addr + off, len);
	return 0;
}

static int host_from_host(struct gdr_mem *m, size_t off, const void *src, size_t len)
{
	memcpy((uint8_t *)m->addr + off, src, len);
	return 0;
}

static int host_copy_async(struct gdr_mem *m, enum gdr_copy_dir dir, size_t off, void *host,
			   size_t len, int s)
{
	if (dir == GDR_TO_HOST)
		return host_to_host(m, host, off, len);
	return host_from_host(m, off, host, len);
}

static int host_sync(struct gdr_mem *m, int s)
{
	return 0;
}

static int host_poll(struct gdr_mem *m, int s)
{
	return 1;
}

static void *host_host_alloc(struct gdr_mem *m, size_t len)
{
	void *p;

	if (posix_memalign(&p, 4096, len ? len : 1)) {
		gdr_err("cannot allocate %zu bytes of bounce buffers", len);
		return NULL;
	}
	memset(p, 0, len);
	return p;
}

static void host_host_free(struct gdr_mem *m, void *p, size_t len)
{
	free(p);
}

const struct gdr_mem_ops gdr_mem_host_ops = GDR_MEM_OPS(host, "host", NULL, .device = false);

int gdr_mem_bounce_init(struct gdr_mem *b, struct gdr_mem *data, size_t len)
{
	memset(b, 0, sizeof(*b));
	b->ops = &gdr_mem_host_ops;
	b->priv = data;
	snprintf(b->desc, sizeof(b->desc), "pinned host bounce buffers");
	return host_alloc(b, len);
}

/* Release everything the backend holds (buffer, context, streams), once. */
void gdr_mem_fini(struct gdr_mem *m)
{
	if (m->ops)
		m->ops->free(m);
	m->ops = NULL;
}

/* Chunked through a host buffer so GPU memory works the same way. */
#define CHUNK (1UL << 20)

struct chunk_job {
	int (*fn)(struct gdr_mem *m, struct chunk_job *j, uint8_t *buf, size_t done, size_t n);
	size_t off;
	uint32_t seed;
	uint8_t byte;
	size_t src_off;
	size_t bad;
};

static int chunked(struct gdr_mem *m, struct chunk_job *j, size_t len)
{
	uint8_t *buf = malloc(len < CHUNK ? len + 1 : CHUNK);
	int ret = 0;

	if (!buf) {
		gdr_err("out of memory");
		return -2;
	}
	for (size_t done = 0, n; done < len && !ret; done += n) {
		n = len - done < CHUNK ? len - done : CHUNK;
		ret = j->fn(m, j, buf, done, n);
	}
	free(buf);
	return ret;
}

static int put_pattern(struct gdr_mem *m, struct chunk_job *j, uint8_t *buf, size_t done,
		       size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf[i] = gdr_pattern_byte(done + i, j->seed);
	return m->ops->from_host(m, j->off + done, buf, n);
}

static int put_byte(struct gdr_mem *m, struct chunk_job *j, uint8_t *buf, size_t done, size_t n)
{
	memset(buf, j->byte, n);
	return m->ops->from_host(m, j->off + done, buf, n);
}

static int cmp_pattern(struct gdr_mem *m, struct chunk_job *j, uint8_t *buf, size_t done,
		       size_t n)
{
	if (m->ops->to_host(m, buf, j->off + done, n))
		return -2; /* could not read it back: no offset to name */
	for (size_t i = 0; i < n; i++) {
		if (buf[i] != gdr_pattern_byte(j->src_off + done + i, j->seed)) {
			j->bad = j->off + done + i;
			return -1;
		}
	}
	return 0;
}

int gdr_mem_fill_pattern(struct gdr_mem *m, size_t off, size_t len, uint32_t seed)
{
	struct chunk_job j = { .fn = put_pattern, .off = off, .seed = seed };

	return chunked(m, &j, len);
}

int gdr_mem_fill_byte(struct gdr_mem *m, size_t off, size_t len, uint8_t byte)
{
	struct chunk_job j = { .fn = put_byte, .off = off, .byte = byte };

	return chunked(m, &j, len);
}

int gdr_mem_check_pattern(struct gdr_mem *m, size_t off, size_t src_off, size_t len,
			  uint32_t seed, size_t *bad)
{
	struct chunk_job j = { .fn = cmp_pattern, .off = off, .seed = seed, .src_off = src_off };
	int ret;

	/* What the NIC wrote must be visible to the reads below. */
	if (m->ops->flush_nic_writes && m->ops->flush_nic_writes(m))
		return -2;
	ret = chunked(m, &j, len);

	if (ret == -1 && bad)
		*bad = j.bad;
	return ret < -1 ? -2 : ret;
}
