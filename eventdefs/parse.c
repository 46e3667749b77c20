/* Facility XML to the type model: the dialect pre-pass, libxml2, then a walk of the tree.
 *
 * libxml2 runs with XML_PARSE_NONET and without XML_PARSE_NOENT (no entity substitution); the
 * pre-pass refuses declarations, so no entity can be defined at all. Every element and attribute is
 * checked: anything unknown is an error naming its line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "model.h"
#include "names.h"

#define MAX_FILE_BYTES (64u << 20)

struct pctx {
	const char *file;
	char *err;
	size_t errlen;
	struct arena *arena;
	struct type_node *all;		/* nodes created for the current facility */
};

#define FAIL(c, node, ...) \
	(eventdefs_error((c)->err, (c)->errlen, (c)->file, line_of(node), __VA_ARGS__), -EINVAL)

static unsigned line_of(const xmlNode *n)
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

static int is_elem(const xmlNode *n, const char *name)
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
static int is_ignorable(const xmlNode *n)
{
	return n->type == XML_COMMENT_NODE || n->type == XML_PI_NODE ||
	       ((n->type == XML_TEXT_NODE || n->type == XML_CDATA_SECTION_NODE) && is_blank_text(n));
}

/* The value of attribute `name` of n copied into the arena; NULL if absent. *nomem on failure. */
static const char *attr(struct pctx *c, const xmlNode *n, const char *name, int *nomem)
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
static int check_attrs(struct pctx *c, const xmlNode *n, const char *const *allowed)
{
	for (const xmlAttr *a = n->properties; a; a = a->next) {
		const char *const *p;

		if (a == n->properties && !strcmp((const char *)a->name, LTT_LINE_ATTR))
			continue;	/* the pre-pass's line number */
		for (p = allowed; *p; p++)
			if (!strcmp((const char *)a->name, *p))
				break;
		if (!*p)
			return FAIL(c, n, "unknown attribute '%s' on <%s>", (const char *)a->name,
				    (const char *)n->name);
	}
	return 0;
}

/* The text of a <description>, trimmed, or NULL on ENOMEM. */
static const char *description(struct pctx *c, const xmlNode *n)
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

static struct type_node *new_node(struct pctx *c, enum ltt_type_kind kind, const xmlNode *n)
{
	struct type_node *t = arena_alloc(c->arena, sizeof(*t));

	if (!t)
		return NULL;
	t->t.kind = kind;
	t->t.line = line_of(n);
	t->next_all = c->all;
	c->all = t;
	return t;
}

static int parse_type(struct pctx *c, const xmlNode *n, struct type_node **out);

/* The one type element among n's children (descriptions allowed when allow_desc). */
static int single_type(struct pctx *c, const xmlNode *n, int allow_desc, struct type_node **out,
		       const char **desc)
{
	const xmlNode *found = NULL;

	*out = NULL;
	for (const xmlNode *k = n->children; k; k = k->next) {
		if (is_ignorable(k))
			continue;
		if (allow_desc && is_elem(k, "description")) {
			if (desc && !(*desc = description(c, k)))
				return -ENOMEM;
			continue;
		}
		if (k->type != XML_ELEMENT_NODE)
			return FAIL(c, k, "unexpected text in <%s>", (const char *)n->name);
		if (found)
			return FAIL(c, k, "more than one type in <%s>", (const char *)n->name);
		found = k;
	}
	if (!found)
		return 0;
	return parse_type(c, found, out);
}

static int need_single_type(struct pctx *c, const xmlNode *n, int allow_desc, struct type_node **out,
			    const char **desc)
{
	int r = single_type(c, n, allow_desc, out, desc);

	if (!r && !*out)
		return FAIL(c, n, "<%s> without a type", (const char *)n->name);
	return r;
}

/* A size attribute: required, a size keyword. */
static int size_attr(struct pctx *c, const xmlNode *n, const char *name, unsigned *size)
{
	int nomem = 0;
	const char *v = attr(c, n, name, &nomem);

	if (nomem)
		return -ENOMEM;
	if (!v)
		return FAIL(c, n, "<%s> without %s", (const char *)n->name, name);
	if (ltt_size_parse(v, size))
		return FAIL(c, n, "bad %s '%s' on <%s> (1, 2, 4, 8, short, medium or long)", name, v,
			    (const char *)n->name);
	return 0;
}

static int no_children(struct pctx *c, const xmlNode *n)
{
	for (const xmlNode *k = n->children; k; k = k->next)
		if (!is_ignorable(k))
			return k->type == XML_ELEMENT_NODE ?
				FAIL(c, k, "unknown element <%s> in <%s>", (const char *)k->name,
				     (const char *)n->name) :
				FAIL(c, k, "unexpected text in <%s>", (const char *)n->name);
	return 0;
}

/* The smallest byte count a size keyword has under any arch. */
static unsigned min_bytes(unsigned size)
{
	unsigned m = 8;

	for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
		if (ltt_size_bytes(size, (enum ltt_arch_size)a) < m)
			m = ltt_size_bytes(size, (enum ltt_arch_size)a);
	return m;
}

static int fits(uint64_t v, unsigned bytes)
{
	return bytes >= 8 || v < ((uint64_t)1 << (8 * bytes));
}

/* Parses an unsigned C integer literal (decimal, 0x hex, 0 octal) that fills all of s. */
static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

static int add_label(struct pctx *c, const xmlNode *n, struct ltt_enum_label *labels, uint32_t count,
		     struct names *seen, const char *name, const char *value_text, uint64_t *next)
{
	struct ltt_enum_label *l = &labels[count];

	if (!*name)
		return FAIL(c, n, "enum label without name");
	if (!names_add(seen, name, count, NULL))
		return FAIL(c, n, "duplicate enum label '%s'", name);
	l->name = name;
	if (value_text) {
		if (parse_u64(value_text, &l->value))
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

static int parse_enum(struct pctx *c, const xmlNode *n, struct type_node *t)
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
		if (!fits(labels[i].value, min_bytes(t->t.size)))
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
		if (is_elem(k, "label")) {
			int nomem = 0;
			const char *name, *value;

			if ((r = check_attrs(c, k, label_attrs)) || (r = no_children(c, k)))
				return r;
			name = attr(c, k, "name", &nomem);
			value = attr(c, k, "value", &nomem);
			if (nomem)
				return -ENOMEM;
			if (!name)
				return FAIL(c, k, "enum label without name");
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

/* Fields of a struct or union. */
static int parse_fields(struct pctx *c, const xmlNode *n, struct type_node *t)
{
	static const char *const field_attrs[] = { "name", NULL };
	struct ltt_field_desc *fields;
	struct names seen;
	uint32_t count = 0, i = 0;
	int r;

	for (const xmlNode *k = n->children; k; k = k->next) {
		if (is_ignorable(k))
			continue;
		if (!is_elem(k, "field"))
			return k->type == XML_ELEMENT_NODE ?
				FAIL(c, k, "unknown element <%s> in <%s> (only <field>)", (const char *)k->name,
				     (const char *)n->name) :
				FAIL(c, k, "unexpected text in <%s>", (const char *)n->name);
		count++;
	}
	fields = arena_alloc(c->arena, (count ? count : 1) * sizeof(*fields));
	if (!fields || names_init(&seen, count))
		return -ENOMEM;
	for (const xmlNode *k = n->children; k; k = k->next) {
		struct type_node *ft;
		const char *name;
		int nomem = 0;

		if (!is_elem(k, "field"))
			continue;
		if ((r = check_attrs(c, k, field_attrs)))
			goto out;
		name = attr(c, k, "name", &nomem);
		if (nomem) {
			r = -ENOMEM;
			goto out;
		}
		if (!name || !*name) {
			r = FAIL(c, k, "<field> without name");
			goto out;
		}
		if (!names_add(&seen, name, i, NULL)) {
			r = FAIL(c, k, "duplicate field name '%s'", name);
			goto out;
		}
		fields[i].name = name;
		fields[i].line = line_of(k);
		if ((r = need_single_type(c, k, 1, &ft, &fields[i].description)))
			goto out;
		fields[i].type = &ft->t;
		i++;
	}
	t->t.fields = fields;
	t->t.n_fields = count;
	r = 0;
out:
	names_free(&seen);
	return r;
}

static int parse_type(struct pctx *c, const xmlNode *n, struct type_node **out)
{
	static const char *const sized[] = { "size", "format", NULL };
	static const char *const fmt_only[] = { "format", NULL };
	static const char *const seq_attrs[] = { "lengthsize", "format", NULL };
	static const char *const union_attrs[] = { "typecodesize", "format", NULL };
	static const char *const ref_attrs[] = { "name", NULL };
	const char *name = (const char *)n->name;
	const char *const *allowed;
	enum ltt_type_kind kind;
	struct type_node *t, *elem;
	unsigned size;
	int nomem = 0, r;

	if (n->type != XML_ELEMENT_NODE)
		return FAIL(c, n, "unexpected text");
	if (!strcmp(name, "int")) {
		kind = LTT_TYPE_INT, allowed = sized;
	} else if (!strcmp(name, "uint")) {
		kind = LTT_TYPE_UINT, allowed = sized;
	} else if (!strcmp(name, "float")) {
		kind = LTT_TYPE_FLOAT, allowed = sized;
	} else if (!strcmp(name, "string")) {
		kind = LTT_TYPE_STRING, allowed = fmt_only;
	} else if (!strcmp(name, "enum")) {
		kind = LTT_TYPE_ENUM, allowed = sized;
	} else if (!strcmp(name, "array")) {
		kind = LTT_TYPE_ARRAY, allowed = sized;
	} else if (!strcmp(name, "sequence")) {
		kind = LTT_TYPE_SEQUENCE, allowed = seq_attrs;
	} else if (!strcmp(name, "struct")) {
		kind = LTT_TYPE_STRUCT, allowed = fmt_only;
	} else if (!strcmp(name, "union")) {
		kind = LTT_TYPE_UNION, allowed = union_attrs;
	} else if (!strcmp(name, "typeref")) {
		kind = LTT_TYPE_REF, allowed = ref_attrs;
	} else {
		return FAIL(c, n, "unknown type <%s>", name);
	}
	if ((r = check_attrs(c, n, allowed)))
		return r;
	t = new_node(c, kind, n);
	if (!t)
		return -ENOMEM;
	if (kind != LTT_TYPE_REF)
		t->t.format = attr(c, n, "format", &nomem);
	if (nomem)
		return -ENOMEM;

	switch ((int)kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_FLOAT:
	case LTT_TYPE_ENUM:
		if ((r = size_attr(c, n, "size", &size)))
			return r;
		if (kind == LTT_TYPE_FLOAT && !ltt_float_bytes(size))
			return FAIL(c, n, "float of size %s (4, 8, medium or long)", ltt_size_name(size));
		t->t.size = (uint8_t)size;
		if (kind == LTT_TYPE_ENUM)
			r = parse_enum(c, n, t);
		else
			r = no_children(c, n);
		break;
	case LTT_TYPE_STRING:
		r = no_children(c, n);
		break;
	case LTT_TYPE_ARRAY: {
		const char *v = attr(c, n, "size", &nomem);
		uint64_t len;

		if (nomem)
			return -ENOMEM;
		if (!v)
			return FAIL(c, n, "<array> without size");
		if (parse_u64(v, &len))
			return FAIL(c, n, "bad array size '%s'", v);
		if (len == 0)
			return FAIL(c, n, "array of size 0");
		if (len > LTT_MAX_ARRAY_LEN)
			return FAIL(c, n, "array of %llu elements (at most %u)", (unsigned long long)len,
				    LTT_MAX_ARRAY_LEN);
		t->t.array_len = (uint32_t)len;
		if ((r = need_single_type(c, n, 0, &elem, NULL)))
			return r;
		t->t.element = &elem->t;
		break;
	}
	case LTT_TYPE_SEQUENCE:
		if ((r = size_attr(c, n, "lengthsize", &size)))
			return r;
		t->t.size = (uint8_t)size;
		if ((r = need_single_type(c, n, 0, &elem, NULL)))
			return r;
		t->t.element = &elem->t;
		break;
	case LTT_TYPE_STRUCT:
		r = parse_fields(c, n, t);
		break;
	case LTT_TYPE_UNION:
		if ((r = size_attr(c, n, "typecodesize", &size)))
			return r;
		t->t.size = (uint8_t)size;
		if ((r = parse_fields(c, n, t)))
			return r;
		if (!t->t.n_fields)
			return FAIL(c, n, "union without fields");
		if (!fits(t->t.n_fields - 1, min_bytes(size)))
			return FAIL(c, n, "union of %u fields does not fit typecodesize %s", t->t.n_fields,
				    ltt_size_name(size));
		break;
	case LTT_TYPE_REF:
		t->ref = attr(c, n, "name", &nomem);
		if (nomem)
			return -ENOMEM;
		if (!t->ref || !*t->ref)
			return FAIL(c, n, "<typeref> without name");
		r = no_children(c, n);
		break;
	}
	if (r)
		return r;
	*out = t;
	return 0;
}

static int parse_persistent(struct pctx *c, const xmlNode *n, const char *v, int *persistent)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1"))
		*persistent = 1;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0"))
		*persistent = 0;
	else
		return FAIL(c, n, "bad persistent '%s' (yes or no)", v);
	return 0;
}

static int parse_event(struct pctx *c, const xmlNode *n, struct ltt_event_desc *ev)
{
	static const char *const event_attrs[] = { "name", "persistent", NULL };
	const char *persistent;
	struct type_node *body;
	int nomem = 0, r;

	if ((r = check_attrs(c, n, event_attrs)))
		return r;
	ev->name = attr(c, n, "name", &nomem);
	persistent = attr(c, n, "persistent", &nomem);
	if (nomem)
		return -ENOMEM;
	if (!ev->name || !*ev->name)
		return FAIL(c, n, "<event> without name");
	ev->line = line_of(n);
	if (persistent && (r = parse_persistent(c, n, persistent, &ev->persistent)))
		return r;
	if ((r = single_type(c, n, 1, &body, &ev->description)))
		return r;
	if (body && body->t.kind != LTT_TYPE_STRUCT && body->t.kind != (enum ltt_type_kind)LTT_TYPE_REF)
		return FAIL(c, n, "body of event '%s' is a <%s>, not a <struct> or <typeref>", ev->name,
			    ltt_type_kind_name(body->t.kind));
	ev->body = body ? &body->t : NULL;
	return 0;
}

static int parse_facility(struct pctx *c, const xmlNode *n, struct ltt_facility_desc *fac)
{
	static const char *const fac_attrs[] = { "name", NULL };
	static const char *const type_attrs[] = { "name", NULL };
	struct ltt_event_desc *events;
	struct ltt_named_type *types;
	struct names seen_events, seen_types;
	uint32_t ne = 0, nt = 0, ie = 0, it = 0;
	int nomem = 0, r;

	c->all = NULL;
	if ((r = check_attrs(c, n, fac_attrs)))
		return r;
	fac->name = attr(c, n, "name", &nomem);
	if (nomem)
		return -ENOMEM;
	if (!fac->name || !*fac->name)
		return FAIL(c, n, "<facility> without name");
	fac->file = c->file;
	fac->line = line_of(n);
	for (const xmlNode *k = n->children; k; k = k->next) {
		if (is_elem(k, "event"))
			ne++;
		else if (is_elem(k, "type"))
			nt++;
		else if (!is_ignorable(k) && !is_elem(k, "description"))
			return k->type == XML_ELEMENT_NODE ?
				FAIL(c, k, "unknown element <%s> in <facility> (<description>, <event> or <type>)",
				     (const char *)k->name) :
				FAIL(c, k, "unexpected text in <facility>");
	}
	if (ne > LTT_MAX_EVENTS)
		return FAIL(c, n, "facility '%s' has %u events (at most %u)", fac->name, ne, LTT_MAX_EVENTS);
	events = arena_alloc(c->arena, (ne ? ne : 1) * sizeof(*events));
	types = arena_alloc(c->arena, (nt ? nt : 1) * sizeof(*types));
	if (!events || !types || names_init(&seen_events, ne))
		return -ENOMEM;
	if (names_init(&seen_types, nt)) {
		names_free(&seen_events);
		return -ENOMEM;
	}
	for (const xmlNode *k = n->children; k; k = k->next) {
		if (is_elem(k, "description")) {
			if (!(fac->description = description(c, k))) {
				r = -ENOMEM;
				goto out;
			}
		} else if (is_elem(k, "event")) {
			events[ie].index = ie;
			if ((r = parse_event(c, k, &events[ie])))
				goto out;
			if (!names_add(&seen_events, events[ie].name, ie, NULL)) {
				r = FAIL(c, k, "duplicate event name '%s'", events[ie].name);
				goto out;
			}
			ie++;
		} else if (is_elem(k, "type")) {
			struct type_node *t;

			if ((r = check_attrs(c, k, type_attrs)))
				goto out;
			types[it].name = attr(c, k, "name", &nomem);
			if (nomem) {
				r = -ENOMEM;
				goto out;
			}
			if (!types[it].name || !*types[it].name) {
				r = FAIL(c, k, "<type> without name");
				goto out;
			}
			if (!names_add(&seen_types, types[it].name, it, NULL)) {
				r = FAIL(c, k, "duplicate type name '%s'", types[it].name);
				goto out;
			}
			types[it].line = line_of(k);
			if ((r = need_single_type(c, k, 1, &t, NULL)))
				goto out;
			if (t->t.kind != (enum ltt_type_kind)LTT_TYPE_REF)
				t->t.name = types[it].name;
			types[it].type = &t->t;
			it++;
		}
	}
	fac->events = events;
	fac->n_events = ne;
	fac->types = types;
	fac->n_types = nt;
	r = eventdefs_resolve(fac, types, c->all, c->err, c->errlen);
	if (!r)
		fac->checksum = ltt_facility_checksum(fac);
out:
	names_free(&seen_events);
	names_free(&seen_types);
	return r;
}

/* The first error libxml2 reports while parsing. */
struct first_err {
	int set;
	unsigned line;
	char msg[256];
};

static void first_error(void *user, xmlErrorPtr e)
{
	xmlParserCtxtPtr ctxt = user;
	struct first_err *fe = ctxt ? ctxt->_private : NULL;

	if (!fe || fe->set || !e || e->level < XML_ERR_ERROR)
		return;
	fe->set = 1;
	fe->line = e->line > 0 ? (unsigned)e->line : 0;
	snprintf(fe->msg, sizeof(fe->msg), "%s", e->message ? e->message : "not well-formed XML");
	/* an element left open at the end of the file meets the pre-pass's closing root tag */
	if (strstr(fe->msg, "ltt-eventdefs")) {
		char tag[64];
		unsigned line;

		if (sscanf(fe->msg, "Opening and ending tag mismatch: %63s line %u and", tag, &line) == 2) {
			snprintf(fe->msg, sizeof(fe->msg), "<%s> not closed at the end of the file", tag);
			fe->line = line;
		} else {
			snprintf(fe->msg, sizeof(fe->msg), "unexpected end of the file");
		}
	}
}

static int parse_doc(struct pctx *c, const char *xml, size_t len, struct eventdefs_owner *o)
{
	xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
	struct first_err fe = { 0 };
	struct ltt_facility_desc *facs;
	xmlDocPtr doc;
	xmlNode *root;
	uint32_t n = 0, i = 0;
	int r = 0;

	if (!ctxt)
		return -ENOMEM;
	if (len > INT32_MAX) {
		xmlFreeParserCtxt(ctxt);
		eventdefs_error(c->err, c->errlen, c->file, 0, "file too large");
		return -EFBIG;
	}
	/* keep the first error: later ones are usually consequences (and name the wrapper root) */
	ctxt->sax->serror = first_error;
	ctxt->_private = &fe;
	doc = xmlCtxtReadMemory(ctxt, xml, (int)len, c->file, "UTF-8",
				XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_BIG_LINES);
	if (!doc || fe.set) {
		const char *msg = fe.set ? fe.msg : "not well-formed XML";
		size_t ml = strlen(msg);

		while (ml && (msg[ml - 1] == '\n' || msg[ml - 1] == ' '))
			ml--;
		eventdefs_error(c->err, c->errlen, c->file, fe.set ? fe.line : 0, "%.*s", (int)ml, msg);
		xmlFreeDoc(doc);
		xmlFreeParserCtxt(ctxt);
		return -EINVAL;
	}
	root = xmlDocGetRootElement(doc);
	for (xmlNode *k = root ? root->children : NULL; k; k = k->next) {
		if (is_elem(k, "facility")) {
			n++;
		} else if (!is_ignorable(k)) {
			r = k->type == XML_ELEMENT_NODE ?
				FAIL(c, k, "unknown element <%s> outside <facility>", (const char *)k->name) :
				FAIL(c, k, "unexpected text outside <facility>");
			goto out;
		}
	}
	if (!n) {
		eventdefs_error(c->err, c->errlen, c->file, 0, "no <facility> element");
		r = -EINVAL;
		goto out;
	}
	facs = arena_alloc(c->arena, n * sizeof(*facs));
	if (!facs) {
		r = -ENOMEM;
		goto out;
	}
	for (xmlNode *k = root->children; k; k = k->next)
		if (is_elem(k, "facility") && (r = parse_facility(c, k, &facs[i++])))
			goto out;
	o->pub.facilities = facs;
	o->pub.n_facilities = n;
out:
	xmlFreeDoc(doc);
	xmlFreeParserCtxt(ctxt);
	return r;
}

int ltt_eventdefs_parse_mem(const char *buf, size_t len, const char *name, struct ltt_eventdefs **out,
			    char *err, size_t errlen)
{
	struct eventdefs_owner *o;
	struct pctx c = { .err = err, .errlen = errlen };
	const char *what = NULL;
	unsigned bad_line = 0;
	size_t xml_len = 0;
	char *xml = NULL;
	int r;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	if (!name)
		name = "(memory)";
	o = calloc(1, sizeof(*o));
	if (!o)
		goto nomem;
	c.arena = &o->arena;
	c.file = o->pub.file = arena_strdup(&o->arena, name);
	if (!c.file)
		goto nomem;
	r = eventdefs_prepass(buf, len, &xml, &xml_len, &bad_line, &what);
	if (r == -EINVAL)
		eventdefs_error(err, errlen, name, bad_line, "%s", what);
	if (!r)
		r = parse_doc(&c, xml, xml_len, o);
	free(xml);
	if (r == -ENOMEM)
		goto nomem;
	if (r) {
		ltt_eventdefs_free(&o->pub);
		return r;
	}
	*out = &o->pub;
	return 0;

nomem:
	eventdefs_error(err, errlen, name, 0, "out of memory");
	ltt_eventdefs_free(o ? &o->pub : NULL);
	return -ENOMEM;
}

int ltt_eventdefs_parse_file(const char *path, struct ltt_eventdefs **out, char *err, size_t errlen)
{
	FILE *f;
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int r;

	*out = NULL;
	f = fopen(path, "rb");
	if (!f) {
		r = -errno;
		eventdefs_error(err, errlen, path, 0, "cannot open: %s", strerror(-r));
		return r;
	}
	for (;;) {
		if (len == cap) {
			char *p;

			if (cap >= MAX_FILE_BYTES) {
				eventdefs_error(err, errlen, path, 0, "larger than %u bytes", MAX_FILE_BYTES);
				r = -EFBIG;
				goto out;
			}
			cap = cap ? cap * 2 : 65536;
			p = realloc(buf, cap);
			if (!p) {
				eventdefs_error(err, errlen, path, 0, "out of memory");
				r = -ENOMEM;
				goto out;
			}
			buf = p;
		}
		errno = 0;
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		r = errno ? -errno : -EIO;
		eventdefs_error(err, errlen, path, 0, "cannot read: %s", strerror(-r));
		goto out;
	}
	r = ltt_eventdefs_parse_mem(buf ? buf : "", len, path, out, err, errlen);
out:
	free(buf);
	fclose(f);
	return r;
}
