/* SPDX-License-Identifier: MIT */
/* ltt dump --format=text: one line per event, after LTTV's textDump (doc/cli.md):
 *   facility.event: SECONDS.NANOSECONDS (cpu/N) { field = value, ... } */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/dump_plan.h"
#include "common/syscall_names.h"
#include "toolkit/thread_names.h"

static void text_value(struct dump_out *o, const struct ltt_value *v)
{
	struct ltt_value c;
	const char *s;
	size_t n;
	int first = 1, ret;

	switch (v->type->kind) {
	case LTT_TYPE_INT:
		dump_out_i64(o, ltt_value_int(v));
		return;
	case LTT_TYPE_UINT:
		dump_out_commit(o, dump_put_u64(dump_out_reserve(o, 20), ltt_value_uint(v)));
		return;
	case LTT_TYPE_FLOAT:
		dump_out_double(o, ltt_value_float(v));
		return;
	case LTT_TYPE_ENUM:
		s = ltt_value_enum_label(v);
		if (s)
			dump_out_str(o, s);
		else
			dump_out_u64(o, ltt_value_uint(v));
		return;
	case LTT_TYPE_STRING:
		s = ltt_value_string(v, &n);
		dump_out_c_string(o, s, n);
		return;
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		dump_out_char(o, '[');
		for (ret = ltt_value_first(v, &c); !ret; ret = ltt_value_next(v, &c)) {
			dump_out_str(o, first ? " " : ", ");
			first = 0;
			text_value(o, &c);
		}
		dump_out_str(o, first ? "]" : " ]");
		return;
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		dump_out_char(o, '{');
		for (ret = ltt_value_first(v, &c); !ret; ret = ltt_value_next(v, &c)) {
			dump_out_str(o, first ? " " : ", ");
			first = 0;
			dump_out_str(o, c.name);
			dump_out_str(o, " = ");
			text_value(o, &c);
		}
		dump_out_str(o, first ? "}" : " }");
		return;
	default:
		dump_out_char(o, '?');
	}
}

static int is_syscall(const struct ltt_event_type *ty)
{
	return !strcmp(ty->facility, "kernel") && !strncmp(ty->name, "syscall", 7);
}

/* A body whose uint field `tid` (context="tid", doc/eventdefs.md) gets the thread's name beside it:
 * { tid = 1234 (worker-1), ... } when the trace names that thread. */
static void text_body_tid(struct dump_out *o, const struct thread_names *tn, const struct ltt_event *ev,
			  const struct ltt_value *v)
{
	struct ltt_value c;
	int first = 1;

	dump_out_char(o, '{');
	for (int ret = ltt_value_first(v, &c); !ret; ret = ltt_value_next(v, &c)) {
		const char *name;

		dump_out_str(o, first ? " " : ", ");
		first = 0;
		dump_out_str(o, c.name);
		dump_out_str(o, " = ");
		text_value(o, &c);
		/* kernel.syscall_*: the system call's name beside its number (doc/format.md section 13) */
		if (c.type->kind == LTT_TYPE_UINT && !strcmp(c.name, "syscall_id") &&
		    !strcmp(ev->type->facility, "kernel") &&
		    (name = syscall_name(ltt_trace_attr(ev->trace, "machine"), (uint32_t)ltt_value_uint(&c)))) {
			dump_out_str(o, " (");
			dump_out_str(o, name);
			dump_out_char(o, ')');
		}
		if (tn && c.type->kind == LTT_TYPE_UINT && !strcmp(c.name, "tid") &&
		    (name = thread_names_find(tn, ev->trace->index, (uint32_t)ltt_value_uint(&c), ev->time_ns))) {
			dump_out_str(o, " (");
			dump_out_term(o, name, strlen(name));
			dump_out_char(o, ')');
		}
	}
	dump_out_str(o, first ? "}" : " }");
}

/* Per event type, built once (the slot *ltt_event_type.user): "facility.event: " and the body's plan. */
struct text_head {
	struct dump_plan *plan;	/* NULL: the body is walked (or there is none) */
	size_t room;		/* what a line takes at most but its tracefile part */
	int body;		/* the type has a body */
	size_t len;
	char s[];
};

/* " (tracefile)" of a tracefile (" (trace/tracefile)" with several traces): a small cache keyed by
 * the tracefile. */
struct tf_text {
	const struct ltt_tracefile_info *tf;
	char *s;
	size_t len;
};

#define TF_CACHE 64
static struct tf_text tf_cache[TF_CACHE];

static const struct tf_text *tf_text(const struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct tf_text *c = &tf_cache[((uintptr_t)ev->tracefile >> 4) % TF_CACHE];

	if (__builtin_expect(c->tf != ev->tracefile, 0)) {
		const char *path = ctx->ntraces > 1 ? ev->trace->path : "";
		size_t n = strlen(path) + strlen(ev->tracefile->name) + 5;	/* " (" "/" ")" NUL */

		free(c->s);
		c->tf = NULL;
		c->s = calloc(1, n + DUMP_PAD);	/* dump_put_padded reads DUMP_PAD bytes */
		if (!c->s)
			return c;
		c->len = (size_t)snprintf(c->s, n, " (%s%s%s)", path, *path ? "/" : "", ev->tracefile->name);
		c->tf = ev->tracefile;
	}
	return c;
}

static struct text_head *make_head(const struct ltt_dump_ctx *ctx, const struct ltt_event_type *ty,
				   const struct ltt_event *ev)
{
	size_t n = strlen(ty->facility) + strlen(ty->name) + 3;
	struct text_head *h = calloc(1, sizeof(*h) + n + 1 + DUMP_PAD);	/* dump_put_padded */

	if (!h)
		return NULL;
	h->len = (size_t)snprintf(h->s, n + 1, "%s.%s: ", ty->facility, ty->name);
	h->body = ty->body != NULL;
	/* kernel.syscall_* are walked: their syscall_id gets its name (text_body_tid) */
	if (!(is_syscall(ty)) && dump_plan_make(ev, DUMP_PLAN_TEXT, ctx->priv && strcmp(ty->facility, "core"), &h->plan)) {
		free(h);
		return NULL;
	}
	h->room = h->len + 32 + DUMP_PAD + (h->plan ? 1 + h->plan->room : 1);
	return h;
}

/* The body as the walk writes it (no plan: arrays, sequences, nested structs, unions). */
static void text_body_walk(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct dump_out *o = ctx->out;
	struct ltt_value body;

	if (!ltt_event_body(ev, &body)) {
		dump_out_char(o, ' ');
		if ((ctx->priv || is_syscall(ev->type)) && body.type->kind == LTT_TYPE_STRUCT &&
		    strcmp(ev->type->facility, "core"))
			text_body_tid(o, ctx->priv, ev, &body);
		else
			text_value(o, &body);
	}
}

static int text_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct dump_out *o = ctx->out;
	const struct ltt_event_type *ty = ev->type;
	struct text_head *h = *ty->user;
	const struct tf_text *tf;
	size_t room;
	int err = 0;
	char *w;

	if (__builtin_expect(!h, 0)) {
		h = *ty->user = make_head(ctx, ty, ev);
		if (!h)
			return -ENOMEM;
	}
	tf = tf_text(ctx, ev);
	if (!tf->tf)
		return -ENOMEM;
	room = h->room + tf->len;
	if (__builtin_expect(room > DUMP_OUT_SIZE / 2, 0)) {	/* very long names: in pieces */
		dump_out_mem(o, h->s, h->len);
		w = dump_put_shown_time(ctx, dump_out_reserve(o, 32), ev->time_ns);
		dump_out_commit(o, w);
		dump_out_mem(o, tf->s, tf->len);
		text_body_walk(ctx, ev);
		dump_out_char(o, '\n');
		return o->error;
	}
	w = dump_out_reserve(o, room);
	w = dump_put_padded(w, h->s, h->len);
	w = dump_put_shown_time(ctx, w, ev->time_ns);
	w = dump_put_padded(w, tf->s, tf->len);
	if (h->plan) {
		*w++ = ' ';
		w = dump_plan_put(o, w, h->plan, ev, ctx->priv, &err);
	} else if (h->body) {
		dump_out_commit(o, w);
		text_body_walk(ctx, ev);
		w = dump_out_reserve(o, 1);
	}
	*w++ = '\n';
	dump_out_commit(o, w);
	return err ? err : o->error;
}

/* Thread names only for traces with context="tid" events: a top-level uint field `tid` outside core. */
static int text_begin(struct ltt_dump_ctx *ctx)
{
	int any = 0;

	for (unsigned i = 0; i < ltt_reader_ntraces(ctx->reader) && !any; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types && !any; k++) {
			const struct ltt_event_type *ty = t->event_types[k];

			any = !ty->builtin && ty->body && strcmp(ty->facility, "core") && ty->body->n_fields &&
			      !strcmp(ty->body->fields[0].name, "tid") && ty->body->fields[0].type->kind == LTT_TYPE_UINT;
		}
	}
	ctx->priv = any ? thread_names_load(ctx->reader) : NULL;
	return 0;
}

static int text_end(struct ltt_dump_ctx *ctx)
{
	thread_names_free(ctx->priv);
	ctx->priv = NULL;
	for (unsigned i = 0; i < ltt_reader_ntraces(ctx->reader); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *ty = t->event_types[k];

			struct text_head *h = *ty->user;

			if (h)
				dump_plan_free(h->plan);
			free(h);
			*ty->user = NULL;
		}
	}
	for (unsigned i = 0; i < TF_CACHE; i++) {
		free(tf_cache[i].s);
		tf_cache[i].s = NULL;
		tf_cache[i].tf = NULL;
	}
	return 0;
}

const struct ltt_dump_format ltt_fmt_text = {
	.name = "text",
	.summary = "one line per event: facility.event: SECONDS.NANOSECONDS (tracefile) { field = value, ... }",
	.begin = text_begin,
	.event = text_event,
	.end = text_end,
	.per_event = 1,
};
