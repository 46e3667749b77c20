/* SPDX-License-Identifier: MIT */
/* ltt dump --format=csv: one row per event for spreadsheets and `sqlite3 .import` (doc/cli.md):
 *   time,ts_ns,cycles,trace,tracefile,facility,event,fields
 * RFC 4180: a header row, CRLF line ends, a field holding a comma, a double quote or a line end is
 * quoted with its double quotes doubled; fields is the event's body as JSON (the object of
 * --format=json), always quoted. */
#include <errno.h>
#include <stdlib.h>

#include "toolkit/dump_plan.h"
#include "toolkit/json_fields.h"

struct csv_state {
	struct dump_out *scratch;	/* the JSON of one walked event's fields, before quoting */
	unsigned ntypes;
};

/* Per event type (the slot *ltt_event_type.user): "facility,event," as CSV fields, and the fields' plan. */
struct csv_type {
	struct dump_plan *plan;		/* the JSON object as a quoted field's contents; NULL: walked */
	struct json_plan *walk;		/* json_fields' plan for a walked body */
	size_t len;
	char s[];
};

/* "trace,tracefile," of a tracefile as CSV fields: a small cache keyed by the tracefile. */
struct tf_csv {
	const struct ltt_tracefile_info *tf;
	char *s;
	size_t len;
};

#define TF_CACHE 64
static struct tf_csv tf_cache[TF_CACHE];

/* A malloc'ed string of the CSV fields a and b, each followed by a comma, with DUMP_PAD zero bytes after
 * it (dump_put_padded); NULL when out of memory. */
static char *csv_pair(const char *a, const char *b, size_t *len)
{
	struct dump_out *t = malloc(sizeof(*t));
	char *r = NULL;

	if (!t)
		return NULL;
	t->fd = -1;
	t->error = 0;
	t->len = 0;
	dump_out_csv_field(t, a, strlen(a), 0);
	dump_out_char(t, ',');
	dump_out_csv_field(t, b, strlen(b), 0);
	dump_out_char(t, ',');
	if (!t->error && (r = calloc(1, t->len + DUMP_PAD + 1))) {
		memcpy(r, t->buf, t->len);
		*len = t->len;
	}
	free(t);
	return r;
}

static const struct tf_csv *tf_csv(const struct ltt_event *ev)
{
	struct tf_csv *c = &tf_cache[((uintptr_t)ev->tracefile >> 4) % TF_CACHE];

	if (__builtin_expect(c->tf != ev->tracefile, 0)) {
		free(c->s);
		c->s = csv_pair(ev->trace->path, ev->tracefile->name, &c->len);
		c->tf = c->s ? ev->tracefile : NULL;
	}
	return c;
}

static struct csv_type *make_type(const struct ltt_event *ev)
{
	struct csv_type *t;
	size_t len;
	char *fe = csv_pair(ev->type->facility, ev->type->name, &len);

	t = fe ? calloc(1, sizeof(*t) + len + DUMP_PAD + 1) : NULL;
	if (t) {
		memcpy(t->s, fe, len);
		t->len = len;
		if (dump_plan_make(ev, DUMP_PLAN_JSON_CSV, 0, &t->plan)) {
			free(t);
			t = NULL;
		}
	}
	free(fe);
	return t;
}

static int csv_begin(struct ltt_dump_ctx *ctx)
{
	struct csv_state *st = calloc(1, sizeof(*st));

	if (!st || !(st->scratch = malloc(sizeof(*st->scratch)))) {
		free(st);
		return -ENOMEM;
	}
	st->scratch->fd = -1;
	ctx->priv = st;
	dump_out_str(ctx->out, "time,ts_ns,cycles,trace,tracefile,facility,event,fields\r\n");
	return ctx->out->error;
}

static int csv_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	static const char comma[DUMP_PAD] = ",";
	struct csv_state *st = ctx->priv;
	struct dump_out *o = ctx->out, *j = st->scratch;
	const struct ltt_event_type *ty = ev->type;
	struct csv_type *t = *ty->user;
	const struct tf_csv *tf;
	size_t room, start;
	int err = 0;
	char *w;

	if (__builtin_expect(!t, 0) && !(t = *ty->user = make_type(ev)))
		return -ENOMEM;
	tf = tf_csv(ev);
	if (!tf->tf)
		return -ENOMEM;
	if (!t->plan) {	/* walked: the JSON first, then quoted */
		j->len = 0;
		j->error = 0;
		if (json_fields(j, ev, &t->walk))
			return -ENOMEM;
		if (j->error)
			return -EFBIG;	/* the fields' JSON outgrew the buffer (DUMP_OUT_SIZE) */
	}
	room = 100 + tf->len + t->len + DUMP_PAD + (t->plan ? t->plan->room : 0);
	if (__builtin_expect(room > DUMP_OUT_SIZE / 2, 0))
		room = 100 + DUMP_PAD;	/* very long names: in pieces */
	w = dump_out_reserve(o, room);
	start = o->len;
	w = dump_put_time_ns(ctx, w, ev->time_ns, comma, 1);
	*w++ = ',';
	w = dump_put_u64(w, ev->cycles);
	*w++ = ',';
	if (room == 100 + DUMP_PAD) {
		dump_out_commit(o, w);
		dump_out_mem(o, tf->s, tf->len);
		dump_out_mem(o, t->s, t->len);
		w = dump_out_reserve(o, 1 + (t->plan ? t->plan->room : 0));
	} else {
		w = dump_put_padded(w, tf->s, tf->len);
		w = dump_put_padded(w, t->s, t->len);
	}
	if (!t->plan) {
		dump_out_commit(o, w);
		dump_out_csv_field(o, j->buf, j->len, 1);
		dump_out_mem(o, "\r\n", 2);
		return o->error;
	}
	*w++ = '"';
	w = dump_plan_put(o, w, t->plan, ev, NULL, &err);
	w = dump_put_lit(w, "\"\r\n");
	dump_out_commit(o, w);
	if (err && o->len > start)	/* a string too long to quote: the row is taken back */
		o->len = start;
	return err ? err : o->error;
}

static int csv_end(struct ltt_dump_ctx *ctx)
{
	struct csv_state *st = ctx->priv;

	for (unsigned i = 0; i < ltt_reader_ntraces(ctx->reader); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *ty = t->event_types[k];

			struct csv_type *ct = *ty->user;

			if (ct) {
				dump_plan_free(ct->plan);
				json_plan_free(ct->walk);
			}
			free(ct);
			*ty->user = NULL;
		}
	}
	for (unsigned i = 0; i < TF_CACHE; i++) {
		free(tf_cache[i].s);
		tf_cache[i].s = NULL;
		tf_cache[i].tf = NULL;
	}
	if (st)
		free(st->scratch);
	free(st);
	ctx->priv = NULL;
	return 0;
}

const struct ltt_dump_format ltt_fmt_csv = {
	.name = "csv",
	.summary = "CSV (RFC 4180): time, ts_ns, cycles, trace, tracefile, facility, event, fields (JSON)",
	.begin = csv_begin,
	.event = csv_event,
	.end = csv_end,
};
