/* SPDX-License-Identifier: MIT */
/* A facility model back to canonical XML text (what the generator embeds and the recorder writes). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/escape_xml.h"
#include "model.h"

static void indent(struct ltt_buf *b, unsigned level)
{
	for (unsigned i = 0; i < level; i++)
		ltt_buf_add(b, "  ", 2);
}

static void attr(struct ltt_buf *b, const char *name, const char *value)
{
	if (!value)
		return;
	ltt_buf_printf(b, " %s=\"", name);
	ltt_xml_to_buf(b, value, strlen(value));
	ltt_buf_add(b, "\"", 1);
}

static void description(struct ltt_buf *b, const char *d, unsigned level)
{
	if (!d)
		return;
	indent(b, level);
	ltt_buf_add(b, "<description>", 13);
	ltt_xml_to_buf(b, d, strlen(d));
	ltt_buf_add(b, "</description>\n", 15);
}

static void type_xml(struct ltt_buf *b, const struct ltt_type_desc *t, unsigned level, int inline_named);

static void fields_xml(struct ltt_buf *b, const struct ltt_type_desc *t, unsigned level)
{
	for (uint32_t i = 0; i < t->n_fields; i++) {
		const struct ltt_field_desc *f = &t->fields[i];

		indent(b, level);
		ltt_buf_add(b, "<field", 6);
		attr(b, "name", f->name);
		ltt_buf_add(b, ">\n", 2);
		description(b, f->description, level + 1);
		type_xml(b, f->type, level + 1, 0);
		indent(b, level);
		ltt_buf_add(b, "</field>\n", 9);
	}
}

/* A type at `level`; a named type is written as a typeref unless inline_named. */
static void type_xml(struct ltt_buf *b, const struct ltt_type_desc *t, unsigned level, int inline_named)
{
	const char *kind = ltt_type_kind_name(t->kind);

	indent(b, level);
	if (t->name && !inline_named) {
		ltt_buf_add(b, "<typeref", 8);
		attr(b, "name", t->name);
		ltt_buf_add(b, "/>\n", 3);
		return;
	}
	ltt_buf_printf(b, "<%s", kind);
	switch (t->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_FLOAT:
	case LTT_TYPE_ENUM:
		attr(b, "size", ltt_size_name(t->size));
		break;
	case LTT_TYPE_ARRAY:
		ltt_buf_printf(b, " size=\"%u\"", t->array_len);
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
		ltt_buf_add(b, ">\n", 2);
		for (uint32_t i = 0; i < t->n_labels; i++) {
			indent(b, level + 1);
			ltt_buf_add(b, "<label", 6);
			attr(b, "name", t->labels[i].name);
			attr(b, "value", t->labels[i].explicit_value ? t->labels[i].value_text : NULL);
			ltt_buf_add(b, "/>\n", 3);
		}
		break;
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		ltt_buf_add(b, ">\n", 2);
		type_xml(b, t->element, level + 1, 0);
		break;
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		ltt_buf_add(b, ">\n", 2);
		fields_xml(b, t, level + 1);
		break;
	default:
		ltt_buf_add(b, "/>\n", 3);
		return;
	}
	indent(b, level);
	ltt_buf_printf(b, "</%s>\n", kind);
}

int ltt_facility_to_xml(const struct ltt_facility_desc *fac, char **xml)
{
	struct ltt_buf b = LTT_BUF_INIT;

	*xml = NULL;
	ltt_buf_add(&b, "<facility", 9);
	attr(&b, "name", fac->name);
	ltt_buf_add(&b, ">\n", 2);
	description(&b, fac->description, 1);
	for (uint32_t i = 0; i < fac->n_events; i++) {
		const struct ltt_event_desc *ev = &fac->events[i];

		ltt_buf_add(&b, "  <event", 8);
		attr(&b, "name", ev->name);
		if (ev->persistent)
			attr(&b, "persistent", "yes");
		ltt_buf_add(&b, ">\n", 2);
		description(&b, ev->description, 2);
		if (ev->body)
			type_xml(&b, ev->body, 2, 0);
		ltt_buf_add(&b, "  </event>\n", 11);
	}
	for (uint32_t i = 0; i < fac->n_types; i++) {
		const struct ltt_named_type *nt = &fac->types[i];

		ltt_buf_add(&b, "  <type", 7);
		attr(&b, "name", nt->name);
		ltt_buf_add(&b, ">\n", 2);
		/* an alias refers to the type it names; a definition is written in full */
		type_xml(&b, nt->type, 2, nt->type->name && !strcmp(nt->type->name, nt->name));
		ltt_buf_add(&b, "  </type>\n", 10);
	}
	for (uint32_t i = 0; i < fac->n_spans; i++) {
		const struct ltt_span_desc *sp = &fac->spans[i];

		ltt_buf_add(&b, "  <span", 7);
		attr(&b, "name", sp->name);
		attr(&b, "begin", sp->begin->name);
		attr(&b, "end", sp->end->name);
		attr(&b, "key", sp->key);
		if (!sp->description) {
			ltt_buf_add(&b, "/>\n", 3);
			continue;
		}
		ltt_buf_add(&b, ">\n", 2);
		description(&b, sp->description, 2);
		ltt_buf_add(&b, "  </span>\n", 10);
	}
	ltt_buf_add(&b, "</facility>\n", 12);
	if (b.nomem) {
		free(b.buf);
		return -ENOMEM;
	}
	*xml = b.buf;
	return 0;
}
