/* SPDX-License-Identifier: MIT */
/* After parsing a facility: typerefs resolved to their named types, cycles and oversized types
 * rejected, and the layout of every type computed for the four arch_sizes. */
#include <errno.h>
#include <string.h>

#include "model.h"
#include "names.h"

struct rctx {
	const struct ltt_facility_desc *fac;
	struct type_node *path[LTT_MAX_DEPTH + 2];	/* the layout walk's current nesting */
	struct ltt_named_type *types;
	struct names by_name;		/* type name -> index in types */
	char *err;
	size_t errlen;
};

#define RFAIL(r, line, ...) \
	(eventdefs_error((r)->err, (r)->errlen, (r)->fac->file, (line), __VA_ARGS__), -EINVAL)

static struct ltt_named_type *lookup(struct rctx *r, const char *name)
{
	uint32_t i;

	return names_find(&r->by_name, name, &i) ? NULL : &r->types[i];
}

/* The type a typeref node stands for, following aliases (<type name=a><typeref name=b/></type>). */
static int follow(struct rctx *r, const struct ltt_type_desc *t, const struct ltt_type_desc **out)
{
	const struct ltt_type_desc *first = t;

	for (uint32_t hops = 0; t->kind == (enum ltt_type_kind)LTT_TYPE_REF; hops++) {
		const char *name = type_node_of(t)->ref;
		struct ltt_named_type *nt = lookup(r, name);

		if (!nt)
			return RFAIL(r, t->line, "typeref to unknown type '%s' (define it in the facility: <type "
				     "name=\"%s\">...</type>)", name, name);
		if (hops > r->fac->n_types)
			return RFAIL(r, first->line, "typeref cycle: type '%s' refers to itself", name);
		t = nt->type;
	}
	*out = t;
	return 0;
}

static int resolve_refs(struct rctx *r, struct type_node *all)
{
	int e;

	for (uint32_t i = 0; i < r->fac->n_types; i++)
		if ((e = follow(r, r->types[i].type, &r->types[i].type)))
			return e;
	for (struct type_node *n = all; n; n = n->next_all) {
		if (n->t.element && (e = follow(r, n->t.element, &n->t.element)))
			return e;
		for (uint32_t i = 0; i < n->t.n_fields; i++) {
			struct ltt_field_desc *f = (struct ltt_field_desc *)&n->t.fields[i];

			if ((e = follow(r, f->type, &f->type)))
				return e;
		}
	}
	for (uint32_t i = 0; i < r->fac->n_events; i++) {
		struct ltt_event_desc *ev = (struct ltt_event_desc *)&r->fac->events[i];

		if (ev->body && (e = follow(r, ev->body, &ev->body)))
			return e;
		if (ev->body && ev->body->kind != LTT_TYPE_STRUCT)
			return RFAIL(r, ev->line, "body of event '%s' is a typeref to a %s, not a struct",
				     ev->name, ltt_type_kind_name(ev->body->kind));
	}
	return 0;
}

static uint32_t add_nodes(uint32_t a, uint32_t b)
{
	return a + b > LTT_MAX_NODES ? LTT_MAX_NODES + 1 : a + b;
}

static int layout(struct rctx *r, struct type_node *n, unsigned level);

static int layout_child(struct rctx *r, struct type_node *n, const struct ltt_type_desc *child,
			unsigned level)
{
	struct type_node *k = type_node_of(child);
	int e = layout(r, k, level + 1);

	if (e)
		return e;
	n->nodes = add_nodes(n->nodes, k->nodes);
	if (k->depth + 1 > n->depth)
		n->depth = k->depth + 1;
	return 0;
}

/* Computes n's variable flag and sizes; level is the nesting level of this walk. */
static int layout(struct rctx *r, struct type_node *n, unsigned level)
{
	struct ltt_type_desc *t = &n->t;
	uint64_t size[LTT_ARCH_COUNT] = { 0 };
	int e;

	if (n->state == 2)
		return 0;
	if (n->state == 1) {
		/* n is on the path: name the first named type of the cycle (there is one: only
		 * typerefs make cycles, and they refer to named types) */
		const struct type_node *named = n;

		for (unsigned i = level; i-- > 0 && r->path[i] != n;)
			if (r->path[i]->t.name)
				named = r->path[i];
		return RFAIL(r, named->t.line, "typeref cycle: type '%s' contains itself",
			     named->t.name ? named->t.name : "?");
	}
	if (level > LTT_MAX_DEPTH)
		return RFAIL(r, t->line, "types nested more than %u deep", LTT_MAX_DEPTH);
	r->path[level] = n;
	n->state = 1;
	n->nodes = 1;
	n->depth = 1;
	switch (t->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
		for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
			size[a] = ltt_size_bytes(t->size, (enum ltt_arch_size)a);
		break;
	case LTT_TYPE_FLOAT:
		for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
			size[a] = ltt_float_bytes(t->size);
		break;
	case LTT_TYPE_STRING:
		t->variable = 1;
		for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
			size[a] = 1;
		break;
	case LTT_TYPE_ARRAY:
		if ((e = layout_child(r, n, t->element, level)))
			return e;
		t->variable = t->element->variable;
		for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
			size[a] = (uint64_t)t->array_len * t->element->fixed_size[a];
		break;
	case LTT_TYPE_SEQUENCE:
		if ((e = layout_child(r, n, t->element, level)))
			return e;
		t->variable = 1;
		for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
			size[a] = ltt_size_bytes(t->size, (enum ltt_arch_size)a);
		break;
	case LTT_TYPE_STRUCT:
		for (uint32_t i = 0; i < t->n_fields; i++) {
			const struct ltt_type_desc *ft = t->fields[i].type;

			if ((e = layout_child(r, n, ft, level)))
				return e;
			t->variable |= ft->variable;
			for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
				size[a] += ft->fixed_size[a];
		}
		break;
	case LTT_TYPE_UNION:
		for (uint32_t i = 0; i < t->n_fields; i++) {
			const struct ltt_type_desc *ft = t->fields[i].type;

			if ((e = layout_child(r, n, ft, level)))
				return e;
			t->variable |= ft->variable;
			for (unsigned a = 0; a < LTT_ARCH_COUNT; a++) {
				if (i && ft->fixed_size[a] != size[a])
					t->variable = 1;
				if (!i || ft->fixed_size[a] < size[a])
					size[a] = ft->fixed_size[a];
			}
		}
		for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
			size[a] += ltt_size_bytes(t->size, (enum ltt_arch_size)a);
		break;
	default:
		return RFAIL(r, t->line, "unresolved typeref");
	}
	for (unsigned a = 0; a < LTT_ARCH_COUNT; a++) {
		if (size[a] >= LTT_MAX_TYPE_BYTES)
			return RFAIL(r, t->line, "%s of %llu bytes under %s (at most %u)",
				     ltt_type_kind_name(t->kind), (unsigned long long)size[a],
				     ltt_arch_size_name((enum ltt_arch_size)a), LTT_MAX_TYPE_BYTES - 1);
		t->fixed_size[a] = (uint32_t)size[a];
	}
	if (n->depth > LTT_MAX_DEPTH)
		return RFAIL(r, t->line, "types nested more than %u deep", LTT_MAX_DEPTH);
	n->state = 2;
	return 0;
}

/* Layout of every node, and the bound on the expanded size of the event bodies. */
static int layout_all(struct rctx *r, struct type_node *all)
{
	const struct ltt_facility_desc *fac = r->fac;
	uint32_t nodes = 0;
	int e;

	for (struct type_node *n = all; n; n = n->next_all) {
		if (n->t.kind == (enum ltt_type_kind)LTT_TYPE_REF)
			continue;	/* replaced everywhere by what it refers to */
		if ((e = layout(r, n, 0)))
			return e;
	}
	/* the checksum and the generator expand typerefs in place: bound the expanded size */
	for (uint32_t i = 0; i < fac->n_events; i++) {
		if (!fac->events[i].body)
			continue;
		nodes = add_nodes(nodes, type_node_of(fac->events[i].body)->nodes);
		if (nodes > LTT_MAX_NODES)
			return RFAIL(r, fac->events[i].line,
				     "facility '%s' has more than %u types once typerefs are expanded",
				     fac->name, LTT_MAX_NODES);
	}
	return 0;
}

int eventdefs_resolve(struct ltt_facility_desc *fac, struct ltt_named_type *types,
		      struct type_node *all, char *err, size_t errlen)
{
	struct rctx r = { .fac = fac, .types = types, .err = err, .errlen = errlen };
	int e;

	if (names_init(&r.by_name, fac->n_types))
		return -ENOMEM;
	for (uint32_t i = 0; i < fac->n_types; i++)
		names_add(&r.by_name, types[i].name, i, NULL);	/* names are unique: checked by the parser */
	e = resolve_refs(&r, all);
	if (!e)
		e = layout_all(&r, all);
	names_free(&r.by_name);
	return e;
}
