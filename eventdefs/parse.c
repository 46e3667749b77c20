/* SPDX-License-Identifier: MIT */
/* Facility XML to the type model: facilities, events, named types, and the types themselves.
 * Every element and attribute is checked: anything unknown is an error naming its line.
 */
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

static struct type_node *new_node(struct pctx *c, enum ltt_type_kind kind, const xmlNode *n)
{
	struct type_node *t = arena_alloc(c->arena, sizeof(*t));

	if (!t)
		return NULL;
	t->t.kind = kind;
	t->t.line = ed_line_of(n);
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
		if (ed_is_ignorable(k))
			continue;
		if (allow_desc && ed_is_elem(k, "description")) {
			if (desc && !(*desc = ed_description(c, k)))
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
/* Fields of a struct or union. */
static int parse_fields(struct pctx *c, const xmlNode *n, struct type_node *t)
{
	static const char *const field_attrs[] = { "name", NULL };
	struct ltt_field_desc *fields;
	struct names seen;
	uint32_t count = 0, i = 0;
	int r;

	for (const xmlNode *k = n->children; k; k = k->next) {
		if (ed_is_ignorable(k))
			continue;
		if (!ed_is_elem(k, "field"))
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

		if (!ed_is_elem(k, "field"))
			continue;
		if ((r = ed_check_attrs(c, k, field_attrs)))
			goto out;
		name = ed_attr(c, k, "name", &nomem);
		if (nomem) {
			r = -ENOMEM;
			goto out;
		}
		if (!name || !*name) {
			r = FAIL(c, k, "<field> without name (<field name=\"...\">)");
			goto out;
		}
		if (!names_add(&seen, name, i, NULL)) {
			r = FAIL(c, k, "duplicate field name '%s'", name);
			goto out;
		}
		fields[i].name = name;
		fields[i].line = ed_line_of(k);
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
		if (!strcmp(name, "field"))
			return FAIL(c, n, "<field> where a type belongs: fields go in a <struct> (<event name=\"e\">"
				    "<struct><field name=\"f\">...</field></struct></event>)");
		return FAIL(c, n, "unknown type <%s> (a type is <int>, <uint>, <float>, <string>, <enum>, <array>, "
			    "<sequence>, <struct>, <union> or <typeref>)", name);
	}
	if ((r = ed_check_attrs(c, n, allowed)))
		return r;
	t = new_node(c, kind, n);
	if (!t)
		return -ENOMEM;
	if (kind != LTT_TYPE_REF)
		t->t.format = ed_attr(c, n, "format", &nomem);
	if (nomem)
		return -ENOMEM;

	switch ((int)kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_FLOAT:
	case LTT_TYPE_ENUM:
		if ((r = ed_size_attr(c, n, "size", &size)))
			return r;
		if (kind == LTT_TYPE_FLOAT && !ltt_float_bytes(size))
			return FAIL(c, n, "float of size %s (4, 8, medium or long)", ltt_size_name(size));
		t->t.size = (uint8_t)size;
		if (kind == LTT_TYPE_ENUM)
			r = ed_parse_enum(c, n, t);
		else
			r = ed_no_children(c, n);
		break;
	case LTT_TYPE_STRING:
		r = ed_no_children(c, n);
		break;
	case LTT_TYPE_ARRAY: {
		const char *v = ed_attr(c, n, "size", &nomem);
		uint64_t len;

		if (nomem)
			return -ENOMEM;
		if (!v)
			return FAIL(c, n, "<array> without size (size=\"N\": its element count)");
		if (ltt_parse_c_u64(v, &len))
			return FAIL(c, n, "bad array size '%s'", v);
		if (len == 0)
			return FAIL(c, n, "array of size 0 (an array holds 1 to %u elements; a count known only when "
				    "recording is a <sequence>)", LTT_MAX_ARRAY_LEN);
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
		if ((r = ed_size_attr(c, n, "lengthsize", &size)))
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
		if ((r = ed_size_attr(c, n, "typecodesize", &size)))
			return r;
		t->t.size = (uint8_t)size;
		if ((r = parse_fields(c, n, t)))
			return r;
		if (!t->t.n_fields)
			return FAIL(c, n, "union without fields (one <field> per alternative)");
		if (!ed_fits(t->t.n_fields - 1, ed_min_bytes(size)))
			return FAIL(c, n, "union of %u fields does not fit typecodesize %s", t->t.n_fields,
				    ltt_size_name(size));
		break;
	case LTT_TYPE_REF:
		t->ref = ed_attr(c, n, "name", &nomem);
		if (nomem)
			return -ENOMEM;
		if (!t->ref || !*t->ref)
			return FAIL(c, n, "<typeref> without name (name=\"T\" of a <type name=\"T\">)");
		r = ed_no_children(c, n);
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

/* context="tid" or "none" into *tid. */
static int parse_context(struct pctx *c, const xmlNode *n, const char *v, int *tid)
{
	if (!strcmp(v, "tid"))
		*tid = 1;
	else if (!strcmp(v, "none"))
		*tid = 0;
	else
		return FAIL(c, n, "bad context '%s' (tid or none)", v);
	return 0;
}

/* context="tid": the body becomes a struct of `tid` (uint size=4) then the body's fields (a typeref
 * body is expanded), after typerefs are resolved. */
static int add_context_tid(struct pctx *c, struct ltt_event_desc *ev)
{
	const struct ltt_type_desc *b = ev->body;
	struct ltt_type_desc *s, *u;
	struct ltt_field_desc *f;
	uint32_t n = b ? b->n_fields : 0;

	for (uint32_t i = 0; i < n; i++)
		if (!strcmp(b->fields[i].name, "tid")) {
			eventdefs_error(c->err, c->errlen, c->file, b->fields[i].line,
					"event '%s' has a field 'tid' and context=\"tid\" (rename the field)", ev->name);
			return -EINVAL;
		}
	s = arena_alloc(c->arena, sizeof(*s));
	u = arena_alloc(c->arena, sizeof(*u));
	f = arena_alloc(c->arena, (n + 1) * sizeof(*f));
	if (!s || !u || !f)
		return -ENOMEM;
	u->kind = LTT_TYPE_UINT;
	u->size = LTT_SIZE_4;
	u->line = ev->line;
	for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
		u->fixed_size[a] = 4;
	f[0].name = "tid";
	f[0].type = u;
	f[0].line = ev->line;
	if (n)
		memcpy(f + 1, b->fields, n * sizeof(*f));
	s->kind = LTT_TYPE_STRUCT;
	s->variable = b ? b->variable : 0;
	s->fields = f;
	s->n_fields = n + 1;
	s->line = b ? b->line : ev->line;
	for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
		s->fixed_size[a] = (b ? b->fixed_size[a] : 0) + 4;
	ev->body = s;
	return 0;
}

static int parse_event(struct pctx *c, const xmlNode *n, struct ltt_event_desc *ev, int context_tid)
{
	static const char *const event_attrs[] = { "name", "persistent", "context", NULL };
	const char *persistent, *context;
	struct type_node *body;
	int nomem = 0, r;

	if ((r = ed_check_attrs(c, n, event_attrs)))
		return r;
	ev->name = ed_attr(c, n, "name", &nomem);
	persistent = ed_attr(c, n, "persistent", &nomem);
	context = ed_attr(c, n, "context", &nomem);
	if (nomem)
		return -ENOMEM;
	if (!ev->name || !*ev->name)
		return FAIL(c, n, "<event> without name (<event name=\"...\">)");
	ev->line = ed_line_of(n);
	if (persistent && (r = parse_persistent(c, n, persistent, &ev->persistent)))
		return r;
	ev->context_tid = context_tid;
	if (context && (r = parse_context(c, n, context, &ev->context_tid)))
		return r;
	if ((r = single_type(c, n, 1, &body, &ev->description)))
		return r;
	if (body && body->t.kind != LTT_TYPE_STRUCT && body->t.kind != (enum ltt_type_kind)LTT_TYPE_REF)
		return FAIL(c, n, "body of event '%s' is a <%s>, not a <struct> or <typeref>", ev->name,
			    ltt_type_kind_name(body->t.kind));
	ev->body = body ? &body->t : NULL;
	return 0;
}

int ed_parse_facility(struct pctx *c, const xmlNode *n, struct ltt_facility_desc *fac)
{
	static const char *const fac_attrs[] = { "name", "context", NULL };
	static const char *const type_attrs[] = { "name", NULL };
	struct ltt_event_desc *events;
	struct ltt_named_type *types;
	struct names seen_events, seen_types;
	uint32_t ne = 0, nt = 0, ie = 0, it = 0;
	const char *context;
	int nomem = 0, r, context_tid = 0;

	c->all = NULL;
	if ((r = ed_check_attrs(c, n, fac_attrs)))
		return r;
	fac->name = ed_attr(c, n, "name", &nomem);
	context = ed_attr(c, n, "context", &nomem);
	if (nomem)
		return -ENOMEM;
	if (!fac->name || !*fac->name)
		return FAIL(c, n, "<facility> without name (<facility name=\"...\">)");
	if (context && (r = parse_context(c, n, context, &context_tid)))
		return r;
	fac->file = c->file;
	fac->line = ed_line_of(n);
	for (const xmlNode *k = n->children; k; k = k->next) {
		if (ed_is_elem(k, "event"))
			ne++;
		else if (ed_is_elem(k, "type"))
			nt++;
		else if (!ed_is_ignorable(k) && !ed_is_elem(k, "description") && !ed_is_elem(k, "span"))
			return k->type == XML_ELEMENT_NODE ?
				FAIL(c, k, "unknown element <%s> in <facility> (<description>, <event>, <type> or <span>)",
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
		if (ed_is_elem(k, "description")) {
			if (!(fac->description = ed_description(c, k))) {
				r = -ENOMEM;
				goto out;
			}
		} else if (ed_is_elem(k, "event")) {
			events[ie].index = ie;
			if ((r = parse_event(c, k, &events[ie], context_tid)))
				goto out;
			if (!names_add(&seen_events, events[ie].name, ie, NULL)) {
				r = FAIL(c, k, "duplicate event name '%s'", events[ie].name);
				goto out;
			}
			ie++;
		} else if (ed_is_elem(k, "type")) {
			struct type_node *t;

			if ((r = ed_check_attrs(c, k, type_attrs)))
				goto out;
			types[it].name = ed_attr(c, k, "name", &nomem);
			if (nomem) {
				r = -ENOMEM;
				goto out;
			}
			if (!types[it].name || !*types[it].name) {
				r = FAIL(c, k, "<type> without name (<type name=\"...\">)");
				goto out;
			}
			if (!names_add(&seen_types, types[it].name, it, NULL)) {
				r = FAIL(c, k, "duplicate type name '%s'", types[it].name);
				goto out;
			}
			types[it].line = ed_line_of(k);
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
	for (uint32_t i = 0; i < ne && !r; i++)
		if (events[i].context_tid)
			r = add_context_tid(c, &events[i]);
	if (!r)
		r = ed_parse_spans(c, n, fac);
	if (!r)
		fac->checksum = ltt_facility_checksum(fac);
out:
	names_free(&seen_events);
	names_free(&seen_types);
	return r;
}
