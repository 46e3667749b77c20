/* ltt dump --format=text: one line per event, after LTTV's textDump (doc/cli.md):
 *   facility.event: SECONDS.NANOSECONDS (cpu/N) { field = value, ... } */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump/dump_format.h"
#include "select/thread_names.h"

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
		if (c.type->kind == LTT_TYPE_UINT && !strcmp(c.name, "tid") &&
		    (name = thread_names_find(tn, ev->trace->index, (uint32_t)ltt_value_uint(&c), ev->time_ns))) {
			dump_out_str(o, " (");
			dump_out_str(o, name);
			dump_out_char(o, ')');
		}
	}
	dump_out_str(o, first ? "}" : " }");
}

/* "facility.event: " of each type, built once (ltt_event_type.user). */
struct text_head {
	size_t len;
	char s[];
};

static int text_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct dump_out *o = ctx->out;
	struct ltt_event_type *ty = (struct ltt_event_type *)ev->type;
	struct text_head *h = ty->user;
	struct ltt_value body;
	size_t nlen;
	char *w;

	if (__builtin_expect(!h, 0)) {
		size_t n = strlen(ty->facility) + strlen(ty->name) + 3;

		h = ty->user = malloc(sizeof(*h) + n + 1);
		if (!h)
			return -ENOMEM;
		h->len = (size_t)snprintf(h->s, n + 1, "%s.%s: ", ty->facility, ty->name);
	}
	dump_out_mem(o, h->s, h->len);
	w = dump_out_reserve(o, 40);
	w = dump_put_shown_time(ctx, w, ev->time_ns);
	w = dump_put_lit(w, " (");
	dump_out_commit(o, w);
	if (ctx->ntraces > 1) {
		dump_out_str(o, ev->trace->path);
		dump_out_char(o, '/');
	}
	nlen = strlen(ev->tracefile->name);
	dump_out_mem(o, ev->tracefile->name, nlen);
	dump_out_char(o, ')');
	if (!ltt_event_body(ev, &body)) {
		dump_out_char(o, ' ');
		if (ctx->priv && body.type->kind == LTT_TYPE_STRUCT && strcmp(ty->facility, "core"))
			text_body_tid(o, ctx->priv, ev, &body);
		else
			text_value(o, &body);
	}
	dump_out_char(o, '\n');
	return o->error;
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
			struct ltt_event_type *ty = (struct ltt_event_type *)t->event_types[k];

			free(ty->user);
			ty->user = NULL;
		}
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
