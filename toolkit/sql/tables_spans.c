/* SPDX-License-Identifier: MIT */
/* The spans table of `ltt sql` (sql_rows.h): one row per span of the facilities' <span> declarations
 * (toolkit/spans.h): the closed ones in the order of their ends, then those still open at the end of
 * the trace (open = 1, no end), then ends without a begin in the trace were added where they came
 * (no ts_ns, no begin). begin_fields and end_fields are the two events' fields as JSON. A span open when
 * events of its trace were lost has cut = 1 and no dur_ns (toolkit/losses.h). */
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

struct spans_fill {
	struct sql_ctx *ctx;
	struct sql_rows *rows;
};

static int span_types(const struct ltt_event_type *ty, void *arg)
{
	(void)arg;
	return span_event_type(ty) || losses_type(ty);
}

/* The row of sp: its begin's columns (when it has one) and the common ones. */
static struct sql_cell *span_row(struct spans_fill *f, const struct span_ev *sp)
{
	struct sql_cell *c = sql_rows_add(f->rows);

	if (!c)
		return NULL;
	if (sp->kind != SPAN_UNMATCHED) {
		sql_cell_int(&c[SP_TS], (int64_t)sp->begin_ns);
		sql_cell_int(&c[SP_ID], (int64_t)sp->id);
		if (sp->has_tid)
			sql_cell_int(&c[SP_TID], sp->tid);
		if (sp->user_val && sql_cell_text(&c[SP_BEGIN_FIELDS], sp->user_val))
			return NULL;
	}
	sql_cell_int(&c[SP_OPEN], sp->kind == SPAN_BEGIN);
	if (sql_cell_text(&c[SP_FACILITY], sp->fac->name) || sql_cell_text(&c[SP_NAME], sp->decl->name) ||
	    sql_cell_text(&c[SP_KEY], sp->key) || sql_cell_text(&c[SP_TRACE], f->ctx->names[sp->trace]))
		return NULL;
	return c;
}

static int open_row(void *arg, const struct span_ev *sp)
{
	return span_row(arg, sp) ? 0 : -ENOMEM;
}

/* An end (matched or not): its row with the end's columns. */
static int end_row(struct spans_fill *f, const struct ltt_event *ev, const struct span_ev *sp)
{
	struct sql_cell *c = span_row(f, sp);
	const char *j;
	size_t n;

	if (!c)
		return -ENOMEM;
	sql_cell_int(&c[SP_END], (int64_t)sp->end_ns);
	if (sp->kind == SPAN_END && !sp->cut)	/* cut by a loss: no duration */
		sql_cell_int(&c[SP_DUR], (int64_t)(sp->end_ns - sp->begin_ns));
	sql_cell_int(&c[SP_CUT], sp->cut);
	if (sp->has_end_tid)
		sql_cell_int(&c[SP_END_TID], sp->end_tid);
	j = sql_json_fields(ev, (struct json_plan **)ev->type->user, &n);
	if (j && sql_cell_text(&c[SP_END_FIELDS], j))
		return -ENOMEM;
	return 0;
}

int sql_fill_spans(struct sql_ctx *ctx, struct sql_rows *rows)
{
	struct spans_fill f = { ctx, rows };
	struct span_model *m;
	struct sql_filter flt;
	struct ltt_reader *r;
	struct ltt_event ev;
	struct span_ev sp;
	struct losses loss;
	int rc;

	sql_filter_init(&flt);
	flt.keep = span_types;
	flt.flags = LTT_READ_BUILTIN;
	losses_init(&loss);
	if ((rc = span_model_new(&m)))
		return rc;
	rc = sql_reader_open(ctx, &flt, &r);
	if (rc || !r) {
		span_model_free(m);
		return rc;
	}
	while ((rc = ltt_reader_next(r, &ev)) == 1) {
		int k = losses_event(&loss, &ev);

		if (k == 1 && losses_cut_user(&loss))
			k = span_model_loss(m, ev.trace->index);
		if (k < 0) {
			rc = k;
			break;
		}
		if (k)
			continue;
		k = span_model_event(m, &ev, &sp);

		if (k < 0) {
			rc = k;
			break;
		}
		if (k == SPAN_BEGIN) {	/* its fields wait with it for its end */
			size_t n;
			const char *j = sql_json_fields(&ev, (struct json_plan **)ev.type->user, &n);

			if (j && !(*sp.user = strdup(j))) {
				rc = -ENOMEM;
				break;
			}
		} else if (k == SPAN_END || k == SPAN_UNMATCHED) {
			rc = end_row(&f, &ev, &sp);
			free(sp.user_val);
			if (rc)
				break;
		}
	}
	if (!rc)
		rc = span_model_open_each(m, open_row, &f);
	sql_reader_close(ctx, r);
	span_model_free(m);
	losses_free(&loss);
	return rc;
}
