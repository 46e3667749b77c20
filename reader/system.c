/* SPDX-License-Identifier: MIT */
/* info/system.xml (doc/format.md section 3): libxml2 for well-formed files, and a lenient attribute
 * scanner for the original dialect's bare values. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "common/grow.h"
#include "common/io.h"
#include "common/parse.h"
#include "reader_internal.h"
#include "xml.h"

#define SYSTEM_XML_MAX (1u << 20)

static int add_attr(struct trace *t, const char *name, size_t nlen, const char *value, size_t vlen)
{
	char **n, **v;

	if (LTT_GROW(t->attr_names, t->nattrs + 1, t->cap_names) ||
	    LTT_GROW(t->attr_values, t->nattrs + 1, t->cap_values))
		return -ENOMEM;
	n = t->attr_names;
	v = t->attr_values;
	n[t->nattrs] = strndup(name, nlen);
	v[t->nattrs] = strndup(value, vlen);
	if (!n[t->nattrs] || !v[t->nattrs]) {
		free(n[t->nattrs]);
		free(v[t->nattrs]);
		return -ENOMEM;
	}
	t->nattrs++;
	return 0;
}

static int parse_libxml(struct trace *t, const char *buf, size_t len, int *line)
{
	struct rd_xml_error e;
	xmlDocPtr doc = rd_xml_parse(buf, len, "system.xml", &e);
	xmlNodePtr root;
	int ret = 0;

	if (!doc) {
		*line = e.line;
		return -EINVAL;
	}
	root = xmlDocGetRootElement(doc);
	if (!root || strcmp((const char *)root->name, "system")) {
		*line = root ? (int)xmlGetLineNo(root) : 1;
		xmlFreeDoc(doc);
		return -EBADMSG;
	}
	for (xmlAttrPtr a = root->properties; a && !ret; a = a->next) {
		xmlChar *v = xmlNodeListGetString(doc, a->children, 1);
		const char *vs = v ? (const char *)v : "";

		ret = add_attr(t, (const char *)a->name, strlen((const char *)a->name), vs, strlen(vs));
		xmlFree(v);
	}
	xmlFreeDoc(doc);
	return ret;
}

/* Decodes the five predefined entities in place; returns the new length. */
static size_t unescape(char *s, size_t n)
{
	static const struct { const char *e; char c; } ents[] = {
		{ "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&apos;", '\'' },
	};
	size_t o = 0;

	for (size_t i = 0; i < n; ) {
		size_t k;

		for (k = 0; k < sizeof(ents) / sizeof(ents[0]); k++) {
			size_t el = strlen(ents[k].e);

			if (i + el <= n && !memcmp(s + i, ents[k].e, el)) {
				s[o++] = ents[k].c;
				i += el;
				break;
			}
		}
		if (k == sizeof(ents) / sizeof(ents[0]))
			s[o++] = s[i++];
	}
	return o;
}

/* <system name=value name="value" name='value' ...>: the original tools' dialect. */
static int parse_lenient(struct trace *t, char *buf, size_t len, int *line)
{
	char *p = memmem(buf, len, "<system", 7), *end = buf + len;
	int ret;

	if (!p || (p + 7 < end && !isspace((unsigned char)p[7]) && p[7] != '>' && p[7] != '/')) {
		*line = 1;
		return -EBADMSG;
	}
	p += 7;
	for (;;) {
		char *name, *val;
		size_t nlen, vlen;

		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end)
			goto bad;
		if (*p == '>' || *p == '/')
			return 0;
		name = p;
		while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '-' || *p == ':'))
			p++;
		nlen = (size_t)(p - name);
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (!nlen || p >= end || *p != '=')
			goto bad;
		p++;
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end)
			goto bad;
		if (*p == '"' || *p == '\'') {
			char q = *p++;

			val = p;
			while (p < end && *p != q)
				p++;
			if (p >= end)
				goto bad;
			vlen = (size_t)(p - val);
			p++;
		} else {
			val = p;
			while (p < end && !isspace((unsigned char)*p) && *p != '>')
				p++;
			vlen = (size_t)(p - val);
		}
		vlen = unescape(val, vlen);
		ret = add_attr(t, name, nlen, val, vlen);
		if (ret)
			return ret;
	}
bad:
	*line = 1;
	for (char *q = buf; q < p && q < end; q++)
		*line += *q == '\n';
	return -EBADMSG;
}

/* Reads DIR/info/system.xml into t's attributes; messages name it SHOWN/info/system.xml. */
static int system_parse(struct trace *t, const char *dir, const char *shown, char *err, size_t errlen)
{
	char path[4096], *buf = NULL;
	size_t len = 0;
	int line = 0, ret;

	snprintf(path, sizeof(path), "%s/info/system.xml", dir);
	ret = ltt_read_small_file(path, 0, SYSTEM_XML_MAX, &buf, &len);
	if (ret) {
		rd_seterr(err, errlen, "%s/info/system.xml: %s", shown,
			  ret == -ENOENT ? "missing (not a trace directory?)" :
			  ret == -LTT_ENOTREG ? "not a regular file" : strerror(-ret));
		return ret;
	}
	ret = parse_libxml(t, buf, len, &line);
	if (ret == -EINVAL) {
		int l2 = 0;

		ret = parse_lenient(t, buf, len, &l2);
		if (ret && l2)
			line = l2;
	}
	free(buf);
	if (ret) {
		rd_seterr(err, errlen, "%s/info/system.xml: line %d: %s", shown, line,
			  ret == -ENOMEM ? "out of memory" : "malformed XML (expected one <system> element)");
		return ret;
	}
	return 0;
}

int rd_system_load(struct trace *t, char *err, size_t errlen)
{
	const char *s;
	uint64_t v;
	enum ltt_arch_size arch;
	int ret = system_parse(t, t->dir, t->path, err, errlen);

	if (ret)
		return ret;
#define BAD(...) do { rd_seterr(err, errlen, "%s/info/system.xml: " __VA_ARGS__); return -EBADMSG; } while (0)
	s = ltt_trace_attr(&t->info, "endian");
	if (!s)
		BAD("missing attribute endian", t->path);
	if (!strcmp(s, "little") || !strcmp(s, "LITTLE_ENDIAN"))
		t->info.big_endian = 0;
	else if (!strcmp(s, "big") || !strcmp(s, "BIG_ENDIAN"))
		t->info.big_endian = 1;
	else
		BAD("endian=\"%s\": expected little or big", t->path, s);
	s = ltt_trace_attr(&t->info, "arch_size");
	if (!s)
		BAD("missing attribute arch_size", t->path);
	if (ltt_arch_size_parse(s, &arch))
		BAD("arch_size=\"%s\": expected LP32, ILP32, LP64 or ILP64", t->path, s);
	t->info.arch_size = arch;
	s = ltt_trace_attr(&t->info, "ltt_block_size");
	if (!s)
		BAD("missing attribute ltt_block_size", t->path);
	if (ltt_parse_u64_in(s, 64, 1ull << 31, &v))
		BAD("ltt_block_size=\"%s\": expected a number of bytes from 64 to 2^31", t->path, s);
	t->info.block_size = (uint32_t)v;
	s = ltt_trace_attr(&t->info, "ltt_major_version");
	if (s && ltt_parse_u64_in(s, 2, 2, &v))
		BAD("ltt_major_version=\"%s\": only version 2 is known", t->path, s);
	s = ltt_trace_attr(&t->info, "ltt_minor_version");
	if (!s)
		BAD("missing attribute ltt_minor_version", t->path);
	if (ltt_parse_u64_in(s, 0, 1000000, &v))
		BAD("ltt_minor_version=\"%s\": not a number", t->path, s);
	t->info.minor_version = (unsigned)v;
	t->v1 = v <= 2;
	t->v2 = v >= 3 && v <= 9;
	s = ltt_trace_attr(&t->info, "cpu");
	if (s && ltt_parse_u64_in(s, 0, 1u << 20, &v))
		BAD("cpu=\"%s\": not a number of CPUs", t->path, s);
	t->info.ncpus = s ? (unsigned)v : 0;
	s = ltt_trace_attr(&t->info, "ltt_cycles_per_second");
	if (s && ltt_parse_u64_in(s, 1, UINT64_MAX, &v))
		BAD("ltt_cycles_per_second=\"%s\": not a number", t->path, s);
	t->info.cycles_per_second = s ? v : 0;
#undef BAD
	return 0;
}

const char *ltt_trace_attr(const struct ltt_trace_info *info, const char *name)
{
	const struct trace *t = (const struct trace *)info;

	for (size_t i = 0; i < t->nattrs; i++)
		if (!strcmp(t->attr_names[i], name))
			return t->attr_values[i];
	return NULL;
}

void rd_system_free(struct trace *t)
{
	for (size_t i = 0; i < t->nattrs; i++) {
		free(t->attr_names[i]);
		free(t->attr_values[i]);
	}
	free(t->attr_names);
	free(t->attr_values);
	t->attr_names = t->attr_values = NULL;
	t->nattrs = 0;
}

/* info/system.xml alone: the attributes of a trace that is not opened (include/ltt/reader.h). */
struct ltt_system {
	struct trace t;		/* only its attributes are used */
};

int ltt_system_read(const char *dir, struct ltt_system **out, char *err, size_t errlen)
{
	struct ltt_system *s = calloc(1, sizeof(*s));
	int ret;

	*out = NULL;
	if (!s) {
		rd_seterr(err, errlen, "%s/info/system.xml: out of memory", dir);
		return -ENOMEM;
	}
	ret = system_parse(&s->t, dir, dir, err, errlen);
	if (ret) {
		ltt_system_free(s);
		/* the codes reader.h promises: not a regular file, or not one <system>, is -EBADMSG */
		return ret == -LTT_ENOTREG || ret == -EINVAL ? -EBADMSG : ret;
	}
	*out = s;
	return 0;
}

const char *ltt_system_attr(const struct ltt_system *s, const char *name)
{
	return ltt_trace_attr(&s->t.info, name);
}

void ltt_system_free(struct ltt_system *s)
{
	if (!s)
		return;
	rd_system_free(&s->t);
	free(s);
}
