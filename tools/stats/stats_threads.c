/* SPDX-License-Identifier: MIT */
/* `ltt stats --per-thread` (report.h). A thread is a (trace, tid) of the events that carry a
 * tid (toolkit/event_tid.h), counted as `ltt sql`'s threads table counts them (its `events` column)
 * and named as it names them: Trace2's name when the app facility names the thread ("main",
 * "th01:name"), else core's (core.thread_start, core.thread_name: the kernel's name). Threads are kept
 * in a hash table: a trace of many short threads costs one lookup per event. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/hashmap.h"

#include "toolkit/losses.h"
#include "toolkit/trace2_model.h"
#include "report.h"

struct th {
	unsigned trace;
	int64_t tid, pid;	/* pid -1: unknown */
	char *name;
	int rank;		/* of name: 0 none or Trace2's "tid:N", 1 core's, 2 Trace2's own */
	uint64_t events, first_ns, last_ns;
	uint64_t *by_id;	/* [the trace's nids] */
};

struct th_key {
	unsigned trace;
	int64_t tid;
};

static inline uint64_t th_key_hash(struct th_key k)
{
	return ltt_hash64((uint64_t)k.tid ^ (uint64_t)k.trace << 48);
}

static inline int th_key_eq(struct th_key a, struct th_key b)
{
	return a.tid == b.tid && a.trace == b.trace;
}

LTT_MAP_DEFINE(th_map, struct th_key, size_t, th_key_hash, th_key_eq)

struct th_state {
	struct th *t;
	size_t n, cap;
	/* (trace, tid) -> its place in t */
	struct th_map index;
	unsigned *nids;		/* per trace: highest event id + 1 */
	uint64_t *events;	/* per trace: events (builtin records aside) */
	struct losses *loss;	/* per trace: the loss records read (toolkit/losses.h) */
};

static struct th *th_get(struct th_state *s, unsigned trace, int64_t tid)
{
	struct th_key k = { trace, tid };
	size_t *i = th_map_find(&s->index, k);
	struct th *t;

	if (i)
		return &s->t[*i];
	if (LTT_GROW(s->t, s->n + 1, s->cap))
		return NULL;
	t = &s->t[s->n];
	memset(t, 0, sizeof(*t));
	t->by_id = calloc(s->nids[trace], sizeof(*t->by_id));
	if (!t->by_id || !(i = th_map_put(&s->index, k, NULL))) {
		free(t->by_id);
		return NULL;
	}
	*i = s->n++;
	t->trace = trace;
	t->tid = tid;
	t->pid = -1;
	return t;
}

/* A string or integer field of ev's body; 0 when absent or of another kind. */
static int field(const struct ltt_event *ev, const char *name, const char **str, int64_t *num)
{
	struct ltt_value body, v;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, name, &v))
		return 0;
	if (str && v.type->kind == LTT_TYPE_STRING)
		return (*str = ltt_value_string(&v, NULL)) != NULL;
	if (num && (v.type->kind == LTT_TYPE_UINT || v.type->kind == LTT_TYPE_INT)) {
		*num = v.type->kind == LTT_TYPE_INT ? ltt_value_int(&v) : (int64_t)ltt_value_uint(&v);
		return 1;
	}
	return 0;
}

static int set_name(struct th *t, const char *name, int rank)
{
	char *c = strdup(name);

	if (!c)
		return -ENOMEM;
	free(t->name);
	t->name = c;
	t->rank = rank;
	return 0;
}

static int th_event(struct th_state *s, struct t2_model *m, const struct ltt_event *ev)
{
	unsigned trace = ev->trace->index;
	const char *name;
	struct t2_event e;
	struct th *t;
	int64_t tid, pid;
	int core;

	s->events[trace]++;
	if (!event_tid(ev, &tid))
		return 0;
	if (!(t = th_get(s, trace, tid)))
		return -ENOMEM;
	if (!t->events++)
		t->first_ns = ev->time_ns;
	t->last_ns = ev->time_ns;
	if (ev->id < s->nids[trace])
		t->by_id[ev->id]++;
	core = !strcmp(ev->type->facility, "core");
	if (core && (!strcmp(ev->type->name, "thread_start") || !strcmp(ev->type->name, "thread_name")) &&
	    t->rank < 2 && field(ev, "name", &name, NULL) && set_name(t, name, 1))
		return -ENOMEM;
	if (core && field(ev, "pid", NULL, &pid))
		t->pid = pid;
	if (!strcmp(ev->type->facility, "app") && t2_model_event(m, ev, &e) == 1) {
		int own = strncmp(e.thread, "tid:", 4) != 0;

		if ((own || !t->name) && set_name(t, e.thread, own ? 2 : 0))
			return -ENOMEM;
	}
	return 0;
}

static int by_trace_tid(const void *a, const void *b)
{
	const struct th *x = a, *y = b;

	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

/* "facility.event" of event id in buf, or NULL when thread t has no event of it. */
static const char *counted_type(const struct ltt_trace_info *ti, const struct th *t, unsigned id, char *buf,
				size_t size)
{
	const struct ltt_event_type *ty = ltt_trace_event_type(ti, id);

	if (!ty || !t->by_id[id])
		return NULL;
	snprintf(buf, size, "%s.%s", ty->facility, ty->name);
	return buf;
}

static void print_text(struct dump_out *o, struct ltt_reader *r, const struct th_state *s, unsigned trace,
		       const struct tid_list *tids)
{
	const struct ltt_trace_info *ti = ltt_reader_trace(r, trace);
	uint64_t about = 0, shown = 0;
	char line[400];

	for (size_t i = 0; i < s->n; i++)
		if (s->t[i].trace == trace) {
			about += s->t[i].events;
			shown += !tids->n || tid_list_has(tids, s->t[i].tid);
		}
	dump_out_str(o, "trace ");
	dump_out_str(o, ti->path);
	snprintf(line, sizeof(line), ": %llu events, %llu about a thread (a tid field); %llu threads",
		 (unsigned long long)s->events[trace], (unsigned long long)about, (unsigned long long)shown);
	dump_out_str(o, line);
	dump_out_str(o, tids->n ? " of those asked\n" : "\n");
	if (losses_format_text(&s->loss[trace], line, sizeof(line), NULL, 0))
		dump_out_str(o, line);
	for (size_t i = 0; i < s->n; i++) {
		const struct th *t = &s->t[i];

		if (t->trace != trace || (tids->n && !tid_list_has(tids, t->tid)))
			continue;
		snprintf(line, sizeof(line), "thread %lld ", (long long)t->tid);
		dump_out_str(o, line);
		if (t->name)
			dump_out_c_string(o, t->name, strlen(t->name));
		else
			dump_out_str(o, "(no name)");
		if (t->pid >= 0) {
			snprintf(line, sizeof(line), " pid %lld", (long long)t->pid);
			dump_out_str(o, line);
		}
		snprintf(line, sizeof(line), ": %llu events, ", (unsigned long long)t->events);
		dump_out_str(o, line);
		dump_out_time(o, t->first_ns);
		dump_out_str(o, " .. ");
		dump_out_time(o, t->last_ns);
		dump_out_char(o, '\n');
		for (unsigned id = 0; id < s->nids[trace]; id++) {
			char name[300];

			if (!counted_type(ti, t, id, name, sizeof(name)))
				continue;
			snprintf(line, sizeof(line), "  %-40s %12llu\n", name, (unsigned long long)t->by_id[id]);
			dump_out_str(o, line);
		}
	}
}

static void json_key(struct dump_out *o, const char *key, int comma)
{
	if (comma)
		dump_out_char(o, ',');
	dump_out_json_string(o, key, strlen(key));
	dump_out_char(o, ':');
}

static void print_json(struct dump_out *o, struct ltt_reader *r, const struct th_state *s, unsigned trace,
		       const struct tid_list *tids)
{
	const struct ltt_trace_info *ti = ltt_reader_trace(r, trace);
	uint64_t about = 0;
	int first = 1;

	for (size_t i = 0; i < s->n; i++)
		if (s->t[i].trace == trace)
			about += s->t[i].events;
	dump_out_str(o, "{\"trace\":");
	dump_out_json_string(o, ti->path, strlen(ti->path));
	json_key(o, "events", 1);
	dump_out_u64(o, s->events[trace]);
	json_key(o, "events_with_tid", 1);
	dump_out_u64(o, about);
	{
		char lj[400];

		losses_format_json(&s->loss[trace], lj, sizeof(lj), NULL, 0);
		dump_out_char(o, ',');
		dump_out_str(o, lj);
	}
	dump_out_str(o, ",\"threads\":[");
	for (size_t i = 0; i < s->n; i++) {
		const struct th *t = &s->t[i];
		int first_ev = 1;

		if (t->trace != trace || (tids->n && !tid_list_has(tids, t->tid)))
			continue;
		dump_out_str(o, first ? "{\"tid\":" : ",{\"tid\":");
		first = 0;
		dump_out_i64(o, t->tid);
		json_key(o, "pid", 1);
		if (t->pid >= 0)
			dump_out_i64(o, t->pid);
		else
			dump_out_str(o, "null");
		json_key(o, "name", 1);
		if (t->name)
			dump_out_json_string(o, t->name, strlen(t->name));
		else
			dump_out_str(o, "null");
		json_key(o, "events", 1);
		dump_out_u64(o, t->events);
		json_key(o, "first_ns", 1);
		dump_out_u64(o, t->first_ns);
		json_key(o, "last_ns", 1);
		dump_out_u64(o, t->last_ns);
		dump_out_str(o, ",\"by_event\":{");
		for (unsigned id = 0; id < s->nids[trace]; id++) {
			char name[300];

			if (!counted_type(ti, t, id, name, sizeof(name)))
				continue;
			json_key(o, name, !first_ev);
			first_ev = 0;
			dump_out_u64(o, t->by_id[id]);
		}
		dump_out_str(o, "}}");
	}
	dump_out_str(o, "]}\n");
}

/* Prints per trace its threads (those in a->tids only, when a->tids->n): tid, pid, name, events,
 * first and last event time, and the events per facility.event; as text, or one JSON object per
 * trace. */
static int stats_threads_report(struct ltt_reader *r, const struct stats_args *a)
{
	const struct tid_list *tids = a->tids;
	struct dump_out *o = a->o;
	int json = a->json;
	unsigned ntraces = ltt_reader_ntraces(r);
	struct th_state s = { 0 };
	struct t2_model *m = NULL;
	struct ltt_event ev;
	int ret;

	s.nids = calloc(ntraces ? ntraces : 1, sizeof(*s.nids));
	s.events = calloc(ntraces ? ntraces : 1, sizeof(*s.events));
	s.loss = calloc(ntraces ? ntraces : 1, sizeof(*s.loss));	/* zero: losses_init's state */
	ret = s.nids && s.events && s.loss ? t2_model_new(&m) : -ENOMEM;
	losses_reader(r);	/* the reader was opened with LTT_READ_BUILTIN: the loss records */
	for (unsigned i = 0; !ret && i < ntraces; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->nevent_types; k++)
			if (t->event_types[k]->id + 1u > s.nids[i])
				s.nids[i] = t->event_types[k]->id + 1u;
	}
	while (!ret && (ret = ltt_reader_next(r, &ev)) == 1) {
		if ((ret = losses_event(&s.loss[ev.trace->index], &ev)) != 0) {
			ret = ret < 0 ? ret : 0;
			continue;
		}
		ret = ev.type->builtin ? 0 : th_event(&s, m, &ev);
	}
	if (!ret) {
		qsort(s.t, s.n, sizeof(*s.t), by_trace_tid);
		for (unsigned i = 0; i < ntraces; i++)
			(json ? print_json : print_text)(o, r, &s, i, tids);
	}
	for (size_t i = 0; i < s.n; i++) {
		free(s.t[i].name);
		free(s.t[i].by_id);
	}
	free(s.t);
	th_map_free(&s.index);
	free(s.nids);
	free(s.events);
	for (unsigned i = 0; s.loss && i < ntraces; i++)
		losses_free(&s.loss[i]);
	free(s.loss);
	t2_model_free(m);
	return ret;
}

const struct stats_report stats_report_per_thread = {
	.option = "per-thread",
	.flags = STATS_TAKES_LIMITS | STATS_TIME_RANGE,
	.run = stats_threads_report,
};
