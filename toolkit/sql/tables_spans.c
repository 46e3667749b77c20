/* SPDX-License-Identifier: MIT */
/* The spans table of `ltt sql` (sql_rows.h): one row per span of the facilities' <span> declarations
 * (toolkit/spans.h): the closed ones in the order of their ends, then those still open at the end of
 * the trace (open = 1, no end), then ends without a begin in the trace were added where they came
 * (no ts_ns, no begin). begin_fields and end_fields are the two events' fields as JSON. A span open when
 * events of its trace were lost has cut = 1 and no dur_ns (toolkit/losses.h). Streamed: a scan holds
 * the spans open at a time (the model's record and the begin's fields), not the table (issue 34,
 * point 7: 10^6 spans never ended took 113-175 s and 630 MB). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/losses.h"
#include "toolkit/spans.h"
#include "toolkit/sql_rows.h"

enum {
	SP_TS, SP_END, SP_DUR, SP_TID, SP_END_TID, SP_FACILITY, SP_NAME, SP_KEY, SP_OPEN, SP_BEGIN_FIELDS,
	SP_END_FIELDS, SP_ID, SP_TRACE, SP_CUT
};

struct spans_stream {
	struct sql_ctx *ctx;
	struct ltt_reader *r;
	struct span_model *m;
	struct losses loss;
	int at_end;		/* the trace is read: the spans still open */
	void *cursor;		/* span_model_open_next's */
};

static int span_types(const struct ltt_event_type *ty, void *arg)
{
	(void)arg;
	return span_event_type(ty) || losses_type(ty);
}

/* The cells of sp: its begin's columns (when it has one) and the common ones. */
static int span_cells(struct sql_ctx *ctx, const struct span_ev *sp, struct sql_cell *c)
{
	if (sp->kind != SPAN_UNMATCHED) {
		sql_cell_int(&c[SP_TS], (int64_t)sp->begin_ns);
		sql_cell_int(&c[SP_ID], (int64_t)sp->id);
		if (sp->has_tid)
			sql_cell_int(&c[SP_TID], sp->tid);
		if (sp->user_val && sql_cell_text(&c[SP_BEGIN_FIELDS], sp->user_val))
			return -ENOMEM;
	}
	sql_cell_int(&c[SP_OPEN], sp->kind == SPAN_BEGIN);
	sql_cell_int(&c[SP_CUT], sp->cut);
	if (sql_cell_text(&c[SP_FACILITY], sp->fac->name) || sql_cell_text(&c[SP_NAME], sp->decl->name) ||
	    sql_cell_text(&c[SP_KEY], sp->key) || sql_cell_text(&c[SP_TRACE], ctx->names[sp->trace]))
		return -ENOMEM;
	return 0;
}

/* An end (matched or not): its cells with the end's columns. */
static int end_cells(struct sql_ctx *ctx, const struct ltt_event *ev, const struct span_ev *sp, struct sql_cell *c)
{
	const char *j;
	size_t n;

	if (span_cells(ctx, sp, c))
		return -ENOMEM;
	sql_cell_int(&c[SP_END], (int64_t)sp->end_ns);
	if (sp->kind == SPAN_END && !sp->cut)	/* cut by a loss: no duration */
		sql_cell_int(&c[SP_DUR], (int64_t)(sp->end_ns - sp->begin_ns));
	if (sp->has_end_tid)
		sql_cell_int(&c[SP_END_TID], sp->end_tid);
	j = sql_json_fields(ev, (struct json_plan **)ev->type->user, &n);
	if (j && sql_cell_text(&c[SP_END_FIELDS], j))
		return -ENOMEM;
	return 0;
}

int sql_spans_open(struct sql_ctx *ctx, void **out, const struct sql_push *push)
{
	struct spans_stream *st = calloc(1, sizeof(*st));
	struct sql_filter flt;
	int rc;

	(void)push;	/* every row: SQLite filters */
	*out = st;
	if (!st)
		return -ENOMEM;
	st->ctx = ctx;
	losses_init(&st->loss);
	if ((rc = span_model_new(&st->m)))
		return rc;
	sql_filter_init(&flt);
	flt.keep = span_types;
	flt.flags = LTT_READ_BUILTIN;
	return sql_reader_open(ctx, &flt, &st->r);
}

int sql_spans_next(void *stream, struct sql_cell *c)
{
	struct spans_stream *st = stream;
	struct ltt_event ev;
	struct span_ev sp;
	int rc = 0;

	while (!st->at_end && st->r && (rc = ltt_reader_next(st->r, &ev)) == 1) {
		int k = losses_event(&st->loss, &ev);

		if (k == 1 && losses_cut_user(&st->loss))
			k = span_model_loss(st->m, ev.trace->index);
		if (k < 0)
			return k;
		if (k)
			continue;
		k = span_model_event(st->m, &ev, &sp);
		if (k < 0)
			return k;
		if (k == SPAN_BEGIN) {	/* its fields wait with it for its end */
			size_t n;
			const char *j = sql_json_fields(&ev, (struct json_plan **)ev.type->user, &n);

			if (j && !(*sp.user = strdup(j)))
				return -ENOMEM;
		} else if (k == SPAN_END || k == SPAN_UNMATCHED) {
			rc = end_cells(st->ctx, &ev, &sp, c);
			free(sp.user_val);
			return rc ? rc : 1;
		}
	}
	if (!st->at_end && st->r && rc < 0)
		return rc;
	st->at_end = 1;
	if (!st->m || !span_model_open_next(st->m, &st->cursor, &sp))
		return 0;
	return span_cells(st->ctx, &sp, c) ? -ENOMEM : 1;
}

void sql_spans_close(void *stream)
{
	struct spans_stream *st = stream;

	if (!st)
		return;
	sql_reader_close(st->ctx, st->r);
	span_model_free(st->m);
	losses_free(&st->loss);
	free(st);
}

int sql_fill_spans(struct sql_ctx *ctx, struct sql_rows *rows)
{
	void *st;
	int rc = sql_spans_open(ctx, &st, NULL);

	while (!rc) {
		struct sql_cell *c = sql_rows_add(rows);

		if (!c) {
			rc = -ENOMEM;
			break;
		}
		rc = sql_spans_next(st, c);
		if (rc != 1) {
			sql_cells_clear(c, rows->ncols);
			rows->n--;	/* the row added for nothing */
			break;
		}
		rc = 0;
	}
	sql_spans_close(st);
	return rc < 0 ? rc : 0;
}
