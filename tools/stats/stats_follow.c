/* SPDX-License-Identifier: MIT */
/* ltt stats --follow TRACE (doc/cli.md): counts the events of a trace while it is recorded, shows a
 * summary every second (redrawn in place on a terminal, else one block per second), and at the end
 * the report `ltt stats TRACE` prints (tools/stats/stats_report.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "toolkit/cmd.h"
#include "toolkit/follow.h"
#include "stats_report.h"

#define TICK_NS 1000000000ull
#define SCREEN_ROWS 16		/* event types and tracefiles shown each (the busiest) */

/* The counts of one tracefile: per event id. */
struct tfc {
	const struct ltt_tracefile_info *tf;
	const struct ltt_trace_info *t;
	uint64_t *n;
	unsigned nids;
};

/* A line of the summary: an event type or a tracefile, over every chunk. */
struct agg {
	char name[128];
	uint64_t total, prev, lost;
};

struct sf {
	struct tfc *v;			/* open addressing on the tracefile's address */
	size_t cap, used;
	const struct ltt_tracefile_info *last_tf;
	struct tfc *last;
	struct select_log *rules;	/* per trace index */
	unsigned nrules;
	struct agg *ev, *tfs;
	unsigned nev, ntfs;
	uint64_t started, prev_tick, prev_total;
	unsigned ticks;			/* summaries shown: the first has no rate (its counts are the backlog) */
	int tty, nomem;
	struct dump_out *out;
	const char *path;
};

static size_t slot(const struct sf *s, const void *p)
{
	return ((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ull >> 20 & (s->cap - 1);
}

static struct tfc *find(struct sf *s, const struct ltt_event *ev)
{
	size_t i;

	if (2 * (s->used + 1) > s->cap) {
		struct tfc *old = s->v;
		size_t oc = s->cap;

		s->cap = oc ? 2 * oc : 64;
		s->v = calloc(s->cap, sizeof(*s->v));
		if (!s->v) {
			s->v = old;
			s->cap = oc;
			return NULL;
		}
		for (size_t k = 0; k < oc; k++)
			if (old[k].tf) {
				for (i = slot(s, old[k].tf); s->v[i].tf; i = (i + 1) & (s->cap - 1))
					;
				s->v[i] = old[k];
			}
		free(old);
	}
	for (i = slot(s, ev->tracefile); s->v[i].tf; i = (i + 1) & (s->cap - 1))
		if (s->v[i].tf == ev->tracefile)
			return &s->v[i];
	s->v[i].tf = ev->tracefile;
	s->v[i].t = ev->trace;
	s->used++;
	return &s->v[i];
}

static int count(struct sf *s, const struct ltt_event *ev)
{
	struct tfc *c = s->last;

	if (ev->tracefile != s->last_tf) {
		if (!(c = find(s, ev)))
			return -ENOMEM;
		s->last = c;
		s->last_tf = ev->tracefile;
	}
	if (ev->id >= c->nids) {
		unsigned n = ev->id + 64u;
		uint64_t *v = realloc(c->n, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + c->nids, 0, (n - c->nids) * sizeof(*v));
		c->n = v;
		c->nids = n;
	}
	c->n[ev->id]++;
	if (ev->type && !ev->type->builtin && ev->tracefile->cpu < 0) {	/* core.event_rules, as ltt stats */
		if (ev->trace->index >= s->nrules) {
			unsigned n = ev->trace->index + 16u;
			struct select_log *v = realloc(s->rules, n * sizeof(*v));

			if (!v)
				return -ENOMEM;
			memset(v + s->nrules, 0, (n - s->nrules) * sizeof(*v));
			s->rules = v;
			s->nrules = n;
		}
		select_note(&s->rules[ev->trace->index], ev);
	}
	return 0;
}

static struct agg *agg_find(struct agg **v, unsigned *n, const char *name)
{
	struct agg *a;

	for (unsigned i = 0; i < *n; i++)
		if (!strcmp((*v)[i].name, name))
			return &(*v)[i];
	a = realloc(*v, (*n + 1) * sizeof(*a));
	if (!a)
		return NULL;
	*v = a;
	a = &a[(*n)++];
	memset(a, 0, sizeof(*a));
	snprintf(a->name, sizeof(a->name), "%s", name);
	return a;
}

static int by_rate(const void *x, const void *y)
{
	const struct agg *a = x, *b = y;
	uint64_t ra = a->total - a->prev, rb = b->total - b->prev;

	if (ra != rb)
		return ra > rb ? -1 : 1;
	if (a->total != b->total)
		return a->total > b->total ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* The summary of the last second. */
static void tick(struct sf *s, struct ltt_reader *r, int ended)
{
	struct dump_out *o = s->out;
	uint64_t now, total = 0, lost = 0;
	double dt;
	char line[256];

	now = ltt_mono_ns();
	dt = now > s->prev_tick ? (double)(now - s->prev_tick) / 1e9 : 1.0;
	for (unsigned i = 0; i < s->nev; i++)
		s->ev[i].total = 0;
	for (unsigned i = 0; i < s->ntfs; i++)
		s->tfs[i].total = s->tfs[i].lost = 0;
	for (size_t k = 0; k < s->cap; k++) {
		const struct tfc *c = &s->v[k];
		uint64_t user = 0;
		struct agg *a;

		if (!c->tf)
			continue;
		for (unsigned id = 0; id < c->nids; id++) {
			const struct ltt_event_type *ty;

			if (!c->n[id] || !(ty = ltt_trace_event_type(c->t, id)) || ty->builtin)
				continue;
			snprintf(line, sizeof(line), "%s.%s", ty->facility, ty->name);
			if (!(a = agg_find(&s->ev, &s->nev, line))) {
				s->nomem = 1;
				return;
			}
			a->total += c->n[id];
			user += c->n[id];
		}
		if (!(a = agg_find(&s->tfs, &s->ntfs, c->tf->name))) {
			s->nomem = 1;
			return;
		}
		a->total += user;
		total += user;
	}
	/* lost: every tracefile read, counted or not (a chunk's files without a user event) */
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->ntracefiles; k++) {
			const struct ltt_tracefile_info *f = t->tracefiles[k];
			uint64_t l = f->blocks_lost_events;
			struct agg *a;

			for (unsigned c = 0; c < LTT_LOST_NCAUSES; c++)
				l += f->events_lost[c];
			lost += l;
			if (l && (a = agg_find(&s->tfs, &s->ntfs, f->name)))
				a->lost += l;
		}
	}
	if (s->tty)
		dump_out_str(o, "\033[H\033[2J");
	snprintf(line, sizeof(line), "--- ltt stats --follow: %.0f s ---\n", (double)(now - s->started) / 1e9);
	dump_out_str(o, line);
	snprintf(line, sizeof(line), "%s: %s, %u chunk%s\n", s->path, ended ? "recording ended" : "recording",
		 ltt_reader_ntraces(r), ltt_reader_ntraces(r) == 1 ? "" : "s");
	dump_out_str(o, line);
	/* the first summary counts what the trace held when following began: no rate yet */
	if (!s->ticks)
		snprintf(line, sizeof(line), "events %llu (already in the trace; rates from the next second), lost %llu\n",
			 (unsigned long long)total, (unsigned long long)lost);
	else
		snprintf(line, sizeof(line), "events %llu (%.0f/s), lost %llu\n", (unsigned long long)total,
			 (double)(total - s->prev_total) / dt, (unsigned long long)lost);
	dump_out_str(o, line);
	qsort(s->ev, s->nev, sizeof(*s->ev), by_rate);
	qsort(s->tfs, s->ntfs, sizeof(*s->tfs), by_rate);
	snprintf(line, sizeof(line), "  %-40s %12s %10s\n", "event", "total", "/s");
	dump_out_str(o, line);
	for (unsigned i = 0; i < s->nev && i < SCREEN_ROWS; i++) {
		if (!s->ticks)
			snprintf(line, sizeof(line), "  %-40s %12llu %10s\n", s->ev[i].name,
				 (unsigned long long)s->ev[i].total, "-");
		else
			snprintf(line, sizeof(line), "  %-40s %12llu %10.0f\n", s->ev[i].name,
				 (unsigned long long)s->ev[i].total, (double)(s->ev[i].total - s->ev[i].prev) / dt);
		dump_out_str(o, line);
	}
	snprintf(line, sizeof(line), "  %-40s %12s %10s %10s\n", "tracefile", "events", "/s", "lost");
	dump_out_str(o, line);
	for (unsigned i = 0; i < s->ntfs && i < SCREEN_ROWS; i++) {
		if (!s->ticks)
			snprintf(line, sizeof(line), "  %-40s %12llu %10s %10llu\n", s->tfs[i].name,
				 (unsigned long long)s->tfs[i].total, "-", (unsigned long long)s->tfs[i].lost);
		else
			snprintf(line, sizeof(line), "  %-40s %12llu %10.0f %10llu\n", s->tfs[i].name,
				 (unsigned long long)s->tfs[i].total, (double)(s->tfs[i].total - s->tfs[i].prev) / dt,
				 (unsigned long long)s->tfs[i].lost);
		dump_out_str(o, line);
	}
	for (unsigned i = 0; i < s->nev; i++)
		s->ev[i].prev = s->ev[i].total;
	for (unsigned i = 0; i < s->ntfs; i++)
		s->tfs[i].prev = s->tfs[i].total;
	s->prev_total = total;
	s->prev_tick = now;
	s->ticks++;
	dump_out_flush(o);
}

/* The report of `ltt stats`: the counts laid out per trace as cmd_stats.c counts them. */
static int report(struct sf *s, struct ltt_reader *r, int json)
{
	unsigned nt = ltt_reader_ntraces(r);
	struct trace_counts *tc = calloc(nt ? nt : 1, sizeof(*tc));
	int ret = 0;

	if (!tc)
		return -ENOMEM;
	ret = stats_counts_alloc(r, tc);
	for (unsigned i = 0; i < nt && i < s->nrules; i++) {
		tc[i].rules = s->rules[i];
		memset(&s->rules[i], 0, sizeof(s->rules[i]));
	}
	for (size_t k = 0; k < s->cap && !ret; k++) {
		const struct tfc *c = &s->v[k];
		const struct ltt_trace_info *t = c->t;
		unsigned f = 0;

		if (!c->tf)
			continue;
		while (f < t->ntracefiles && t->tracefiles[f] != c->tf)
			f++;
		for (unsigned id = 0; f < t->ntracefiles && id < c->nids && id < tc[t->index].nids; id++)
			tc[t->index].n[(size_t)f * tc[t->index].nids + id] = c->n[id];
	}
	if (!ret) {
		if (json)
			stats_print_json(s->out, r, tc);
		else
			stats_print_text(s->out, r, tc);
	}
	for (unsigned i = 0; i < nt; i++) {
		free(tc[i].n);
		select_free(&tc[i].rules);
	}
	free(tc);
	return ret;
}

int stats_follow(const char *path, int json)
{
	struct reader_tool tool = { .cmd = "stats" };
	struct follow f = { .tool = &tool, .flags = LTT_READ_BUILTIN, .hold_ns = 1, .tick_ns = TICK_NS };
	struct sf s;
	struct ltt_event ev;
	int ret, status;

	memset(&s, 0, sizeof(s));
	s.path = path;
	s.tty = isatty(STDOUT_FILENO);
	s.out = malloc(sizeof(*s.out));
	if (!s.out) {
		ltt_tool_error("stats", "out of memory");
		return 1;
	}
	s.out->fd = STDOUT_FILENO;
	s.out->error = 0;
	s.out->len = 0;
	status = follow_open(&f, path);
	if (status) {
		free(s.out);
		return status;
	}
	s.started = s.prev_tick = ltt_mono_ns();
	while ((ret = follow_next(&f, &ev)) > 0 && !s.nomem && !s.out->error) {
		if (ret == FOLLOW_TICK)
			tick(&s, f.r, 0);
		else if (count(&s, &ev))
			s.nomem = 1;
	}
	status = ret == -EINTR ? 130 : 0;
	if (s.nomem)
		ret = -ENOMEM;
	if (ret < 0 && ret != -EINTR) {
		ltt_tool_error("stats", "%s: %s", path, strerror(-ret));
		status = 1;
	}
	if (s.tty)
		dump_out_str(s.out, "\033[H\033[2J");
	else
		dump_out_str(s.out, "--- final ---\n");
	if (report(&s, f.r, json)) {
		ltt_tool_error("stats", "out of memory");
		status = 1;
	}
	if (dump_out_flush(s.out)) {
		ltt_tool_error("stats", "standard output: %s", strerror(-s.out->error));
		if (!status)
			status = 1;
	}
	if ((tool.problems || tool.skipped) && !status)
		status = 1;
	for (size_t k = 0; k < s.cap; k++)
		free(s.v[k].n);
	free(s.v);
	for (unsigned i = 0; i < s.nrules; i++)
		select_free(&s.rules[i]);
	free(s.rules);
	free(s.ev);
	free(s.tfs);
	free(s.out);
	follow_close(&f);
	return status;
}
