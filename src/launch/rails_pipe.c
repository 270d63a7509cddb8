/* SPDX-License-Identifier: MIT */
/* The messages up a rail client's pipe (rails_int.h): written by the client, read by the launcher.
 */
#include "config.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rails_int.h"

static int put_all(int fd, const void *p, size_t len)
{
	const char *c = p;

	while (len) {
		ssize_t w = write(fd, c, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		len -= (size_t)w;
	}
	return 0;
}

int gdr_rail_put(int fd, uint32_t type, const void *a, size_t alen, const void *b, size_t blen)
{
	struct rail_hdr h = {type, (uint32_t)(alen + blen)};

	return put_all(fd, &h, sizeof(h)) || (alen && put_all(fd, a, alen)) ||
		       (blen && put_all(fd, b, blen))
		   ? -1
		   : 0;
}

/* len bytes, or 0 at the end of the pipe, -1 error. */
static int get_all(int fd, void *p, size_t len)
{
	char *c = p;

	while (len) {
		ssize_t r = read(fd, c, len);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r;
		c += r;
		len -= (size_t)r;
	}
	return 1;
}

/*
 * gcc 12's -fanalyzer reports the counters as leaked once realloc has moved r->cnts: it
 * does not carry the pointers over to the new block (each is freed with its rail, in
 * gdr_rails_main); it reports them where add_row is called too, so both functions are
 * covered.
 */
#ifndef __clang__
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
#endif
static int add_row(struct rail *r, const char *body, uint32_t len)
{
	const struct rail_row *w = (const void *)body;
	size_t ncnt = (len - sizeof(*w)) / sizeof(struct gdr_cnt_delta);
	struct gdr_cnt_delta *d = NULL, **cnts;
	struct rail_row *rows;

	if (ncnt) { /* the row's counters, copied before the arrays grow: one owner at a time */
		d = malloc(ncnt * sizeof(*d));
		if (!d)
			return -1;
		memcpy(d, body + sizeof(*w), ncnt * sizeof(*d));
	}
	rows = realloc(r->rows, (size_t)(r->nrow + 1) * sizeof(*rows));
	if (!rows) {
		free(d);
		return -1;
	}
	r->rows = rows;
	cnts = realloc(r->cnts, (size_t)(r->nrow + 1) * sizeof(*cnts));
	if (!cnts) {
		free(d);
		return -1;
	}
	r->cnts = cnts;
	cnts[r->nrow] = d;
	rows[r->nrow] = *w;
	rows[r->nrow].r.ncnt = w->r.ncnt < 0 ? -1 : (int)ncnt;
	r->nrow++;
	return 1;
}

int gdr_rail_read(struct rail *r)
{
	struct rail_hdr h;
	char *body = NULL;
	int rc = get_all(r->up, &h, sizeof(h));

	if (rc <= 0)
		return rc;
	if (h.len > (1u << 24) || !(body = calloc(1, h.len + 1)))
		return -1;
	rc = get_all(r->up, body, h.len);
	if (rc > 0) {
		switch (h.type) {
		case RAIL_INFO:
			if (h.len != sizeof(struct rail_info))
				goto bad;
			const struct rail_info *in = (const void *)body;

			r->ri = in->ri;
			memcpy(r->test, in->test, sizeof(r->test));
			memcpy(r->mem_kind, in->mem_kind, sizeof(r->mem_kind));
			r->test[sizeof(r->test) - 1] = r->mem_kind[sizeof(r->mem_kind) - 1] = '\0';
			r->has_info = true;
			break;
		case RAIL_READY:
			if (h.len != sizeof(uint64_t))
				goto bad;
			memcpy(&r->size, body, sizeof(r->size));
			r->nready++;
			r->waiting = true;
			break;
		case RAIL_ROW:
			if (h.len < sizeof(struct rail_row))
				goto bad;
			rc = add_row(r, body, h.len);
			break;
		case RAIL_END:
			memcpy(r->stopped, body,
			       h.len < sizeof(r->stopped) ? h.len : sizeof(r->stopped));
			r->stopped[sizeof(r->stopped) - 1] = '\0';
			r->ended = true;
			break;
		case RAIL_ERROR:
			memcpy(r->error, body, h.len < sizeof(r->error) ? h.len : sizeof(r->error));
			r->error[sizeof(r->error) - 1] = '\0';
			break;
		default:
			goto bad;
		}
	}
	free(body);
	return rc;
bad:
	free(body);
	return -1;
}
#ifndef __clang__
#pragma GCC diagnostic pop
#endif
