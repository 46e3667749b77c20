/* ltt dump --format=csv: one row per event for spreadsheets and `sqlite3 .import` (doc/cli.md):
 *   time,ts_ns,cycles,trace,tracefile,facility,event,fields
 * RFC 4180: a header row, CRLF line ends, a field holding a comma, a double quote or a line end is
 * quoted with its double quotes doubled; fields is the event's body as JSON (the object of
 * --format=json), always quoted. */
#include <errno.h>
#include <stdlib.h>

#include "dump/json_fields.h"

struct csv_state {
	struct dump_out *scratch;	/* the JSON of one event's fields, before quoting */
	unsigned ntypes;
};

/* One CSV field: s as is, or quoted when it holds a comma, a quote, CR or LF (always when force). */
static void csv_field(struct dump_out *o, const char *s, size_t n, int force)
{
	int q = force || memchr(s, ',', n) || memchr(s, '"', n) || memchr(s, '\n', n) || memchr(s, '\r', n);

	if (!q) {
		dump_out_mem(o, s, n);
		return;
	}
	dump_out_char(o, '"');
	for (const char *e = s + n, *p; s < e; s = p + 1) {
		p = memchr(s, '"', (size_t)(e - s));
		if (!p) {
			dump_out_mem(o, s, (size_t)(e - s));
			break;
		}
		dump_out_mem(o, s, (size_t)(p - s + 1));
		dump_out_char(o, '"');
	}
	dump_out_char(o, '"');
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
	struct csv_state *st = ctx->priv;
	struct dump_out *o = ctx->out, *j = st->scratch;
	struct ltt_event_type *ty = (struct ltt_event_type *)ev->type;
	char *w;
	int ret;

	j->len = 0;
	j->error = 0;
	ret = json_fields(j, ev, (struct json_plan **)&ty->user);
	if (ret)
		return ret;
	if (j->error)
		return -EFBIG;	/* the fields' JSON outgrew the buffer (DUMP_OUT_SIZE) */
	w = dump_out_reserve(o, 80);
	w = dump_put_shown_time(ctx, w, ev->time_ns);
	*w++ = ',';
	w = dump_put_u64(w, ev->time_ns);
	*w++ = ',';
	w = dump_put_u64(w, ev->cycles);
	*w++ = ',';
	dump_out_commit(o, w);
	csv_field(o, ev->trace->path, strlen(ev->trace->path), 0);
	dump_out_char(o, ',');
	csv_field(o, ev->tracefile->name, strlen(ev->tracefile->name), 0);
	dump_out_char(o, ',');
	csv_field(o, ty->facility, strlen(ty->facility), 0);
	dump_out_char(o, ',');
	csv_field(o, ty->name, strlen(ty->name), 0);
	dump_out_char(o, ',');
	csv_field(o, j->buf, j->len, 1);
	dump_out_mem(o, "\r\n", 2);
	return o->error;
}

static int csv_end(struct ltt_dump_ctx *ctx)
{
	struct csv_state *st = ctx->priv;

	for (unsigned i = 0; i < ltt_reader_ntraces(ctx->reader); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			struct ltt_event_type *ty = (struct ltt_event_type *)t->event_types[k];

			json_plan_free(ty->user);
			ty->user = NULL;
		}
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
