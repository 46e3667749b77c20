/* SPDX-License-Identifier: MIT */
/* The spans of a trace set (toolkit/spans.h): open spans in a hash table on (trace, declaration, key)
 * whose chains put the latest begin first, and in a list in the order of their begins. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/heap.h"
#include "toolkit/spans.h"

struct span_open {
	struct span_open *hnext;		/* hash chain: later begins first */
	struct span_open *prev, *next;		/* every open span, in the order of the begins */
	const struct ltt_facility_desc *fac;
	const struct ltt_span_desc *decl;
	unsigned trace, slot;
	uint64_t id, begin_ns, hash;
	uint64_t epoch;				/* its trace's losses when it began (span_model_loss) */
	int has_tid;
	uint32_t tid;
	void *user;
	size_t klen;
	char key[];				/* NUL-terminated */
};

struct span_slots {			/* the slots in use of one declaration in one trace */
	unsigned trace;
	const struct ltt_span_desc *decl;
	unsigned top;				/* slots [0, top) were taken at least once */
	unsigned *free;				/* the slots below top not in use: a min-heap */
	size_t nfree, capfree;
};

struct span_model {
	struct span_open **hash;
	size_t hsize, nopen;
	struct span_open *first, *last;
	struct span_open *done;			/* the span closed by the previous call (its strings) */
	struct span_slots *slots;
	unsigned nslots, capslots;
	unsigned cache;				/* the slots found last */
	uint64_t *epoch;			/* per trace: loss records of its user tracefiles */
	unsigned nepoch;			/* allocated, zeroed */
	uint64_t next_id, unmatched;
	char num[32];
};

int span_model_new(struct span_model **out)
{
	struct span_model *m = calloc(1, sizeof(*m));

	*out = NULL;
	if (!m)
		return -ENOMEM;
	m->hsize = 64;
	m->hash = calloc(m->hsize, sizeof(*m->hash));
	if (!m->hash) {
		free(m);
		return -ENOMEM;
	}
	m->next_id = 1;
	*out = m;
	return 0;
}

void span_model_free(struct span_model *m)
{
	if (!m)
		return;
	for (struct span_open *o = m->first, *n; o; o = n) {
		n = o->next;
		free(o->user);
		free(o);
	}
	free(m->done);
	for (unsigned i = 0; i < m->nslots; i++)
		free(m->slots[i].free);
	free(m->slots);
	free(m->epoch);
	free(m->hash);
	free(m);
}

uint64_t span_model_unmatched(const struct span_model *m)
{
	return m->unmatched;
}

/* The declaration ev's type begins (*begin 1) or ends (0), or NULL. */
static const struct ltt_span_desc *decl_of(const struct ltt_event_type *ty, int *begin)
{
	const struct ltt_facility_desc *f = ty->fac;

	if (ty->builtin || !f || !f->n_spans)
		return NULL;
	for (uint32_t i = 0; i < f->n_spans; i++) {
		if (f->spans[i].begin == ty->desc) {
			*begin = 1;
			return &f->spans[i];
		}
		if (f->spans[i].end == ty->desc) {
			*begin = 0;
			return &f->spans[i];
		}
	}
	return NULL;
}

int span_event_type(const struct ltt_event_type *ty)
{
	int begin;

	return decl_of(ty, &begin) != NULL;
}

/* The key field of ev as text in *key (len *klen): 0, or -1 when the event does not hold it. */
static int key_text(struct span_model *m, const struct ltt_event *ev, const char *field, const char **key,
		    size_t *klen)
{
	struct ltt_value body, v;
	const char *s;
	int n;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, field, &v))
		return -1;
	switch (v.type->kind) {
	case LTT_TYPE_STRING:
		*key = ltt_value_string(&v, klen);
		return *key ? 0 : -1;
	case LTT_TYPE_ENUM:
		if ((s = ltt_value_enum_label(&v))) {
			*key = s;
			*klen = strlen(s);
			return 0;
		}
		n = snprintf(m->num, sizeof(m->num), "%" PRIu64, ltt_value_uint(&v));
		break;
	case LTT_TYPE_UINT:
		n = snprintf(m->num, sizeof(m->num), "%" PRIu64, ltt_value_uint(&v));
		break;
	case LTT_TYPE_INT:
		n = snprintf(m->num, sizeof(m->num), "%" PRId64, ltt_value_int(&v));
		break;
	default:
		return -1;
	}
	*key = m->num;
	*klen = (size_t)n;
	return 0;
}

static int tid_of(const struct ltt_event *ev, uint32_t *tid)
{
	struct ltt_value body, v;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, "tid", &v))
		return 0;
	if (v.type->kind == LTT_TYPE_UINT)
		*tid = (uint32_t)ltt_value_uint(&v);
	else if (v.type->kind == LTT_TYPE_INT)
		*tid = (uint32_t)ltt_value_int(&v);
	else
		return 0;
	return 1;
}

static uint64_t key_hash(unsigned trace, const struct ltt_span_desc *d, const char *key, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull ^ ((uint64_t)(uintptr_t)d * 0x9e3779b97f4a7c15ull) ^ trace;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)key[i]) * 0x100000001b3ull;
	return h ^ h >> 31;
}

static int hash_grow(struct span_model *m)
{
	size_t ns = m->hsize * 2;
	struct span_open **nh = calloc(ns, sizeof(*nh));

	if (!nh)
		return -ENOMEM;
	/* rehash from the last begin to the first, each at its chain's head: later begins stay first */
	for (struct span_open *o = m->last; o; o = o->prev) {
		size_t b = (size_t)(o->hash & (ns - 1));

		o->hnext = nh[b];
		nh[b] = o;
	}
	free(m->hash);
	m->hash = nh;
	m->hsize = ns;
	return 0;
}

static struct span_slots *slots_of(struct span_model *m, unsigned trace, const struct ltt_span_desc *d)
{
	struct span_slots *s;

	if (m->cache < m->nslots && m->slots[m->cache].trace == trace && m->slots[m->cache].decl == d)
		return &m->slots[m->cache];
	for (unsigned i = 0; i < m->nslots; i++)
		if (m->slots[i].trace == trace && m->slots[i].decl == d) {
			m->cache = i;
			return &m->slots[i];
		}
	if (LTT_GROW(m->slots, m->nslots + 1, m->capslots))
		return NULL;
	s = &m->slots[m->nslots++];
	memset(s, 0, sizeof(*s));
	s->trace = trace;
	s->decl = d;
	return s;
}

static inline int slot_before(unsigned a, unsigned b)
{
	return a < b;
}
LTT_HEAP_DEFINE(slot_heap, unsigned, slot_before)

/* The lowest free slot, taken: the least of the freed ones below top (a min-heap), else top; O(log n)
 * (a scan from 0 made 10^6 spans never ended quadratic: issue 34). Never fails. */
static int slot_take(struct span_slots *s)
{
	unsigned i;

	if (s->nfree) {
		i = s->free[0];
		slot_heap_pop(s->free, &s->nfree);
		return (int)i;
	}
	return (int)s->top++;
}

/* Slot i is free again: 0, or -ENOMEM (reserved at the begin: span_begin keeps room). */
static int slot_give(struct span_slots *s, unsigned i)
{
	slot_heap_push(s->free, &s->nfree, i);
	return 0;
}

/* Room in s->free for every slot below top + 1 (so that slot_give never allocates): 0 or -ENOMEM. */
static int slot_room(struct span_slots *s)
{
	return LTT_GROW(s->free, s->top + 1u, s->capfree);
}

/* The losses of trace i so far (span_model_loss). */
static uint64_t epoch_of(const struct span_model *m, unsigned i)
{
	return i < m->nepoch ? m->epoch[i] : 0;
}

int span_model_loss(struct span_model *m, unsigned trace)
{
	if (LTT_GROW_ZERO(m->epoch, (size_t)trace + 1, m->nepoch))
		return -ENOMEM;
	m->epoch[trace]++;
	return 0;
}

static void fill_common(struct span_ev *out, const struct ltt_event *ev, const struct ltt_span_desc *d)
{
	memset(out, 0, sizeof(*out));
	out->fac = ev->type->fac;
	out->decl = d;
	out->trace = ev->trace->index;
}

/* What a span event says of the open span o: its key, id, slot, begin and thread. */
static void fill_open(struct span_ev *out, const struct span_open *o)
{
	out->key = o->key;
	out->id = o->id;
	out->slot = o->slot;
	out->begin_ns = o->begin_ns;
	out->has_tid = o->has_tid;
	out->tid = o->tid;
}

/* An open span as the open ones are listed (SPAN_BEGIN, the user's value). */
static struct span_ev open_ev(const struct span_open *o)
{
	struct span_ev e = { .kind = SPAN_BEGIN, .fac = o->fac, .decl = o->decl, .trace = o->trace,
			     .user_val = o->user };

	fill_open(&e, o);
	return e;
}

static int span_begin(struct span_model *m, const struct ltt_event *ev, const struct ltt_span_desc *d,
		      const char *key, size_t klen, uint64_t h, struct span_ev *out)
{
	struct span_slots *ss = slots_of(m, ev->trace->index, d);
	struct span_open *o;
	size_t b;
	int slot;

	if (!ss || (m->nopen + 1 > m->hsize && hash_grow(m)) || slot_room(ss))
		return -ENOMEM;
	o = malloc(sizeof(*o) + klen + 1);
	if (!o)
		return -ENOMEM;
	slot = slot_take(ss);
	memset(o, 0, sizeof(*o));
	memcpy(o->key, key, klen);
	o->key[klen] = 0;
	o->klen = klen;
	o->hash = h;
	o->fac = ev->type->fac;
	o->decl = d;
	o->trace = ev->trace->index;
	o->slot = (unsigned)slot;
	o->id = m->next_id++;
	o->begin_ns = ev->time_ns;
	o->epoch = epoch_of(m, o->trace);
	o->has_tid = tid_of(ev, &o->tid);
	b = (size_t)(h & (m->hsize - 1));
	o->hnext = m->hash[b];
	m->hash[b] = o;
	o->prev = m->last;
	if (m->last)
		m->last->next = o;
	else
		m->first = o;
	m->last = o;
	m->nopen++;
	fill_common(out, ev, d);
	out->kind = SPAN_BEGIN;
	fill_open(out, o);
	out->user = &o->user;
	return SPAN_BEGIN;
}

static int span_end(struct span_model *m, const struct ltt_event *ev, const struct ltt_span_desc *d,
		    const char *key, size_t klen, uint64_t h, struct span_ev *out)
{
	unsigned trace = ev->trace->index;
	size_t b = (size_t)(h & (m->hsize - 1));
	struct span_open **pp, *o;

	fill_common(out, ev, d);
	out->end_ns = ev->time_ns;
	out->has_end_tid = tid_of(ev, &out->end_tid);
	for (pp = &m->hash[b]; (o = *pp); pp = &o->hnext)
		if (o->hash == h && o->trace == trace && o->decl == d && o->klen == klen && !memcmp(o->key, key, klen))
			break;
	if (!o) {
		out->key = key;		/* the event's bytes, the model's number or the enum's label */
		m->unmatched++;
		out->kind = SPAN_UNMATCHED;
		return SPAN_UNMATCHED;
	}
	*pp = o->hnext;
	if (o->prev)
		o->prev->next = o->next;
	else
		m->first = o->next;
	if (o->next)
		o->next->prev = o->prev;
	else
		m->last = o->prev;
	m->nopen--;
	slot_give(slots_of(m, trace, d), o->slot);	/* it exists, with room: the begin made it */
	m->done = o;
	out->kind = SPAN_END;
	fill_open(out, o);
	out->user_val = o->user;
	out->cut = o->epoch != epoch_of(m, trace);
	o->user = NULL;
	return SPAN_END;
}

int span_model_event(struct span_model *m, const struct ltt_event *ev, struct span_ev *out)
{
	const struct ltt_span_desc *d;
	const char *key;
	size_t klen;
	int begin;

	out->kind = SPAN_NONE;
	d = decl_of(ev->type, &begin);
	if (!d)
		return SPAN_NONE;
	free(m->done);
	m->done = NULL;
	if (key_text(m, ev, d->key, &key, &klen))
		return SPAN_NONE;	/* not the declared layout (a damaged description): no span */
	if (begin)
		return span_begin(m, ev, d, key, klen, key_hash(ev->trace->index, d, key, klen), out);
	return span_end(m, ev, d, key, klen, key_hash(ev->trace->index, d, key, klen), out);
}

int span_model_open_next(struct span_model *m, void **cursor, struct span_ev *out)
{
	struct span_open *o = *cursor ? ((struct span_open *)*cursor)->next : m->first;

	if (!o)
		return 0;
	*cursor = o;
	*out = open_ev(o);
	return 1;
}

int span_model_open_each(struct span_model *m, int (*fn)(void *arg, const struct span_ev *sp), void *arg)
{
	for (struct span_open *o = m->first; o; o = o->next) {
		struct span_ev e = open_ev(o);
		int r = fn(arg, &e);

		if (r)
			return r;
	}
	return 0;
}
