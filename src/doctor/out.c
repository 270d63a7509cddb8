/* SPDX-License-Identifier: MIT */
/* gdr_doctor's findings: collected by check, printed as text or JSON, counted. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "log.h"
#include "out.h"
#include "prom.h"

void out_init(struct out *o)
{
	memset(o, 0, sizeof(*o));
	o->cur = -1;
}

void out_free(struct out *o)
{
	for (int i = 0; i < o->nitems; i++) {
		free(o->items[i].text);
		free(o->items[i].next);
	}
	free(o->items);
	free(o->pairs);
	out_init(o);
}

void out_group(struct out *o, const char *title)
{
	for (int i = 0; i < o->ngroups; i++) {
		if (!strcmp(o->groups[i], title)) {
			o->cur = i;
			return;
		}
	}
	if (o->ngroups == OUT_MAX_GROUPS)
		return;
	o->groups[o->ngroups] = title;
	o->cur = o->ngroups++;
}

/*
 * gcc 12's -fanalyzer reports the strings as leaked once realloc has moved
 * o->items: it does not carry the pointers over to the new block (out_free
 * frees them).
 */
#ifndef __clang__
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wanalyzer-malloc-leak"
#endif
void out_add(struct out *o, enum out_level level, const char *id, const char *next, const char *fmt,
	     ...)
{
	struct out_item *it;
	char line[1024];
	va_list ap;

	if (o->cur < 0)
		out_group(o, "General");
	if (o->nitems == o->cap) {
		int cap = o->cap ? o->cap * 2 : 32;
		struct out_item *v = realloc(o->items, (size_t)cap * sizeof(*v));

		if (!v)
			return;
		o->items = v;
		o->cap = cap;
	}
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	it = &o->items[o->nitems];
	memset(it, 0, sizeof(*it));
	it->group = o->cur;
	it->level = level;
	snprintf(it->id, sizeof(it->id), "%s", id);
	it->text = strdup(line);
	it->next = next ? strdup(next) : NULL;
	if (!it->text) {
		free(it->next);
		return;
	}
	o->nitems++;
}
#ifndef __clang__
#pragma GCC diagnostic pop
#endif

void out_pair(struct out *o, const char *gpu, int gpu_index, const char *nic, const char *rel)
{
	out_link(o, gpu, gpu_index, nic, -1, rel);
}

void out_link(struct out *o, const char *gpu, int gpu_index, const char *peer, int peer_index,
	      const char *rel)
{
	struct out_pair *p;

	if (o->npairs == o->pcap) {
		int cap = o->pcap ? o->pcap * 2 : 16;
		struct out_pair *v = realloc(o->pairs, (size_t)cap * sizeof(*v));

		if (!v)
			return;
		o->pairs = v;
		o->pcap = cap;
	}
	p = &o->pairs[o->npairs++];
	snprintf(p->gpu, sizeof(p->gpu), "%s", gpu);
	p->gpu_index = gpu_index;
	snprintf(p->nic, sizeof(p->nic), "%s", peer);
	p->peer_index = peer_index;
	snprintf(p->rel, sizeof(p->rel), "%s", rel);
}

int out_count(const struct out *o, enum out_level level)
{
	int n = 0;

	for (int i = 0; i < o->nitems; i++)
		n += o->items[i].level == level;
	return n;
}

const char *out_level_name(enum out_level level)
{
	switch (level) {
	case OUT_OK:
		return "OK";
	case OUT_WARN:
		return "WARN";
	case OUT_FAIL:
		return "FAIL";
	default:
		return "INFO";
	}
}

void out_print_text(const struct out *o, FILE *f, const char *header)
{
	int nfail = out_count(o, OUT_FAIL), nwarn = out_count(o, OUT_WARN);

	fprintf(f, "%s\n", header);
	for (int g = 0; g < o->ngroups; g++) {
		fprintf(f, "\n== %s ==\n", o->groups[g]);
		for (int i = 0; i < o->nitems; i++) {
			const struct out_item *it = &o->items[i];

			if (it->group != g)
				continue;
			fprintf(f, "  %-5s %s\n", out_level_name(it->level), it->text);
			if (it->next)
				fprintf(f, "        next: %s\n", it->next);
		}
	}
	fprintf(f, "\n== Verdict ==\n");
	if (nfail)
		fprintf(
		    f, "  FAIL  GPUDirect RDMA is not ready: %d problem(s) marked FAIL, %d WARN.\n",
		    nfail, nwarn);
	else if (nwarn)
		fprintf(f, "  WARN  GPUDirect RDMA should work; %d WARN line(s) may cost speed.\n",
			nwarn);
	else
		fprintf(f, "  OK    GPUDirect RDMA should work.\n");
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* "pairs": GPU x RDMA device relations, or "gpu_links": GPU x GPU links. */
static void json_pairs(const struct out *o, FILE *f, bool links)
{
	int n = 0;

	fputs(links ? "  \"gpu_links\": [" : "  \"pairs\": [", f);
	for (int i = 0; i < o->npairs; i++) {
		const struct out_pair *p = &o->pairs[i];

		if ((p->peer_index >= 0) != links)
			continue;
		fputs(n++ ? ",\n    {" : "\n    {", f);
		fprintf(f, "\"gpu\": %d, \"gpu_pci\": ", p->gpu_index);
		json_str(f, p->gpu);
		if (links)
			fprintf(f, ", \"peer\": %d, \"peer_pci\": ", p->peer_index);
		else
			fputs(", \"rdma_dev\": ", f);
		json_str(f, p->nic);
		fputs(links ? ", \"link\": " : ", \"relation\": ", f);
		json_str(f, p->rel);
		fputc('}', f);
	}
	fputs(n ? "\n  ]" : "]", f);
}

void out_print_json(const struct out *o, FILE *f, const char *host, const char *version)
{
	int nfail = out_count(o, OUT_FAIL), nwarn = out_count(o, OUT_WARN);

	fputs("{\n  \"tool\": \"gdr_doctor\",\n  \"version\": ", f);
	json_str(f, version);
	fputs(",\n  \"host\": ", f);
	json_str(f, host);
	fprintf(f, ",\n  \"verdict\": \"%s\",\n  \"fail\": %d,\n  \"warn\": %d,\n",
		nfail	? "FAIL"
		: nwarn ? "WARN"
			: "OK",
		nfail, nwarn);
	fputs("  \"checks\": [", f);
	for (int i = 0; i < o->nitems; i++) {
		const struct out_item *it = &o->items[i];

		fputs(i ? ",\n    {" : "\n    {", f);
		fputs("\"group\": ", f);
		json_str(f, o->groups[it->group]);
		fputs(", \"check\": ", f);
		json_str(f, it->id);
		fprintf(f, ", \"status\": \"%s\", \"message\": ", out_level_name(it->level));
		json_str(f, it->text);
		if (it->next) {
			fputs(", \"next\": ", f);
			json_str(f, it->next);
		}
		fputc('}', f);
	}
	fputs(o->nitems ? "\n  ],\n" : "],\n", f);
	json_pairs(o, f, false);
	fputs(",\n", f);
	json_pairs(o, f, true);
	fputs("\n}\n", f);
}

/* --prom: one gauge per check (its worst finding: 0 ok, 1 warn, 2 fail), and the verdict. */
int out_write_prom(const struct out *o, const char *path, const char *host)
{
	const char *name = "gdr_doctor_check";
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int nfail = out_count(o, OUT_FAIL), nwarn = out_count(o, OUT_WARN), ret;

	if (!f) {
		gdr_err("--prom=%s: out of memory", path);
		return -1;
	}
	gdr_prom_family(f, name, "worst finding of a gdr_doctor check: 0 ok, 1 warn, 2 fail");
	for (int i = 0; i < o->nitems; i++) {
		const struct out_item *it = &o->items[i];
		int worst = 0, seen = 0;

		for (int j = 0; j < o->nitems && !seen; j++) /* one series per check id */
			seen = j < i && !strcmp(o->items[j].id, it->id);
		if (seen)
			continue;
		for (int j = i; j < o->nitems; j++) {
			const struct out_item *x = &o->items[j];
			int v = x->level == OUT_FAIL ? 2 : x->level == OUT_WARN ? 1 : 0;

			if (!strcmp(x->id, it->id) && v > worst)
				worst = v;
		}
		gdr_prom_gauge(f, name,
			       (struct gdr_prom_label[]){{"host", host},
							 {"group", o->groups[it->group]},
							 {"check", it->id}},
			       3, worst);
	}
	gdr_prom_family(f, "gdr_doctor_verdict", "the host as a whole: 0 ok, 1 warn, 2 fail");
	gdr_prom_gauge(f, "gdr_doctor_verdict", (struct gdr_prom_label[]){{"host", host}}, 1,
		       nfail ? 2 : nwarn ? 1 : 0);
	if (fclose(f)) {
		free(text);
		gdr_err("--prom=%s: out of memory", path);
		return -1;
	}
	ret = gdr_prom_commit(path, "--prom", text, len);
	free(text);
	return ret;
}
