/* SPDX-License-Identifier: MIT */
/* Scans of `ltt sql` (sql.h): one reader per scan, the constraints as its filters; problems printed
 * once; values as JSON text. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/cmd.h"
#include "toolkit/event_tid.h"
#include "toolkit/sql.h"

void sql_filter_init(struct sql_filter *f)
{
	memset(f, 0, sizeof(*f));
	f->to_ns = UINT64_MAX;
	f->cpu = -2;
}

/* 1 when line was printed before, else remembers it and returns 0. */
static int seen_before(struct sql_ctx *ctx, const char *line)
{
	char *copy;

	if (sql_seen_set_find(&ctx->seen, line))
		return 1;
	copy = strdup(line);
	if (copy && !sql_seen_set_put(&ctx->seen, copy, NULL))
		free(copy);
	return 0;
}

void sql_seen_forget(struct sql_ctx *ctx)
{
	for (size_t i = 0; i < ctx->seen.size; i++)
		if (ctx->seen.slot[i].used)
			free((char *)ctx->seen.slot[i].key);
	sql_seen_set_free(&ctx->seen);
}

void sql_problem(void *arg, const struct ltt_problem *p)
{
	struct sql_ctx *ctx = arg;
	struct ltt_problem q = *p;
	char buf[1024];

	/* scans read the catalog's directories: name the trace as the user gave it */
	if (ctx->names && q.trace_index < ctx->ntraces)
		q.trace = ctx->names[q.trace_index];
	ltt_problem_format(&q, buf, sizeof(buf));
	if (seen_before(ctx, buf))
		return;
	ctx->tool.problems++;
	if (ctx->problem)
		ctx->problem(ctx->problem_arg, &q);
	if (!ctx->tool.silent)
		ltt_tool_error(ctx->tool.cmd, "%s", buf);
}

static int name_matches(const char *want, const char *have)
{
	return !want || !strcmp(want, have);
}

int sql_reader_open(struct sql_ctx *ctx, const struct sql_filter *f, struct ltt_reader **out)
{
	struct ltt_reader_options opt = { .flags = f->flags, .problem = sql_problem, .problem_arg = ctx };
	struct ltt_reader *r;
	char err[1024];
	int ret;

	*out = NULL;
	if (f->empty)
		return 0;
	err[0] = 0;
	ret = ltt_reader_open(&r, ctx->dirs, ctx->ntraces, &opt, err, sizeof(err));
	if (ret) {
		ltt_tool_error(ctx->tool.cmd, "%s", *err ? err : strerror(-ret));
		return ret;
	}
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->ntracefiles; k++) {
			const struct ltt_tracefile_info *tf = t->tracefiles[k];
			int skip = (f->trace_name && (i >= ctx->ntraces || strcmp(f->trace_name, ctx->names[i]))) ||
				   !name_matches(f->tracefile, tf->name) || (f->cpu != -2 && tf->cpu != f->cpu);

			if (skip)
				ltt_reader_skip_tracefile(r, tf, 1);
			else
				ctx->blocks_total += tf->nblocks;
		}
		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *ty = t->event_types[k];
			int show = name_matches(f->facility, ty->facility) && name_matches(f->event, ty->name) &&
				   (!f->keep || f->keep(ty, f->keep_arg));

			if (!show || (ty->builtin && !(f->flags & LTT_READ_BUILTIN)))
				ltt_reader_hide_event_type(r, ty, 1);
		}
	}
	if (f->from_ns > 0 || f->to_ns < UINT64_MAX)
		ltt_reader_set_time_range(r, f->from_ns, f->to_ns);
	ctx->scans++;
	*out = r;
	return 0;
}

void sql_reader_close(struct sql_ctx *ctx, struct ltt_reader *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->ntracefiles; k++) {
			ctx->blocks_read += t->tracefiles[k]->blocks_read;
			ctx->events_read += t->tracefiles[k]->events;
		}
		for (unsigned k = 0; k < t->nevent_types; k++)
			json_plan_free(*t->event_types[k]->user);
	}
	ltt_reader_close(r);
}

int sql_scan_open(struct sql_ctx *ctx, struct sql_scan *s, const struct sql_filter *f)
{
	int ret;

	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	s->eof = 1;
	ret = sql_reader_open(ctx, f, &s->r);
	if (ret || !s->r)
		return ret;
	s->eof = 0;
	return sql_scan_next(s);
}

int sql_scan_next(struct sql_scan *s)
{
	int ret;

	if (!s->r) {
		s->eof = 1;
		return 0;
	}
	ret = ltt_reader_next(s->r, &s->ev);
	if (ret == 1)
		return 0;
	sql_scan_close(s);
	return ret;
}

void sql_scan_close(struct sql_scan *s)
{
	s->eof = 1;
	sql_reader_close(s->ctx, s->r);
	s->r = NULL;
}

/* ---- JSON text of values ------------------------------------------------------------------------ */

static struct dump_out *json_buf(void)
{
	static struct dump_out *o;

	if (!o && (o = malloc(sizeof(*o))))
		o->fd = -1;
	if (o) {
		o->error = 0;
		o->len = 0;
	}
	return o;
}

static const char *json_done(struct dump_out *o, size_t *len)
{
	/* a value larger than the buffer would have been flushed to fd -1: an error */
	if (o->error || o->len >= DUMP_OUT_SIZE)
		return NULL;
	o->buf[o->len] = 0;
	*len = o->len;
	return o->buf;
}

const char *sql_json_value(const struct ltt_value *v, size_t *len)
{
	struct dump_out *o = json_buf();

	if (!o)
		return NULL;
	json_value(o, v);
	return json_done(o, len);
}

const char *sql_json_fields(const struct ltt_event *ev, struct json_plan **plan, size_t *len)
{
	struct dump_out *o = json_buf();

	if (!o || json_fields(o, ev, plan))
		return NULL;
	return json_done(o, len);
}

int sql_event_tid(const struct ltt_event *ev, int64_t *tid)
{
	return event_tid(ev, tid);	/* the one rule of every command (toolkit/event_tid.h) */
}
