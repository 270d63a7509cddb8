/* SPDX-License-Identifier: MIT */
/* The stager: ordered asynchronous copies, own streams per direction (see stager.h). */
#include "config.h"
#include <time.h>
#include "stager.h"

void gdr_stager_init(struct gdr_stager *s, struct gdr_mem *data, unsigned int streams)
{
	*s = (struct gdr_stager){.data = data, .streams = streams};
	if (!streams || streams > GDR_STAGER_STREAMS)
		s->streams = GDR_STAGER_STREAMS;
}

/* Stream of the n-th copy of direction d: device->host on 0..S-1, host->device on S..2S-1. */
static int stream_of(const struct gdr_stager *s, enum gdr_copy_dir d, uint64_t n)
{
	return (int)((d == GDR_TO_HOST ? 0 : s->streams) + n % s->streams);
}

unsigned int gdr_stager_room(const struct gdr_stager *s, enum gdr_copy_dir d)
{
	return s->streams - (unsigned int)(s->submitted[d] - s->done[d]);
}

int gdr_stager_submit(struct gdr_stager *s, enum gdr_copy_dir d, size_t off, void *host, size_t len)
{
	if (s->data->ops->copy_async(s->data, d, off, host, len, stream_of(s, d, s->submitted[d])))
		return -1;
	s->submitted[d]++;
	return 0;
}

int gdr_stager_reap(struct gdr_stager *s, enum gdr_copy_dir d)
{
	int n = 0;

	while (s->done[d] < s->submitted[d]) {
		int idle = s->data->ops->poll(s->data, stream_of(s, d, s->done[d]));

		if (idle < 0)
			return -1;
		if (!idle)
			break;
		s->done[d]++;
		n++;
	}
	return n;
}

int gdr_stager_drain(struct gdr_stager *s, enum gdr_copy_dir d)
{
	for (; s->done[d] < s->submitted[d]; s->done[d]++)
		if (s->data->ops->sync(s->data, stream_of(s, d, s->done[d])))
			return -1;
	return 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Keep every stream of the directions busy until the budget is spent. */
double gdr_stager_rate(struct gdr_stager *s, unsigned int dirs, uint8_t *host, size_t chunk,
		       size_t span, size_t rx, double budget_s)
{
	uint64_t slots = span / chunk ? span / chunk : 1, bytes = 0;
	double t0 = now_s(), t;

	do {
		for (int d = GDR_TO_HOST; d <= GDR_FROM_HOST; d++) {
			if (!(dirs & 1u << d))
				continue;
			if (gdr_stager_reap(s, (enum gdr_copy_dir)d) < 0)
				return -1;
			while (gdr_stager_room(s, (enum gdr_copy_dir)d)) {
				size_t off = (size_t)(s->submitted[d] % slots) * chunk +
					     (d == GDR_FROM_HOST ? rx : 0);

				if (gdr_stager_submit(s, (enum gdr_copy_dir)d, off, host + off,
						      chunk))
					return -1;
				bytes += chunk;
			}
		}
		t = now_s();
	} while (t - t0 < budget_s);
	for (int d = GDR_TO_HOST; d <= GDR_FROM_HOST; d++)
		if ((dirs & 1u << d) && gdr_stager_drain(s, (enum gdr_copy_dir)d))
			return -1;
	t = now_s();
	return t > t0 ? (double)bytes / (t - t0) : 0;
}
