/* SPDX-License-Identifier: MIT */
/* The timeline view shared by the timeline formats (timeline.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "toolkit/export.h"
#include "timeline.h"
#include "toolkit/dump_format.h"
#include "toolkit/spans.h"

#define TL_CPU_TID_BASE 0x7ff00000u	/* made-up tids of CPU lanes: base + tracefile index */
#define TL_SPAN_TID_BASE 0x7fe00000u	/* made-up tids of span lanes: base + their count so far */

struct tl_span_set {			/* the lanes of one span declaration in one process, by slot */
	unsigned trace;
	const struct ltt_span_desc *decl;
	struct tl_lane **slot;
	unsigned n;
};

struct timeline {
	struct t2_model *t2;
	struct prof_model pm;		/* function names of func events */
	int pm_ok;
	struct tl_process *procs;	/* by trace index */
	unsigned nprocs;
	struct tl_lane **lanes;		/* in creation order */
	unsigned nlanes, cap;
	struct tl_lane **hash;		/* open addressing; size a power of two, at most half full */
	size_t hsize;
	struct tl_lane *last;		/* the lane of the previous event (most often the next one's) */
	struct span_model *spans;
	struct tl_span_set *sets;
	unsigned nsets, nspan_lanes;
};

int timeline_new(struct timeline **out, struct ltt_reader *r)
{
	struct timeline *tl = calloc(1, sizeof(*tl));

	if (!tl || t2_model_new(&tl->t2) || span_model_new(&tl->spans))
		goto nomem;
	if (prof_model_init(&tl->pm))
		goto nomem;
	tl->pm_ok = 1;
	tl->nprocs = ltt_reader_ntraces(r);
	tl->procs = calloc(tl->nprocs ? tl->nprocs : 1, sizeof(*tl->procs));
	tl->hsize = 64;
	tl->hash = calloc(tl->hsize, sizeof(*tl->hash));
	if (!tl->procs || !tl->hash)
		goto nomem;
	for (unsigned i = 0; i < tl->nprocs; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);
		struct tl_process *p = &tl->procs[i];

		p->trace = i;
		p->pid = export_trace_pid(t);
		if (!p->pid)
			p->pid = 1000000 + i;
		snprintf(p->name, sizeof(p->name), "%s", export_trace_program(t));
		p->renamed = 1;
	}
	*out = tl;
	return 0;
nomem:
	timeline_free(tl);
	return -ENOMEM;
}

void timeline_free(struct timeline *tl)
{
	if (!tl)
		return;
	t2_model_free(tl->t2);
	span_model_free(tl->spans);
	for (unsigned i = 0; i < tl->nsets; i++)
		free(tl->sets[i].slot);
	free(tl->sets);
	if (tl->pm_ok)
		prof_model_free(&tl->pm);
	for (unsigned i = 0; i < tl->nlanes; i++)
		free(tl->lanes[i]);
	free(tl->lanes);
	free(tl->hash);
	free(tl->procs);
	free(tl);
}

unsigned timeline_nprocs(const struct timeline *tl)
{
	return tl->nprocs;
}

struct tl_process *timeline_proc(struct timeline *tl, unsigned i)
{
	return &tl->procs[i];
}

unsigned timeline_nlanes(const struct timeline *tl)
{
	return tl->nlanes;
}

struct tl_lane *timeline_lane(struct timeline *tl, unsigned i)
{
	return tl->lanes[i];
}

static size_t lane_hash(unsigned trace, unsigned is_thread, uint64_t key)
{
	uint64_t h = (key * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)trace << 1 | is_thread) * 0xff51afd7ed558ccdull;

	return (size_t)(h ^ h >> 29);
}

static int lane_key_eq(const struct tl_lane *l, unsigned trace, unsigned is_thread, uint64_t key)
{
	return l->proc->trace == trace && l->is_thread == is_thread &&
	       (is_thread ? l->tid == key : (uintptr_t)l->tf == key);
}

static int lanes_grow(struct timeline *tl)
{
	size_t nsize = tl->hsize * 2;
	struct tl_lane **nh = calloc(nsize, sizeof(*nh));

	if (!nh)
		return -ENOMEM;
	for (unsigned i = 0; i < tl->nlanes; i++) {
		struct tl_lane *l = tl->lanes[i];
		size_t k = lane_hash(l->proc->trace, l->is_thread, l->is_thread ? l->tid : (uintptr_t)l->tf);

		for (k &= nsize - 1; nh[k]; k = (k + 1) & (nsize - 1))
			;
		nh[k] = l;
	}
	free(tl->hash);
	tl->hash = nh;
	tl->hsize = nsize;
	return 0;
}

static struct tl_lane *lane_get(struct timeline *tl, const struct ltt_event *ev, int is_thread, uint32_t tid)
{
	unsigned trace = ev->trace->index;
	uint64_t key = is_thread ? tid : (uintptr_t)ev->tracefile;
	struct tl_process *p = &tl->procs[trace];
	struct tl_lane *l;
	size_t k;

	if (tl->last && lane_key_eq(tl->last, trace, (unsigned)is_thread, key))
		return tl->last;
	for (k = lane_hash(trace, (unsigned)is_thread, key) & (tl->hsize - 1); tl->hash[k];
	     k = (k + 1) & (tl->hsize - 1))
		if (lane_key_eq(tl->hash[k], trace, (unsigned)is_thread, key))
			return tl->last = tl->hash[k];
	if ((tl->nlanes + 1) * 2 > tl->hsize || tl->nlanes == tl->cap) {
		if (LTT_GROW(tl->lanes, tl->nlanes + 1, tl->cap))
			return NULL;
		if ((tl->nlanes + 1) * 2 > tl->hsize && lanes_grow(tl))
			return NULL;
		for (k = lane_hash(trace, (unsigned)is_thread, key) & (tl->hsize - 1); tl->hash[k];
		     k = (k + 1) & (tl->hsize - 1))
			;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->proc = p;
	l->is_thread = (unsigned)is_thread;
	l->index = tl->nlanes;
	l->renamed = 1;
	if (is_thread) {
		l->tid = tid;
		if (tid == p->pid)
			snprintf(l->name, sizeof(l->name), "%s", p->name);
		else
			snprintf(l->name, sizeof(l->name), "thread %u", tid);
	} else {
		unsigned idx = 0;

		for (unsigned i = 0; i < ev->trace->ntracefiles; i++)
			if (ev->trace->tracefiles[i] == ev->tracefile)
				idx = i;
		l->tf = ev->tracefile;
		l->tid = TL_CPU_TID_BASE + idx;
		snprintf(l->name, sizeof(l->name), "%s", ev->tracefile->name);
	}
	tl->hash[k] = l;
	tl->lanes[tl->nlanes++] = l;
	return tl->last = l;
}

/* The lane of slot `slot` of span declaration d in trace `trace`, made on first use (not hashed:
 * found through its set). */
static struct tl_lane *span_lane(struct timeline *tl, unsigned trace, const struct ltt_facility_desc *fac,
				 const struct ltt_span_desc *d, unsigned slot)
{
	struct tl_span_set *set = NULL;
	struct tl_lane *l;

	for (unsigned i = 0; i < tl->nsets && !set; i++)
		if (tl->sets[i].trace == trace && tl->sets[i].decl == d)
			set = &tl->sets[i];
	if (!set) {
		struct tl_span_set *ns = realloc(tl->sets, (tl->nsets + 1) * sizeof(*ns));

		if (!ns)
			return NULL;
		tl->sets = ns;
		set = &tl->sets[tl->nsets++];
		memset(set, 0, sizeof(*set));
		set->trace = trace;
		set->decl = d;
	}
	if (slot < set->n && set->slot[slot])
		return set->slot[slot];
	if (slot >= set->n) {
		unsigned nn = slot + 8;
		struct tl_lane **nsl = realloc(set->slot, nn * sizeof(*nsl));

		if (!nsl)
			return NULL;
		memset(nsl + set->n, 0, (nn - set->n) * sizeof(*nsl));
		set->slot = nsl;
		set->n = nn;
	}
	if (LTT_GROW(tl->lanes, tl->nlanes + 1, tl->cap))
		return NULL;
	l = calloc(1, sizeof(*l));
	if (!l)
		return NULL;
	l->proc = &tl->procs[trace];
	l->is_span = 1;
	l->index = tl->nlanes;
	l->renamed = 1;
	l->tid = TL_SPAN_TID_BASE + tl->nspan_lanes++;
	if (slot)
		snprintf(l->name, sizeof(l->name), "%s.%s %u", fac->name, d->name, slot + 1);
	else
		snprintf(l->name, sizeof(l->name), "%s.%s", fac->name, d->name);
	tl->lanes[tl->nlanes++] = l;
	return set->slot[slot] = l;
}

/* A span's begin or end (toolkit/spans.h): 1 when it is one (out set), 0 when not, or -ENOMEM. */
static int span_event(struct timeline *tl, const struct ltt_event *ev, struct tl_event *out)
{
	struct span_ev sp;
	struct tl_lane *l;
	int k = span_model_event(tl->spans, ev, &sp);

	if (k <= 0 || k == SPAN_UNMATCHED)
		return k < 0 ? k : 0;
	l = span_lane(tl, sp.trace, sp.fac, sp.decl, sp.slot);
	if (!l)
		return -ENOMEM;
	out->lane = l;
	out->name = sp.decl->name;
	out->category = sp.fac->name;
	if (k == SPAN_BEGIN) {
		out->kind = TL_BEGIN;
		l->depth++;
	} else if (l->depth) {
		out->kind = TL_END;
		l->depth--;
	}
	return 1;
}

static void set_name(char *dst, unsigned *renamed, const char *s)
{
	if (!s || !*s || !strncmp(dst, s, TL_NAME_MAX - 1))
		return;
	snprintf(dst, TL_NAME_MAX, "%s", s);
	*renamed = 1;
}

/* A string field of the body, or NULL. */
static const char *body_str(const struct ltt_event *ev, const char *field)
{
	struct ltt_value b, v;

	if (ltt_event_body(ev, &b) < 0 || b.type->kind != LTT_TYPE_STRUCT || ltt_value_field(&b, field, &v) < 0 ||
	    v.type->kind != LTT_TYPE_STRING)
		return NULL;
	return ltt_value_string(&v, NULL);
}

static struct tl_process *proc_of_pid(struct timeline *tl, uint32_t pid)
{
	for (unsigned i = 0; i < tl->nprocs; i++)
		if (tl->procs[i].pid == pid)
			return &tl->procs[i];
	return NULL;
}

static int classify_builtin(const struct ltt_event *ev, struct tl_event *out)
{
	struct ltt_value b, v;

	out->count = 0;
	out->cause = "unknown";
	if (ltt_event_body(ev, &b) < 0)
		return 0;
	if (ev->id == LTT_ID_EVENTS_LOST) {
		if (ltt_value_field(&b, "count", &v) == 0)
			out->count = ltt_value_uint(&v);
		out->cause = "unknown";
		if (ltt_value_field(&b, "cause", &v) == 0)
			out->cause = ltt_lost_cause_name((unsigned)ltt_value_uint(&v));
		out->kind = TL_LOST;
		return 1;
	}
	if (ev->id == LTT_ID_BLOCKS_LOST) {
		if (ltt_value_field(&b, "events", &v) == 0)
			out->count = ltt_value_uint(&v);
		out->cause = "overwritten";	/* blocks that did not reach the file (section 7) */
		out->kind = TL_LOST;
		return 1;
	}
	return 0;
}

/* func.entry (kind 1), func.exit (2), func.call (3): tid, addr[, cycles] (eventdefs/func.xml). */
static int func_event(struct timeline *tl, const struct ltt_event *ev, unsigned kind, struct tl_event *out)
{
	struct tl_lane *l = out->lane;
	long f;

	if (ev->size < (kind == 3 ? 20u : 12u))
		return 0;	/* not eventdefs/func.xml's layout: an instant */
	if (kind == 2) {
		if (l->fdepth && l->depth) {
			out->kind = TL_END;
			out->category = "func";
			l->fdepth--;
			l->depth--;
		}
		return 0;
	}
	f = prof_func_of(&tl->pm, dump_get_uint(ev->payload + 4, 8, ev->big_endian), 1);
	if (f < 0)
		return (int)f;
	out->name = tl->pm.funcs[f].name;
	out->category = "func";
	if (kind == 1) {
		out->kind = TL_BEGIN;
		l->fdepth++;
		l->depth++;
	} else {
		uint64_t cyc = dump_get_uint(ev->payload + 12, 8, ev->big_endian), cps = ev->trace->cycles_per_second;
		uint64_t dur = cps ? (uint64_t)((unsigned __int128)cyc * 1000000000u / cps) : cyc;

		out->kind = TL_SLICE;
		out->slice_start_ns = dur < ev->time_ns ? ev->time_ns - dur : 0;
	}
	return 0;
}

int timeline_event(struct timeline *tl, const struct ltt_event *ev, struct tl_event *out)
{
	struct tl_process *p = &tl->procs[ev->trace->index];
	const struct export_type *et = export_type(ev);
	uint32_t tid = 0;
	int is_thread = export_event_tid(ev, &tid);
	int ret;

	if (__builtin_expect(!p->seen, 0)) {
		p->seen = 1;
		p->first_ns = ev->time_ns;
	}
	out->ev = ev;
	out->kind = TL_INSTANT;
	out->name = et->full;
	out->category = NULL;
	out->t2.kind = T2_NONE;
	out->lane = lane_get(tl, ev, is_thread, tid);
	if (!out->lane)
		return -ENOMEM;
	if (__builtin_expect(ev->type->builtin, 0)) {
		classify_builtin(ev, out);
		return 0;
	}
	if (__builtin_expect(et->func != 0, 0))
		return func_event(tl, ev, et->func, out);
	if (__builtin_expect(ev->type->fac && ev->type->fac->n_spans, 0) && (ret = span_event(tl, ev, out)))
		return ret < 0 ? ret : 0;
	if (et->core)
		prof_model_event(&tl->pm, ev);	/* core.mapping: the binaries of func events */
	if (!et->app) {		/* core's thread names; nothing else to know */
		if (et->thread_name && is_thread)
			set_name(out->lane->name, &out->lane->renamed, body_str(ev, "name"));
		return 0;
	}
	ret = t2_model_event(tl->t2, ev, &out->t2);
	if (ret <= 0)
		return ret;
	switch (out->t2.kind) {
	case T2_CMD_NAME:
		set_name(p->name, &p->renamed, t2_str(&out->t2, "name"));
		break;
	case T2_THREAD_START:
		set_name(out->lane->name, &out->lane->renamed, t2_str(&out->t2, "name"));
		break;
	case T2_REGION_ENTER:
		out->kind = TL_BEGIN;
		out->category = t2_str(&out->t2, "category");
		out->name = t2_str(&out->t2, "label");
		out->lane->depth++;
		break;
	case T2_REGION_LEAVE:
		if (out->lane->depth) {
			out->kind = TL_END;
			out->category = t2_str(&out->t2, "category");
			out->name = t2_str(&out->t2, "label");
			out->lane->depth--;
		}
		break;
	case T2_DATA_INT:
	case T2_COUNTER:
		out->kind = TL_COUNTER;
		out->category = t2_str(&out->t2, out->t2.kind == T2_COUNTER ? "name" : "key");
		out->value = t2_int(&out->t2, "value");
		break;
	case T2_DATA_STRING: {	/* a value that is a whole decimal integer is a counter value too */
		const char *v = t2_str(&out->t2, "value");
		char *end;
		long long n;

		errno = 0;
		n = strtoll(v, &end, 10);
		if (*v && !*end && !errno && !(*v == ' ' || *v == '\t' || *v == '+')) {
			out->kind = TL_COUNTER;
			out->category = t2_str(&out->t2, "key");
			out->value = n;
		}
		break;
	}
	case T2_CHILD_EXIT: {
		uint64_t el = (uint64_t)t2_int(&out->t2, "elapsed_ns");

		out->kind = TL_CHILD;
		out->child_id = (int32_t)t2_int(&out->t2, "child_id");
		out->child_pid = (uint32_t)t2_int(&out->t2, "pid");
		out->child_code = (int32_t)t2_int(&out->t2, "code");
		out->child_start_ns = el < ev->time_ns ? ev->time_ns - el : 0;
		out->child_proc = out->child_pid ? proc_of_pid(tl, out->child_pid) : NULL;
		break;
	}
	default:
		break;
	}
	return 0;
}
