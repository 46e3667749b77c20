/* SPDX-License-Identifier: MIT */
/* The Trace2 view of a trace set (trace2_model.h): per process its session, per thread its name and
 * its stack of region start times, rebuilt from the events in merge order. Bounded by what the
 * trace holds: one entry per thread, one stack slot per open region (at most T2_STACK_MAX). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/grow.h"
#include "common/hashmap.h"

#include "toolkit/trace2_model.h"

#define T2_STACK_MAX 4096	/* deeper regions are shown without t_rel */

static const char *const t2_app_names[T2_NKINDS] = {
	[T2_VERSION] = "version", [T2_START] = "start", [T2_EXIT] = "exit", [T2_ATEXIT] = "atexit",
	[T2_SIGNAL] = "signal", [T2_ERROR] = "error", [T2_CMD_PATH] = "cmd_path",
	[T2_CMD_NAME] = "cmd_name", [T2_CMD_MODE] = "cmd_mode", [T2_ALIAS] = "alias",
	[T2_DEF_PARAM] = "def_param", [T2_CHILD_START] = "child_start", [T2_CHILD_EXIT] = "child_exit",
	[T2_EXEC] = "exec", [T2_EXEC_RESULT] = "exec_result", [T2_THREAD_START] = "thread_start",
	[T2_THREAD_EXIT] = "thread_exit", [T2_REGION_ENTER] = "region_enter",
	[T2_REGION_LEAVE] = "region_leave", [T2_DATA_INT] = "data_int", [T2_DATA_STRING] = "data_string",
	[T2_DATA_JSON] = "data_json", [T2_PRINTF] = "printf", [T2_TIMER] = "timer", [T2_COUNTER] = "counter",
};

struct t2_thread {
	uint32_t tid;
	char name[T2_THREAD_NAME_MAX + 1];
	uint64_t start_ns;	/* thread_start, or the process start for main, or first seen */
	uint64_t *stack;	/* start time of each open region, by nesting */
	uint32_t nstack, cap;
	uint32_t depth;		/* regions open, as the last region event said */
};

LTT_MAP_DEFINE(t2_threads, uint32_t, struct t2_thread, ltt_hash_u32, ltt_eq_u32)

struct t2_proc {
	struct t2_process pub;
	int started;		/* start_ns is set */
	struct t2_threads threads;	/* by tid */
	uint8_t *kinds;		/* by event id: 0 unresolved, else enum t2_kind + 1 */
};

struct t2_model {
	struct t2_proc **procs;	/* by trace index (nprocs allocated, zeroed) */
	unsigned nprocs;
};

int t2_model_new(struct t2_model **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void t2_model_free(struct t2_model *m)
{
	if (!m)
		return;
	for (unsigned i = 0; i < m->nprocs; i++) {
		struct t2_proc *p = m->procs[i];

		if (!p)
			continue;
		for (size_t j = 0; j < p->threads.size; j++)
			free(p->threads.slot[j].val.stack);
		t2_threads_free(&p->threads);
		free(p->kinds);
		free(p);
	}
	free(m->procs);
	free(m);
}

/* ---- fields ------------------------------------------------------------------------------------ */

static int t2_field(const struct t2_event *e, const char *field, struct ltt_value *v)
{
	return ltt_value_field(&e->body, field, v);
}

const char *t2_str(const struct t2_event *e, const char *field)
{
	struct ltt_value v;
	const char *s;

	if (t2_field(e, field, &v) < 0 || v.type->kind != LTT_TYPE_STRING)
		return "";
	s = ltt_value_string(&v, NULL);
	return s ? s : "";
}

int64_t t2_int(const struct t2_event *e, const char *field)
{
	struct ltt_value v;

	if (t2_field(e, field, &v) < 0)
		return 0;
	switch (v.type->kind) {
	case LTT_TYPE_INT:
		return ltt_value_int(&v);
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
		return (int64_t)ltt_value_uint(&v);
	default:
		return 0;
	}
}

uint64_t t2_argc(const struct t2_event *e, const char *field)
{
	struct ltt_value seq;

	if (t2_field(e, field, &seq) < 0 || seq.type->kind != LTT_TYPE_SEQUENCE)
		return 0;
	return ltt_value_nchildren(&seq);
}

void t2_argv_each(const struct t2_event *e, const char *field,
		  void (*fn)(void *arg, uint64_t i, const char *s, size_t len), void *arg)
{
	struct ltt_value seq, el;
	uint64_t i = 0;

	if (t2_field(e, field, &seq) < 0 || seq.type->kind != LTT_TYPE_SEQUENCE ||
	    seq.type->element->kind != LTT_TYPE_STRING || ltt_value_first(&seq, &el) < 0)
		return;
	do {
		size_t len = 0;
		const char *s = ltt_value_string(&el, &len);

		fn(arg, i++, s ? s : "", s ? len : 0);
	} while (ltt_value_next(&seq, &el) == 0);
}

/* ---- processes and threads ---------------------------------------------------------------------- */

static uint64_t t2_parse_time(const char *s)
{
	uint64_t sec = 0, ns = 0;
	int digits = 0;

	if (!s)
		return 0;
	for (; *s >= '0' && *s <= '9'; s++)
		sec = sec * 10 + (uint64_t)(*s - '0');
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9' && digits < 9; s++, digits++)
			ns = ns * 10 + (uint64_t)(*s - '0');
	for (; digits < 9; digits++)
		ns *= 10;
	return sec * 1000000000u + ns;
}

static struct t2_proc *t2_proc_get(struct t2_model *m, const struct ltt_event *ev)
{
	unsigned idx = ev->trace->index;
	struct t2_proc *p;
	const char *attr;

	if (LTT_GROW_ZERO(m->procs, (size_t)idx + 1, m->nprocs))
		return NULL;
	if (m->procs[idx])
		return m->procs[idx];
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->kinds = calloc(65536, 1);
	if (!p->kinds) {
		free(p);
		return NULL;
	}
	attr = ltt_trace_attr(ev->trace, "ltt_pid");
	p->pub.pid = attr ? (uint32_t)strtoul(attr, NULL, 10) : 0;
	attr = ltt_trace_attr(ev->trace, "ltt_start_time");
	if (attr) {
		p->pub.start_ns = t2_parse_time(attr);
		p->started = 1;
	}
	{	/* a session id in the app's shape until a version event gives the real one */
		uint64_t t = p->started ? p->pub.start_ns : ev->time_ns;
		time_t sec = (time_t)(t / 1000000000u);
		struct tm tm;

		gmtime_r(&sec, &tm);
		snprintf(p->pub.sid, sizeof(p->pub.sid), "%04d%02d%02dT%02d%02d%02d.%06luZ-H00000000-P%08x",
			 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
			 (unsigned long)(t % 1000000000u / 1000u), p->pub.pid);
	}
	m->procs[idx] = p;
	return p;
}

static struct t2_thread *t2_thread_get(struct t2_proc *p, uint32_t tid, uint64_t now)
{
	int added;
	struct t2_thread *t = t2_threads_put(&p->threads, tid, &added);

	if (!t || !added)
		return t;
	t->tid = tid;
	if (p->pub.pid && tid == p->pub.pid) {
		strcpy(t->name, "main");
		t->start_ns = p->pub.start_ns;
	} else {
		snprintf(t->name, sizeof(t->name), "tid:%u", tid);
		t->start_ns = now;
	}
	return t;
}

/* Records the start time of the region opened at nesting n (n regions already open). */
static void t2_push(struct t2_thread *t, uint32_t n, uint64_t now)
{
	if (n >= T2_STACK_MAX) {
		t->nstack = t->nstack < T2_STACK_MAX ? t->nstack : T2_STACK_MAX;
		return;
	}
	if (LTT_GROW(t->stack, n + 1, t->cap))
		return;
	/* Levels between the last known one and n were entered before anything we saw: unknown. */
	for (uint32_t k = t->nstack; k < n; k++)
		t->stack[k] = UINT64_MAX;
	t->stack[n] = now;
	t->nstack = n + 1;
}

static int t2_since(uint64_t start, uint64_t now, uint64_t *out)
{
	if (start == UINT64_MAX)
		return 0;
	*out = now > start ? now - start : 0;
	return 1;
}

static enum t2_kind t2_kind_of(struct t2_proc *p, const struct ltt_event *ev)
{
	uint8_t k = p->kinds[ev->id];

	if (!k) {
		k = 1 + T2_NONE;
		if (ev->type && !ev->type->builtin && ev->type->facility && !strcmp(ev->type->facility, "app"))
			for (int i = 1; i < T2_NKINDS; i++)
				if (!strcmp(ev->type->name, t2_app_names[i]))
					k = (uint8_t)(1 + i);
		p->kinds[ev->id] = k;
	}
	return (enum t2_kind)(k - 1);
}

int t2_model_event(struct t2_model *m, const struct ltt_event *ev, struct t2_event *out)
{
	struct t2_proc *p = t2_proc_get(m, ev);
	struct t2_thread *t;
	uint64_t now = ev->time_ns;
	uint32_t n;

	if (!p)
		return -ENOMEM;
	if (!p->started) {
		p->pub.start_ns = now;
		p->started = 1;
	}
	memset(out, 0, sizeof(*out));
	out->kind = t2_kind_of(p, ev);
	if (out->kind == T2_NONE || ltt_event_body(ev, &out->body) < 0 || out->body.type->kind != LTT_TYPE_STRUCT)
		return 0;
	out->ev = ev;
	out->proc = &p->pub;
	out->event = out->kind == T2_DATA_INT || out->kind == T2_DATA_STRING ? "data" : t2_app_names[out->kind];
	out->tid = (uint32_t)t2_int(out, "tid");
	out->file = t2_str(out, "file");
	out->line = (uint32_t)t2_int(out, "line");
	out->t_abs_ns = now > p->pub.start_ns ? now - p->pub.start_ns : 0;

	if (out->kind == T2_VERSION) {
		const char *sid = t2_str(out, "sid");
		uint32_t pid = (uint32_t)t2_int(out, "pid");

		if (*sid) {
			snprintf(p->pub.sid, sizeof(p->pub.sid), "%s", sid);
			p->pub.depth = 0;
			for (const char *c = sid; *c; c++)
				p->pub.depth += *c == '/';
		}
		if (pid)
			p->pub.pid = pid;
	}
	t = t2_thread_get(p, out->tid, now);
	if (!t)
		return -ENOMEM;
	if (p->pub.pid && out->tid == p->pub.pid && strcmp(t->name, "main")) {
		strcpy(t->name, "main");	/* the pid became known after the thread was seen */
		t->start_ns = p->pub.start_ns;
	}
	out->nesting = t->depth + 1;
	n = (uint32_t)t2_int(out, "nesting");

	switch (out->kind) {
	case T2_THREAD_START:
		snprintf(t->name, sizeof(t->name), "th%02u:%s", (unsigned)t2_int(out, "number"),
			 t2_str(out, "name"));
		t->start_ns = now;
		break;
	case T2_THREAD_EXIT:
	case T2_CHILD_EXIT:
		out->t_rel_ns = (uint64_t)t2_int(out, "elapsed_ns");
		out->has_rel = 1;
		break;
	case T2_REGION_ENTER:
		out->nesting = n + 1;
		t2_push(t, n, now);
		t->depth = n + 1;
		break;
	case T2_REGION_LEAVE:
		out->nesting = n + 1;
		if (n < t->nstack)
			out->has_rel = t2_since(t->stack[n], now, &out->t_rel_ns);
		if (t->nstack > n)
			t->nstack = n;
		t->depth = n;
		break;
	case T2_DATA_INT:
	case T2_DATA_STRING:
	case T2_DATA_JSON:
	case T2_PRINTF:
		out->nesting = n + 1;
		if (n == 0)
			out->has_rel = t2_since(t->start_ns, now, &out->t_rel_ns);
		else if (n - 1 < t->nstack)
			out->has_rel = t2_since(t->stack[n - 1], now, &out->t_rel_ns);
		break;
	default:
		break;
	}
	out->thread = t->name;
	return 1;
}
