/* SPDX-License-Identifier: MIT */
/*
 * CSV reporter (--csv=FILE): appends one row per result to FILE; writes the
 * header only when FILE is new or empty and refuses to append to a file
 * whose header differs. Each row goes out in one write() on an O_APPEND
 * descriptor, so an interrupted run never leaves half a row. Fields are
 * quoted as RFC 4180 says (lines end in LF).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "log.h"
#include "report_priv.h"

struct csv {
	int fd;
	char *path;
};

void gdr_csv_put_field(struct gdr_sbuf *b, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		gdr_sbuf_puts(b, s);
		return;
	}
	gdr_sbuf_putc(b, '"');
	for (; *s; s++) {
		if (*s == '"')
			gdr_sbuf_putc(b, '"');
		gdr_sbuf_putc(b, *s);
	}
	gdr_sbuf_putc(b, '"');
}

static const struct gdr_cell_style csv_style = {
    .none = "", .str = gdr_csv_put_field, .yes = "1", .no = "0"};

void gdr_csv_cells(struct gdr_sbuf *b, const struct gdr_cell *c, int n, bool names)
{
	int i;

	for (i = 0; i < n; i++) {
		if (b->len && b->p[b->len - 1] != '\n')
			gdr_sbuf_putc(b, ',');
		if (names)
			gdr_csv_put_field(b, c[i].name);
		else
			gdr_put_cell(b, &c[i], &csv_style);
	}
}

static void build_line(struct gdr_sbuf *b, const struct gdr_run_info *ri,
		       const struct gdr_result *r)
{
	struct gdr_cell c[GDR_MAX_CELLS];
	int n;

	n = gdr_cells_run(ri, c, GDR_MAX_CELLS);
	gdr_csv_cells(b, c, n, !r);
	n = gdr_cells_result(ri, r, c, GDR_MAX_CELLS);
	gdr_csv_cells(b, c, n, !r);
	gdr_sbuf_putc(b, '\n');
}

/* One write() for the whole line; retried only on EINTR before anything went out. */
static int write_line(struct csv *cv, const struct gdr_sbuf *b)
{
	ssize_t w;

	if (b->oom) {
		gdr_err("--csv=%s: out of memory formatting a row", cv->path);
		return -1;
	}
	do {
		w = write(cv->fd, b->p, b->len);
	} while (w < 0 && errno == EINTR);
	if (w < 0 || (size_t)w != b->len) {
		gdr_err("--csv=%s: write failed: %s (check free space and permissions)", cv->path,
			w < 0 ? strerror(errno) : "short write");
		return -1;
	}
	return 0;
}

/* Reads the first line of the file (without its '\n') into b. */
static int read_first_line(struct csv *cv, struct gdr_sbuf *b)
{
	char chunk[4097];
	off_t off = 0;
	ssize_t n;

	for (;;) {
		char *nl;

		n = pread(cv->fd, chunk, sizeof(chunk) - 1, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			gdr_err("--csv=%s: cannot read the existing header: %s", cv->path,
				strerror(errno));
			return -1;
		}
		if (n == 0)
			return 0;
		chunk[n] = '\0';
		nl = strchr(chunk, '\n');
		if (nl)
			*nl = '\0';
		gdr_sbuf_puts(b, chunk);
		if (nl || b->len > 65536)
			return 0;
		off += n;
	}
}

static int csv_begin(void *ctx, const struct gdr_run_info *ri)
{
	struct csv *cv = ctx;
	struct gdr_sbuf head = {0}, old = {0};
	struct stat st;
	int ret = -1;

	build_line(&head, ri, NULL);
	if (flock(cv->fd, LOCK_EX) < 0) {
		gdr_err("--csv=%s: cannot lock the file: %s", cv->path, strerror(errno));
		goto out;
	}
	if (fstat(cv->fd, &st) < 0) {
		gdr_err("--csv=%s: %s", cv->path, strerror(errno));
		goto out_unlock;
	}
	if (st.st_size == 0) {
		ret = write_line(cv, &head);
		goto out_unlock;
	}
	if (read_first_line(cv, &old) < 0)
		goto out_unlock;
	if (head.oom || old.oom || old.len + 1 != head.len || memcmp(old.p, head.p, old.len) != 0) {
		gdr_err("--csv=%s: the file's header has other columns than this run writes "
			"(different --percentiles or gdrperf version?); write to a new file",
			cv->path);
		goto out_unlock;
	}
	ret = 0;
out_unlock:
	flock(cv->fd, LOCK_UN);
out:
	gdr_sbuf_free(&head);
	gdr_sbuf_free(&old);
	return ret;
}

static int csv_row(void *ctx, const struct gdr_run_info *ri, const struct gdr_result *r)
{
	struct gdr_sbuf line = {0};
	int ret;

	build_line(&line, ri, r);
	ret = write_line(ctx, &line);
	gdr_sbuf_free(&line);
	return ret;
}

static int csv_end(void *ctx, const struct gdr_run_info *ri)
{
	struct csv *cv = ctx;

	if (fsync(cv->fd) < 0 && errno != EINVAL && errno != EROFS) {
		gdr_err("--csv=%s: cannot flush to disk: %s", cv->path, strerror(errno));
		return -1;
	}
	return 0;
}

static void csv_destroy(void *ctx)
{
	struct csv *cv = ctx;

	if (cv->fd >= 0)
		close(cv->fd);
	free(cv->path);
	free(cv);
}

static const struct gdr_reporter_ops csv_ops = {
    .name = "csv",
    .begin = csv_begin,
    .row = csv_row,
    .end = csv_end,
    .destroy = csv_destroy,
};

int gdr_report_csv_new(struct gdr_reporter *r, const char *path)
{
	struct csv *cv = calloc(1, sizeof(*cv));

	if (!cv || !(cv->path = strdup(path))) {
		free(cv);
		gdr_err("--csv=%s: out of memory", path);
		return -1;
	}
	cv->fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (cv->fd < 0) {
		gdr_err("--csv=%s: cannot open for appending: %s", path, strerror(errno));
		csv_destroy(cv);
		return -1;
	}
	r->ops = &csv_ops;
	r->ctx = cv;
	return 0;
}

static int csv_open(struct gdr_reporter *r, const struct gdr_report_files *f)
{
	if (!f->csv)
		return 0;
	return gdr_report_csv_new(r, f->csv) < 0 ? -1 : 1;
}

const struct gdr_reporter_kind gdr_reporter_csv = {"csv", csv_open};
