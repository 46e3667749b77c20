/* SPDX-License-Identifier: MIT */
/* <span name="job" begin="job_start" end="job_end" key="id"/> in a <facility>: an event pair read as
 * intervals (doc/eventdefs.md "Spans"). Checked once the events are parsed and resolved: both events
 * exist and differ, each event takes part in one span at most, and the key is a top-level integer,
 * enum or string field of both bodies. */
#include <errno.h>
#include <string.h>

#include <libxml/tree.h>

#include "model.h"
#include "parse.h"

/* The kinds a key may have: compared by value, shown as text. */
static int key_kind_ok(enum ltt_type_kind k)
{
	return k == LTT_TYPE_INT || k == LTT_TYPE_UINT || k == LTT_TYPE_ENUM || k == LTT_TYPE_STRING;
}

static const struct ltt_field_desc *body_field(const struct ltt_event_desc *ev, const char *name)
{
	if (!ev->body)
		return NULL;
	for (uint32_t i = 0; i < ev->body->n_fields; i++)
		if (!strcmp(ev->body->fields[i].name, name))
			return &ev->body->fields[i];
	return NULL;
}

static int span_event(struct pctx *c, const xmlNode *n, const struct ltt_facility_desc *fac, const char *attr,
		      const char *name, const struct ltt_event_desc **out)
{
	if (!name || !*name)
		return FAIL(c, n, "<span> without %s (%s=\"EVENT\": an event of facility '%s')", attr, attr, fac->name);
	*out = ltt_facility_find_event(fac, name);
	if (!*out)
		return FAIL(c, n, "span %s '%s' is not an event of facility '%s'", attr, name, fac->name);
	return 0;
}

static int span_key(struct pctx *c, const xmlNode *n, const struct ltt_span_desc *s)
{
	const struct ltt_event_desc *evs[2] = { s->begin, s->end };

	if (!s->key || !*s->key)
		return FAIL(c, n, "<span> without key (key=\"FIELD\": a field of both events whose equal values pair "
			    "them, a job id)");
	for (unsigned i = 0; i < 2; i++) {
		const struct ltt_field_desc *f = body_field(evs[i], s->key);

		if (!f)
			return FAIL(c, n, "span key '%s' is not a field of event '%s' (add it to both events' <struct>)",
				    s->key, evs[i]->name);
		if (!key_kind_ok(f->type->kind))
			return FAIL(c, n, "span key '%s' of event '%s' is a <%s> (an int, uint, enum or string)", s->key,
				    evs[i]->name, ltt_type_kind_name(f->type->kind));
	}
	return 0;
}

int ed_parse_spans(struct pctx *c, const xmlNode *n, struct ltt_facility_desc *fac)
{
	static const char *const span_attrs[] = { "name", "begin", "end", "key", NULL };
	struct ltt_span_desc *spans;
	uint32_t ns = 0, i = 0;
	int r;

	for (const xmlNode *k = n->children; k; k = k->next)
		ns += (uint32_t)ed_is_elem(k, "span");
	if (!ns)
		return 0;
	spans = arena_alloc(c->arena, ns * sizeof(*spans));
	if (!spans)
		return -ENOMEM;
	for (const xmlNode *k = n->children; k; k = k->next) {
		struct ltt_span_desc *s = &spans[i];
		const char *begin, *end;
		int nomem = 0;

		if (!ed_is_elem(k, "span"))
			continue;
		if ((r = ed_check_attrs(c, k, span_attrs)))
			return r;
		s->name = ed_attr(c, k, "name", &nomem);
		begin = ed_attr(c, k, "begin", &nomem);
		end = ed_attr(c, k, "end", &nomem);
		s->key = ed_attr(c, k, "key", &nomem);
		if (nomem)
			return -ENOMEM;
		s->line = ed_line_of(k);
		if (!s->name || !*s->name)
			return FAIL(c, k, "<span> without name (<span name=\"...\" begin=\"EVENT\" end=\"EVENT\" key=\"FIELD\"/>)");
		for (uint32_t j = 0; j < i; j++)
			if (!strcmp(spans[j].name, s->name))
				return FAIL(c, k, "duplicate span name '%s'", s->name);
		if ((r = span_event(c, k, fac, "begin", begin, &s->begin)) ||
		    (r = span_event(c, k, fac, "end", end, &s->end)))
			return r;
		if (s->begin == s->end)
			return FAIL(c, k, "span '%s' begins and ends with the same event '%s' (two events)", s->name,
				    begin);
		for (uint32_t j = 0; j < i; j++) {
			const struct ltt_event_desc *e[2] = { spans[j].begin, spans[j].end };

			for (unsigned x = 0; x < 2; x++)
				if (e[x] == s->begin || e[x] == s->end)
					return FAIL(c, k, "event '%s' is already in span '%s' (an event is in one span at "
						    "most)", e[x]->name, spans[j].name);
		}
		if ((r = span_key(c, k, s)))
			return r;
		for (const xmlNode *d = k->children; d; d = d->next) {
			if (ed_is_ignorable(d))
				continue;
			if (!ed_is_elem(d, "description"))
				return FAIL(c, d, "unexpected %s in <span> (only a <description>)",
					    d->type == XML_ELEMENT_NODE ? "element" : "text");
			if (!(s->description = ed_description(c, d)))
				return -ENOMEM;
		}
		i++;
	}
	fac->spans = spans;
	fac->n_spans = ns;
	return 0;
}
