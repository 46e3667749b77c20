/* info/bookmarks.xml (doc/format.md section 11): user annotations of time intervals, kept as read. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "reader_internal.h"

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

static int parse_u64(const char *s, uint64_t *v)
{
	char *e;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &e, 10);
	return errno || *e ? -EINVAL : 0;
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

		if (parse_u64(v, &c) || c > 1u << 20) {
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
			if (parse_u64(v, &x)) {
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

int rd_bookmarks_load(struct trace *t)
{
	char path[4096];
	xmlDocPtr doc;
	xmlNodePtr root;
	size_t n = 0;
	struct stat st;
	int fd;

	snprintf(path, sizeof(path), "%s/info/bookmarks.xml", t->dir);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);	/* a FIFO must not block */
	if (fd < 0) {
		if (rd_resource_error(-errno))
			return -errno;
		if (errno != ENOENT)
			rd_problem(t->reader, t, "info/bookmarks.xml", -1, 0, "%s; bookmarks ignored",
				   strerror(errno));
		return 0;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		rd_problem(t->reader, t, "info/bookmarks.xml", -1, 0, "not a regular file; bookmarks ignored");
		return 0;
	}
	doc = xmlReadFd(fd, path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
	close(fd);
	if (!doc) {
		const xmlError *e = xmlGetLastError();

		rd_problem(t->reader, t, "info/bookmarks.xml", -1, e ? e->line : 0,
			   "malformed XML; bookmarks ignored");
		return 0;
	}
	root = xmlDocGetRootElement(doc);
	if (!root || strcmp((const char *)root->name, "bookmarks")) {
		rd_problem(t->reader, t, "info/bookmarks.xml", -1, root ? (int)xmlGetLineNo(root) : 1,
			   "expected a <bookmarks> element; bookmarks ignored");
		xmlFreeDoc(doc);
		return 0;
	}
	for (xmlNodePtr c = root->children; c; c = c->next)
		n += c->type == XML_ELEMENT_NODE;
	t->bookmarks = calloc(n ? n : 1, sizeof(*t->bookmarks));
	if (!t->bookmarks) {
		xmlFreeDoc(doc);
		return -ENOMEM;
	}
	for (xmlNodePtr c = root->children; c; c = c->next) {
		struct ltt_bookmark *b = &t->bookmarks[t->nbookmarks];
		const char *what = NULL;

		if (c->type != XML_ELEMENT_NODE)
			continue;
		if (strcmp((const char *)c->name, "location")) {
			rd_problem(t->reader, t, "info/bookmarks.xml", -1, (int)xmlGetLineNo(c),
				   "<%s>: expected <location>; ignored", (const char *)c->name);
			continue;
		}
		if (location(c, b, &what)) {
			rd_problem(t->reader, t, "info/bookmarks.xml", -1, (int)xmlGetLineNo(c),
				   "<location>: %s; ignored", what);
			free((char *)b->name);
			free((char *)b->text);
			memset(b, 0, sizeof(*b));
			continue;
		}
		t->nbookmarks++;
	}
	xmlFreeDoc(doc);
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
}
