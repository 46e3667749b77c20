/* SPDX-License-Identifier: MIT */
/* The calls table of `ltt sql` (sql_rows.h): one row per call that function tracing recorded
 * (toolkit/calls.h), completed or still open at the end of the trace (unfinished = 1; entered before the
 * trace, from a snapshot's open calls: ts_ns, dur_ns and self_ns NULL), or open when
 * events of its trace were lost (cut = 1: no dur_ns, no self_ns; toolkit/losses.h). Streamed: the
 * calls model is fed one event at a time and its calls handed out as they end (the same rows, in the
 * same order, as filled); a query on one tid skips the func events of the other threads (each thread's
 * calls are its own stack), and rows outside a ts_ns range are not built (struct sql_push). Filled only
 * when a statement reads the table again while reading it (vtab_rows.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "toolkit/calls.h"
#include "toolkit/dump_out.h"
#include "toolkit/sql_rows.h"

/* The cells of call k (the columns of tables.c); ref: text borrowed from the model (a stream), else
 * copied. */
static int call_cells(struct sql_ctx *ctx, struct ltt_reader *r, const struct calls_model *m,
		      const struct call *k, struct sql_cell *c, int ref)
{
	const char *text[3];
	unsigned trace = 0;

	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++)
		if (ltt_reader_trace(r, i) == k->trace)
			trace = i;
	/* entered before the trace (a snapshot's open calls): no start, no duration (NULL) */
	if (!k->before)
		sql_cell_int(&c[0], (int64_t)k->start_ns);
	if (!k->cut && !k->before)	/* cut by a loss: no duration (NULL), cut 1 */
		sql_cell_int(&c[1], (int64_t)k->dur_ns);
	sql_cell_int(&c[9], k->cut);
	if (!k->cut && !k->before) {	/* off the CPU: from the thread's switch records, 0 without */
		sql_cell_int(&c[10], (int64_t)k->off_ns);
		sql_cell_int(&c[11], (int64_t)k->blocked_ns);
	}
	sql_cell_int(&c[2], k->tid);
	sql_cell_int(&c[4], k->depth);
	if (!k->cut && !k->before)
		sql_cell_int(&c[5], (int64_t)k->self_ns);
	sql_cell_int(&c[7], k->unfinished);
	text[0] = calls_func_name(m, k->func);
	text[1] = k->parent >= 0 ? calls_func_name(m, k->parent) : NULL;
	text[2] = ctx->names[trace];
	for (unsigned i = 0; i < 3; i++) {
		struct sql_cell *cell = &c[i == 0 ? 3 : i == 1 ? 6 : 8];

		if (!text[i] && i == 1)
			continue;
		if (ref)
			sql_cell_ref(cell, text[i]);
		else if (sql_cell_text(cell, text[i]))
			return -ENOMEM;
	}
	/* func.args, func.retval as uftrace prints them (NULL when not recorded): copied, the model's
	 * text goes with its frame */
	if ((k->args && sql_cell_text(&c[12], k->args)) || (k->retval && sql_cell_text(&c[13], k->retval)))
		return -ENOMEM;
	return 0;
}

static int calls_types(const struct ltt_event_type *ty, void *arg)
{
	(void)arg;
	if (losses_type(ty))
		return 1;	/* a loss cuts the calls open across it (toolkit/losses.h) */
	return !ty->builtin && (!strcmp(ty->facility, "func") ||
				(!strcmp(ty->facility, "core") && !strcmp(ty->name, "mapping")) ||
				/* a thread's time off the CPU (toolkit/calls.h) */
				(!strcmp(ty->facility, "kernel") &&
				 (!strcmp(ty->name, "thread_switch") || !strcmp(ty->name, "schedchange"))));
}

/* ---- filled ------------------------------------------------------------------------------------- */

struct calls_fill {
	struct sql_ctx *ctx;
	struct sql_rows *rows;
	struct ltt_reader *r;
	struct calls_model m;
};

static int call_row(void *arg, const struct call *k)
{
	struct calls_fill *f = arg;
	struct sql_cell *c = sql_rows_add(f->rows);

	return c ? call_cells(f->ctx, f->r, &f->m, k, c, 0) : -ENOMEM;
}

int sql_fill_calls(struct sql_ctx *ctx, struct sql_rows *rows)
{
	struct calls_fill f = { .ctx = ctx, .rows = rows };
	struct sql_filter flt;
	struct ltt_event ev;
	int rc;

	sql_filter_init(&flt);
	flt.keep = calls_types;
	flt.flags = LTT_READ_BUILTIN;
	rc = sql_reader_open(ctx, &flt, &f.r);
	if (rc || !f.r)
		return rc;
	rc = calls_init(&f.m);
	if (!rc) {
		f.m.on_call = call_row;
		f.m.arg = &f;
		while ((rc = ltt_reader_next(f.r, &ev)) > 0)
			if ((rc = calls_event(&f.m, &ev)) < 0)
				break;
		if (!rc)
			rc = calls_finish(&f.m);
		calls_free(&f.m);
	}
	sql_reader_close(ctx, f.r);
	return rc < 0 ? rc : 0;
}

/* ---- streamed ----------------------------------------------------------------------------------- */

struct calls_stream {
	struct sql_ctx *ctx;
	struct ltt_reader *r;
	struct calls_model m;
	int model, done;
	struct sql_push push;
	struct call *q;		/* calls ended by the last event fed, handed out from qhead */
	size_t qn, qcap, qhead;
};

static int queue_call(void *arg, const struct call *k)
{
	struct calls_stream *st = arg;

	if (!sql_push_wants(&st->push, k->tid, (int64_t)k->start_ns))
		return 0;
	if (LTT_GROW_FROM(st->q, st->qn + 1, st->qcap, 64))
		return -ENOMEM;
	st->q[st->qn] = *k;
	/* the model frees a call's values when on_call returns: the queue keeps copies */
	st->q[st->qn].args = k->args ? strdup(k->args) : NULL;
	st->q[st->qn].retval = k->retval ? strdup(k->retval) : NULL;
	if ((k->args && !st->q[st->qn].args) || (k->retval && !st->q[st->qn].retval)) {
		free((char *)st->q[st->qn].args);
		free((char *)st->q[st->qn].retval);
		return -ENOMEM;
	}
	st->qn++;
	return 0;
}

int sql_calls_open(struct sql_ctx *ctx, void **out, const struct sql_push *push)
{
	struct calls_stream *st = calloc(1, sizeof(*st));
	struct sql_filter flt;
	int rc;

	*out = st;
	if (!st)
		return -ENOMEM;
	st->ctx = ctx;
	st->push = push ? *push : (struct sql_push){ 0, 0, INT64_MIN, INT64_MAX };
	sql_filter_init(&flt);
	flt.keep = calls_types;
	flt.flags = LTT_READ_BUILTIN;
	rc = sql_reader_open(ctx, &flt, &st->r);
	if (rc || !st->r)
		return rc;
	rc = calls_init(&st->m);
	if (rc)
		return rc;
	st->model = 1;
	st->m.on_call = queue_call;
	st->m.arg = st;
	return 0;
}

int sql_calls_next(void *stream, struct sql_cell *c)
{
	struct calls_stream *st = stream;
	struct ltt_event ev;
	struct call *k;
	int rc;

	while (st->qhead == st->qn) {
		st->qhead = st->qn = 0;
		if (st->done || !st->model)
			return 0;
		rc = ltt_reader_next(st->r, &ev);
		if (rc < 0) {
			st->done = 1;
			return rc;	/* reported by the reader: the rows so far stand */
		}
		if (rc == 0) {
			st->done = 1;
			if ((rc = calls_finish(&st->m)) < 0)
				return rc;
			continue;
		}
		/* one tid asked for: the other threads' func events change nothing of its calls (the
		 * kernel's switch records, which give its time off the CPU, are not func events) */
		if (st->push.has_tid && ev.size >= 4 && calls_kind(&st->m, &ev) &&
		    calls_kind(&st->m, &ev) != CALLS_SYMBOL &&	/* names every thread's library calls */
		    (int64_t)dump_get_uint(ev.payload, 4, ev.big_endian) != st->push.tid)
			continue;
		if ((rc = calls_event(&st->m, &ev)) < 0)
			return rc;
	}
	k = &st->q[st->qhead++];
	rc = call_cells(st->ctx, st->r, &st->m, k, c, 1);
	free((char *)k->args);
	free((char *)k->retval);
	k->args = k->retval = NULL;
	return rc ? -ENOMEM : 1;
}

void sql_calls_close(void *stream)
{
	struct calls_stream *st = stream;

	if (!st)
		return;
	if (st->model)
		calls_free(&st->m);
	sql_reader_close(st->ctx, st->r);
	for (size_t i = st->qhead; i < st->qn; i++) {
		free((char *)st->q[i].args);
		free((char *)st->q[i].retval);
	}
	free(st->q);
	free(st);
}
