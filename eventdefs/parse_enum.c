/* SPDX-License-Identifier: MIT */
/* Enum labels: <label> elements and/or words of text, values by C enum rules. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "common/parse.h"
#include "model.h"
#include "names.h"
#include "parse.h"

static int add_label(struct pctx *c, const xmlNode *n, struct ltt_enum_label *labels, uint32_t count,
		     struct names *seen, const char *name, const char *value_text, uint64_t *next)
{
	struct ltt_enum_label *l = &labels[count];

	if (!*name)
		return FAIL(c, n, "enum label without name (<label name=\"...\" value=\"N\"/>)");
	if (!names_add(seen, name, count, NULL))
		return FAIL(c, n, "duplicate enum label '%s'", name);
	l->name = name;
	if (value_text) {
		if (ltt_parse_c_u64(value_text, &l->value))
			return FAIL(c, n, "bad value '%s' of enum label '%s' (a non-negative integer)",
				    value_text, name);
		l->value_text = value_text;
		l->explicit_value = 1;
	} else {
		if (count && labels[count - 1].value == UINT64_MAX)
			return FAIL(c, n, "value of enum label '%s' overflows", name);
		l->value = *next;
	}
	*next = l->value + 1;
	return 0;
}

/* Labels of an enum: <label name=.. value=../> elements and/or whitespace-separated words (NAME or
 * NAME=VALUE), in document order. */
static int parse_labels(struct pctx *c, const xmlNode *n, struct ltt_enum_label *labels, struct names *seen,
			uint32_t *countp);

int ed_parse_enum(struct pctx *c, const xmlNode *n, struct type_node *t)
{
	uint32_t cap = 0, count = 0;
	struct ltt_enum_label *labels;
	struct names seen;
	int r;

	/* upper bound of the label count: elements + words */
	for (const xmlNode *k = n->children; k; k = k->next) {
		if (k->type == XML_ELEMENT_NODE) {
			cap++;
		} else if ((k->type == XML_TEXT_NODE || k->type == XML_CDATA_SECTION_NODE) && k->content) {
			for (const xmlChar *s = k->content; *s; s++)
				cap += (*s > ' ') && (s == k->content || s[-1] <= ' ');
		}
		if (cap > 1000000)
			return FAIL(c, n, "enum with more than 1000000 labels");
	}
	labels = arena_alloc(c->arena, (cap ? cap : 1) * sizeof(*labels));
	if (!labels || names_init(&seen, cap))
		return -ENOMEM;
	r = parse_labels(c, n, labels, &seen, &count);
	names_free(&seen);
	if (r)
		return r;
	for (uint32_t i = 0; i < count; i++)
		if (!ed_fits(labels[i].value, ed_min_bytes(t->t.size)))
			return FAIL(c, n, "value %llu of enum label '%s' does not fit in size %s",
				    (unsigned long long)labels[i].value, labels[i].name,
				    ltt_size_name(t->t.size));
	t->t.labels = labels;
	t->t.n_labels = count;
	return 0;
}

/* The labels of enum n, in document order, into labels[] (room for all); *count set. */
static int parse_labels(struct pctx *c, const xmlNode *n, struct ltt_enum_label *labels, struct names *seen,
			uint32_t *countp)
{
	static const char *const label_attrs[] = { "name", "value", NULL };
	uint32_t count = 0;
	uint64_t next = 0;
	int r;

	for (const xmlNode *k = n->children; k; k = k->next) {
		if (k->type == XML_COMMENT_NODE || k->type == XML_PI_NODE)
			continue;
		if (ed_is_elem(k, "label")) {
			int nomem = 0;
			const char *name, *value;

			if ((r = ed_check_attrs(c, k, label_attrs)) || (r = ed_no_children(c, k)))
				return r;
			name = ed_attr(c, k, "name", &nomem);
			value = ed_attr(c, k, "value", &nomem);
			if (nomem)
				return -ENOMEM;
			if (!name)
				return FAIL(c, k, "enum label without name (<label name=\"...\" value=\"N\"/>)");
			if ((r = add_label(c, k, labels, count, seen, name, value, &next)))
				return r;
			count++;
		} else if (k->type == XML_TEXT_NODE || k->type == XML_CDATA_SECTION_NODE) {
			const char *s = k->content ? (const char *)k->content : "";

			while (*s) {
				const char *w, *eq;
				char *name;

				while (*s && (unsigned char)*s <= ' ')
					s++;
				if (!*s)
					break;
				w = s;
				while ((unsigned char)*s > ' ')
					s++;
				name = arena_strndup(c->arena, w, (size_t)(s - w));
				if (!name)
					return -ENOMEM;
				eq = strchr(name, '=');
				if (eq)
					name[eq - name] = '\0';
				if ((r = add_label(c, k, labels, count, seen, name, eq ? eq + 1 : NULL, &next)))
					return r;
				count++;
			}
		} else {
			return FAIL(c, k, "unknown element <%s> in <enum> (only <label>)", (const char *)k->name);
		}
	}
	*countp = count;
	return 0;
}
