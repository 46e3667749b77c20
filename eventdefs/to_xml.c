/* SPDX-License-Identifier: MIT */
/* A facility model back to canonical XML text (what the generator embeds and the recorder writes). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

struct sbuf {
	char *buf;
	size_t len, cap;
	int nomem;
};

static void sput(struct sbuf *b, const char *s, size_t n)
{
	if (b->nomem)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 1024;
		char *p;

		while (b->len + n + 1 > cap)
			cap *= 2;
		p = realloc(b->buf, cap);
		if (!p) {
			b->nomem = 1;
			return;
		}
		b->buf = p;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, s, n);
	b->len += n;
	b->buf[b->len] = '\0';
}

static void sprint(struct sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sprint(struct sbuf *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		sput(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

/* Text escaped for an attribute value or element content. */
static void sesc(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': sput(b, "&amp;", 5); break;
		case '<': sput(b, "&lt;", 4); break;
		case '>': sput(b, "&gt;", 4); break;
		case '"': sput(b, "&quot;", 6); break;
		/* as character references, or parsing would normalize them to spaces in attributes */
		case '\n': sput(b, "&#10;", 5); break;
		case '\r': sput(b, "&#13;", 5); break;
		case '\t': sput(b, "&#9;", 4); break;
		default: sput(b, s, 1); break;
		}
	}
}

static void indent(struct sbuf *b, unsigned level)
{
	for (unsigned i = 0; i < level; i++)
		sput(b, "  ", 2);
}

static void attr(struct sbuf *b, const char *name, const char *value)
{
	if (!value)
		return;
	sprint(b, " %s=\"", name);
	sesc(b, value);
	sput(b, "\"", 1);
}

static void description(struct sbuf *b, const char *d, unsigned level)
{
	if (!d)
		return;
	indent(b, level);
	sput(b, "<description>", 13);
	sesc(b, d);
	sput(b, "</description>\n", 15);
}

static void type_xml(struct sbuf *b, const struct ltt_type_desc *t, unsigned level, int inline_named);

static void fields_xml(struct sbuf *b, const struct ltt_type_desc *t, unsigned level)
{
	for (uint32_t i = 0; i < t->n_fields; i++) {
		const struct ltt_field_desc *f = &t->fields[i];

		indent(b, level);
		sput(b, "<field", 6);
		attr(b, "name", f->name);
		sput(b, ">\n", 2);
		description(b, f->description, level + 1);
		type_xml(b, f->type, level + 1, 0);
		indent(b, level);
		sput(b, "</field>\n", 9);
	}
}

/* A type at `level`; a named type is written as a typeref unless inline_named. */
static void type_xml(struct sbuf *b, const struct ltt_type_desc *t, unsigned level, int inline_named)
{
	const char *kind = ltt_type_kind_name(t->kind);

	indent(b, level);
	if (t->name && !inline_named) {
		sput(b, "<typeref", 8);
		attr(b, "name", t->name);
		sput(b, "/>\n", 3);
		return;
	}
	sprint(b, "<%s", kind);
	switch (t->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_FLOAT:
	case LTT_TYPE_ENUM:
		attr(b, "size", ltt_size_name(t->size));
		break;
	case LTT_TYPE_ARRAY:
		sprint(b, " size=\"%u\"", t->array_len);
		break;
	case LTT_TYPE_SEQUENCE:
		attr(b, "lengthsize", ltt_size_name(t->size));
		break;
	case LTT_TYPE_UNION:
		attr(b, "typecodesize", ltt_size_name(t->size));
		break;
	default:
		break;
	}
	attr(b, "format", t->format);
	switch (t->kind) {
	case LTT_TYPE_ENUM:
		sput(b, ">\n", 2);
		for (uint32_t i = 0; i < t->n_labels; i++) {
			indent(b, level + 1);
			sput(b, "<label", 6);
			attr(b, "name", t->labels[i].name);
			attr(b, "value", t->labels[i].explicit_value ? t->labels[i].value_text : NULL);
			sput(b, "/>\n", 3);
		}
		break;
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		sput(b, ">\n", 2);
		type_xml(b, t->element, level + 1, 0);
		break;
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		sput(b, ">\n", 2);
		fields_xml(b, t, level + 1);
		break;
	default:
		sput(b, "/>\n", 3);
		return;
	}
	indent(b, level);
	sprint(b, "</%s>\n", kind);
}

int ltt_facility_to_xml(const struct ltt_facility_desc *fac, char **xml)
{
	struct sbuf b = { 0 };

	*xml = NULL;
	sput(&b, "<facility", 9);
	attr(&b, "name", fac->name);
	sput(&b, ">\n", 2);
	description(&b, fac->description, 1);
	for (uint32_t i = 0; i < fac->n_events; i++) {
		const struct ltt_event_desc *ev = &fac->events[i];

		sput(&b, "  <event", 8);
		attr(&b, "name", ev->name);
		if (ev->persistent)
			attr(&b, "persistent", "yes");
		sput(&b, ">\n", 2);
		description(&b, ev->description, 2);
		if (ev->body)
			type_xml(&b, ev->body, 2, 0);
		sput(&b, "  </event>\n", 11);
	}
	for (uint32_t i = 0; i < fac->n_types; i++) {
		const struct ltt_named_type *nt = &fac->types[i];

		sput(&b, "  <type", 7);
		attr(&b, "name", nt->name);
		sput(&b, ">\n", 2);
		/* an alias refers to the type it names; a definition is written in full */
		type_xml(&b, nt->type, 2, nt->type->name && !strcmp(nt->type->name, nt->name));
		sput(&b, "  </type>\n", 10);
	}
	sput(&b, "</facility>\n", 12);
	if (b.nomem) {
		free(b.buf);
		return -ENOMEM;
	}
	*xml = b.buf;
	return 0;
}
