/* SPDX-License-Identifier: MIT */
/* Helpers of the facility parser over the libxml2 tree: lines, attributes, children, numbers. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "model.h"
#include "names.h"
#include "parse.h"

unsigned ed_line_of(const xmlNode *n)
{
	long l;

	if (!n)
		return 0;
	if (n->type == XML_ELEMENT_NODE && n->properties &&
	    !strcmp((const char *)n->properties->name, LTT_LINE_ATTR) && n->properties->children &&
	    n->properties->children->content)
		return (unsigned)strtoul((const char *)n->properties->children->content, NULL, 10);
	l = xmlGetLineNo(n);
	return l > 0 && l < 0x7fffffff ? (unsigned)l : 0;
}

int ed_is_elem(const xmlNode *n, const char *name)
{
	return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

static int is_blank_text(const xmlNode *n)
{
	const xmlChar *s = n->content;

	if (!s)
		return 1;
	for (; *s; s++)
		if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
			return 0;
	return 1;
}

/* Nodes that carry nothing: comments, processing instructions, blank text. */
int ed_is_ignorable(const xmlNode *n)
{
	return n->type == XML_COMMENT_NODE || n->type == XML_PI_NODE ||
	       ((n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) && is_blank_text(n));
}

/* The value of attribute `name` of n copied into the arena; NULL if absent. *nomem on failure. */
const char *ed_attr(struct pctx *c, const xmlNode *n, const char *name, int *nomem)
{
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		xmlChar *v;
		char *s;

		if (strcmp((const char *)a->name, name))
			continue;
		v = xmlNodeListGetString(n->doc, a->children, 1);
		s = arena_strdup(c->arena, v ? (const char *)v : "");
		xmlFree(v);
		if (!s)
			*nomem = 1;
		return s;
	}
	return NULL;
}

/* Every attribute of n must be in `allowed` (a NULL-terminated list). */
int ed_check_attrs(struct pctx *c, const xmlNode *n, const char *const *allowed)
{
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		const char *const *p;

		if (a == n->properties && !strcmp((const char *)a->name, LTT_LINE_ATTR))
			continue;	/* the pre-pass's line number */
		for (p = allowed; *p; p++)
			if (!strcmp((const char *)a->name, *p))
				break;
		if (!*p) {
			char list[256];
			size_t len = 0;

			list[0] = 0;
			for (p = allowed; *p && len < sizeof(list); p++)
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", p == allowed ? "" :
							p[1] ? ", " : " or ", *p);
			return FAIL(c, n, "unknown attribute '%s' on <%s> (%s%s)", (const char *)a->name,
				    (const char *)n->name, allowed[0] ? "it takes " : "it takes none", list);
		}
	}
	return 0;
}

/* The text of a <description>, trimmed, or NULL on ENOMEM. */
const char *ed_description(struct pctx *c, const xmlNode *n)
{
	xmlChar *v = xmlNodeGetContent(n);
	const char *s = v ? (const char *)v : "";
	size_t len;
	char *r;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	len = strlen(s);
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\n' || s[len - 1] == '\r'))
		len--;
	r = arena_strndup(c->arena, s, len);
	xmlFree(v);
	return r;
}

int ed_size_attr(struct pctx *c, const xmlNode *n, const char *name, unsigned *size)
{
	int nomem = 0;
	const char *v = ed_attr(c, n, name, &nomem);

	if (nomem)
		return -ENOMEM;
	if (!v)
		return FAIL(c, n, "<%s> without %s (%s=\"N\": 1, 2, 4, 8, short, medium or long)",
			    (const char *)n->name, name, name);
	if (ltt_size_parse(v, size))
		return FAIL(c, n, "bad %s '%s' on <%s> (1, 2, 4, 8, short, medium or long)", name, v,
			    (const char *)n->name);
	return 0;
}

int ed_no_children(struct pctx *c, const xmlNode *n)
{
	for (const xmlNode *k = n->children; k; k = k->next)
		if (!ed_is_ignorable(k))
			return k->type == XML_ELEMENT_NODE ?
				FAIL(c, k, "unknown element <%s> in <%s> (<%s> holds no element)", (const char *)k->name,
				     (const char *)n->name, (const char *)n->name) :
				FAIL(c, k, "unexpected text in <%s>", (const char *)n->name);
	return 0;
}

/* The smallest byte count a size keyword has under any arch. */
unsigned ed_min_bytes(unsigned size)
{
	unsigned m = 8;

	for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
		if (ltt_size_bytes(size, (enum ltt_arch_size)a) < m)
			m = ltt_size_bytes(size, (enum ltt_arch_size)a);
	return m;
}

int ed_fits(uint64_t v, unsigned bytes)
{
	return bytes >= 8 || v < ((uint64_t)1 << (8 * bytes));
}
