/* SPDX-License-Identifier: MIT */
/* toolkit/profile_model.c: threads, their stacks and the functions of the samples of a trace (see
 * profile.h): fed with events in merge order by `ltt stats --profile` and the tracelog format. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "toolkit/profile.h"

int prof_model_init(struct prof_model *m)
{
	memset(m, 0, sizeof(*m));
	m->sym = prof_sym_new();
	return m->sym ? 0 : -ENOMEM;
}

void prof_model_free(struct prof_model *m)
{
	for (size_t i = 0; i < m->nfuncs; i++)
		free(m->funcs[i].name);
	free(m->funcs);
	free(m->threads);
	prof_ip_map_free(&m->ips);
	prof_sym_free(m->sym);
	memset(m, 0, sizeof(*m));
}

int prof_is_core(const struct ltt_event *ev, const char *name)
{
	const struct ltt_event_type *ty = ev->type;

	return !ty->builtin && !strcmp(ty->facility, "core") && !strcmp(ty->name, name);
}

uint64_t prof_field_u64(const struct ltt_event *ev, const char *name)
{
	struct ltt_value body, f;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, name, &f))
		return 0;
	return ltt_value_uint(&f);
}

struct prof_thread *prof_thread(struct prof_model *m, uint32_t tid, int *created)
{
	struct prof_thread *t;

	if (created)
		*created = 0;
	for (size_t i = m->nthreads; i-- > 0;)
		if (m->threads[i].tid == tid)
			return &m->threads[i];
	if (LTT_GROW(m->threads, m->nthreads + 1, m->cap_threads))
		return NULL;
	t = &m->threads[m->nthreads++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->user = -1;
	if (created)
		*created = 1;
	return t;
}

/* ---- functions ----------------------------------------------------------------------------------- */

static long func_new(struct prof_model *m, const struct prof_symbol *sy, uint64_t addr, uint64_t ip)
{
	struct prof_func *f;
	char buf[96];
	const char *base;

	/* one function per (symbol start, module): look it up first (few distinct functions) */
	for (size_t i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].resolved && sy->name && m->funcs[i].start == sy->start)
			return (long)i;
	if (LTT_GROW(m->funcs, m->nfuncs + 1, m->cap_funcs))
		return -ENOMEM;
	f = &m->funcs[m->nfuncs];
	memset(f, 0, sizeof(*f));
	f->user = -1;
	f->module = sy->module;
	if (sy->name) {
		f->name = strdup(sy->name);
		f->start = sy->start;
		f->size = sy->size;
		f->resolved = 1;
	} else {
		/* unknown: the address itself is the function, named as perf does: the module's name and
		 * the address's offset in its file (the same from run to run), else the address */
		base = sy->module ? strrchr(sy->module, '/') : NULL;
		base = base ? base + 1 : sy->module;
		if (base && *base)
			snprintf(buf, sizeof(buf), "%s+0x%" PRIx64, base, sy->offset + (ip - addr));
		else
			snprintf(buf, sizeof(buf), "0x%" PRIx64, ip);
		f->name = strdup(buf);
		f->start = ip;
	}
	if (!f->name)
		return -ENOMEM;
	return (long)m->nfuncs++;
}

long prof_func_of(struct prof_model *m, uint64_t ip, int top)
{
	uint64_t key = ip * 2 + (top ? 1 : 0);
	const uint32_t *known = prof_ip_map_find(&m->ips, key);
	struct prof_symbol sy;
	uint32_t *v;
	long f;

	if (known)
		return (long)*known;
	if (prof_ip_map_reserve(&m->ips, m->ips.count + 1))
		return -ENOMEM;
	/* a return address is looked up in the call before it */
	prof_sym_lookup(m->sym, top || !ip ? ip : ip - 1, &sy);
	f = func_new(m, &sy, top || !ip ? ip : ip - 1, ip);
	if (f < 0)
		return f;
	v = prof_ip_map_put(&m->ips, key, NULL);	/* room reserved: never NULL */
	*v = (uint32_t)f;
	return f;
}

/* ---- events -------------------------------------------------------------------------------------- */

static void mapping(struct prof_model *m, const struct ltt_event *ev)
{
	struct ltt_value body, f, id, el;
	unsigned char bid[64];
	unsigned n = 0;
	const char *path;
	int ret;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, "build_id", &id) ||
	    ltt_value_field(&body, "path", &f))
		return;
	path = ltt_value_string(&f, NULL);
	for (ret = ltt_value_first(&id, &el); !ret && n < sizeof(bid); ret = ltt_value_next(&id, &el))
		bid[n++] = (unsigned char)ltt_value_uint(&el);
	prof_sym_mapping(m->sym, prof_field_u64(ev, "start"), prof_field_u64(ev, "end"),
			 prof_field_u64(ev, "offset"), bid, n, path ? path : "");
}

int prof_model_event(struct prof_model *m, const struct ltt_event *ev)
{
	if (prof_is_core(ev, "mapping")) {
		mapping(m, ev);
		return 1;
	}
	if (prof_is_core(ev, "sampling")) {
		m->hz = (unsigned)prof_field_u64(ev, "stack_sample_hz");
		return 1;
	}
	return 0;
}

int prof_model_sample(struct prof_model *m, const struct ltt_event *ev, struct prof_thread **tp,
		      struct prof_sample *s)
{
	uint64_t frames[PROF_MAX_DEPTH];
	struct prof_thread *t;
	int ret;

	if (prof_sample_read(ev, s) || s->nframes > PROF_MAX_DEPTH)
		return -EINVAL;
	t = prof_thread(m, s->tid, NULL);
	if (!t)
		return -ENOMEM;
	*tp = t;
	for (unsigned i = 0; i < s->nframes; i++)
		frames[i] = prof_sample_frame(s, i);
	m->samples++;
	ret = prof_stack_apply(&t->stack, s->match, s->depth, frames, s->nframes);
	if (ret <= 0) {
		m->unknown++;
		t->lost++;
		return 0;
	}
	t->samples++;
	t->ticks += s->ticks;
	m->ticks += s->ticks;
	return 1;
}
