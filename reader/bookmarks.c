/* SPDX-License-Identifier: MIT */
/* info/bookmarks.xml (doc/format.md section 11): user annotations of time intervals, kept as read. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "common/grow.h"
#include "common/io.h"
#include "common/parse.h"
#include "reader_internal.h"
#include "xml.h"

/* Larger bookmarks are refused unread (tens of thousands of bookmarks fit): the reader's memory stays
 * bounded by what the trace holds, not by what a file makes libxml2 build. */
#define BOOKMARKS_MAX_BYTES (4u << 20)

/* "SECONDS[.FRACTION]" (up to 9 decimals) to ns; -EINVAL otherwise. */
int ltt_parse_seconds(const char *s, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	int digits = 0, nfrac = 0;

	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return -EINVAL;
		sec = sec * 10 + (uint64_t)(*s - '0');
	}
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, digits++)
			if (nfrac < 9) {
				frac = frac * 10 + (uint64_t)(*s - '0');
				nfrac++;
			}
	if (*s || !digits)
		return -EINVAL;
	for (; nfrac < 9; nfrac++)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

static char *attr(xmlNodePtr n, const char *name)
{
	return (char *)xmlGetProp(n, (const xmlChar *)name);
}

/* Reads one <location>; 0, or -EINVAL with *what set. */
static int location(xmlNodePtr n, struct ltt_bookmark *b, const char **what)
{
	char *v;
	int ret = 0;

	b->cpu = -1;
	if ((v = attr(n, "name"))) {
		b->name = strdup(v);
		xmlFree(v);
	}
	if ((v = attr(n, "cpu"))) {
		uint64_t c;

		if (ltt_parse_u64(v, &c) || c > 1u << 20) {
			*what = "cpu is not a CPU number";
			ret = -EINVAL;
		}
		b->cpu = (int)c;
		xmlFree(v);
	}
	static const char *const tattr[] = { "time", "start_time", "end_time" };
	static const char *const cattr[] = { "cycle", "start_cycle", "end_cycle" };
	for (int i = 0; i < 3 && !ret; i++) {
		uint64_t x;

		if ((v = attr(n, tattr[i]))) {
			if (ltt_parse_seconds(v, &x)) {
				*what = "a time is not SECONDS[.FRACTION]";
				ret = -EINVAL;
			} else {
				b->has_time = 1;
				if (i != 2)
					b->start_ns = x;
				if (i != 1)
					b->end_ns = x;
			}
			xmlFree(v);
		}
		if (!ret && (v = attr(n, cattr[i]))) {
			if (ltt_parse_u64(v, &x)) {
				*what = "a cycle count is not an unsigned integer";
				ret = -EINVAL;
			} else {
				b->has_cycles = 1;
				if (i != 2)
					b->start_cycles = x;
				if (i != 1)
					b->end_cycles = x;
			}
			xmlFree(v);
		}
	}
	if (!ret && !b->has_time && !b->has_cycles) {
		*what = "no time, start_time, end_time, cycle, start_cycle or end_cycle";
		ret = -EINVAL;
	}
	v = (char *)xmlNodeGetContent(n);
	b->text = strdup(v ? v : "");
	xmlFree(v);
	return ret;
}

struct bm_load {
	struct trace *t;
	size_t cap;
	int root_ok;
};

static int bm_root(xmlNodePtr n, void *arg)
{
	struct bm_load *l = arg;

	if (strcmp((const char *)n->name, "bookmarks")) {
		rd_problem(l->t->reader, l->t, "info/bookmarks.xml", -1, (int)xmlGetLineNo(n),
			   "expected a <bookmarks> element; bookmarks ignored");
		return 1;
	}
	l->root_ok = 1;
	return 0;
}

static int bm_location(xmlNodePtr c, void *arg)
{
	struct bm_load *l = arg;
	struct trace *t = l->t;
	struct ltt_bookmark *b;
	const char *what = NULL;

	if (strcmp((const char *)c->name, "location")) {
		rd_problem(t->reader, t, "info/bookmarks.xml", -1, (int)xmlGetLineNo(c),
			   "<%s>: expected <location>; ignored", (const char *)c->name);
		return 0;
	}
	if (LTT_GROW(t->bookmarks, t->nbookmarks + 1, l->cap))
		return -ENOMEM;
	b = &t->bookmarks[t->nbookmarks];
	memset(b, 0, sizeof(*b));
	if (location(c, b, &what)) {
		rd_problem(t->reader, t, "info/bookmarks.xml", -1, (int)xmlGetLineNo(c),
			   "<location>: %s; ignored", what);
		free((char *)b->name);
		free((char *)b->text);
		memset(b, 0, sizeof(*b));
		return 0;
	}
	t->nbookmarks++;
	return 0;
}

int rd_bookmarks_load(struct trace *t)
{
	struct bm_load l = { .t = t };
	struct rd_xml_error e;
	char path[4096], *buf;
	size_t len;
	int ret;

	snprintf(path, sizeof(path), "%s/info/bookmarks.xml", t->dir);
	ret = ltt_read_small_file(path, 0, BOOKMARKS_MAX_BYTES, &buf, &len);
	if (ret) {
		if (rd_resource_error(ret) || ret == -ENOMEM)
			return ret;
		if (ret == -EFBIG)
			rd_problem(t->reader, t, "info/bookmarks.xml", -1, 0, "larger than %u bytes; bookmarks "
				   "ignored", BOOKMARKS_MAX_BYTES);
		else if (ret != -ENOENT)
			rd_problem(t->reader, t, "info/bookmarks.xml", -1, 0, "%s; bookmarks ignored",
				   ret == -LTT_ENOTREG ? "not a regular file" : strerror(-ret));
		return 0;
	}
	ret = rd_xml_stream(buf, len, "info/bookmarks.xml", bm_root, bm_location, &l, &e);
	free(buf);
	if (ret == -ENOMEM) {
		rd_bookmarks_free(t);
		return ret;
	}
	if (ret == -EBADMSG)
		rd_problem(t->reader, t, "info/bookmarks.xml", -1, e.line, "malformed XML (%s); bookmarks "
			   "ignored", e.msg);
	if (ret || !l.root_ok) {
		rd_bookmarks_free(t);
		return 0;
	}
	t->info.bookmarks = t->bookmarks;
	t->info.nbookmarks = (unsigned)t->nbookmarks;
	return 0;
}

void rd_bookmarks_free(struct trace *t)
{
	for (size_t i = 0; i < t->nbookmarks; i++) {
		free((char *)t->bookmarks[i].name);
		free((char *)t->bookmarks[i].text);
	}
	free(t->bookmarks);
	t->bookmarks = NULL;
	t->nbookmarks = 0;
}
