/* SPDX-License-Identifier: MIT */
/* The calls table of `ltt sql` (sql_rows.h): one row per call that function tracing recorded
 * (toolkit/calls.h), completed or still open at the end of the trace (unfinished = 1; entered before the
 * trace, from a snapshot's open calls: ts_ns, dur_ns and self_ns NULL), or open when
 * events of its trace were lost (cut = 1: no dur_ns, no self_ns; toolkit/losses.h). */
#include <errno.h>
#include <string.h>

#include "toolkit/calls.h"
#include "toolkit/sql_rows.h"

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
	unsigned trace = 0;

	if (!c)
		return -ENOMEM;
	for (unsigned i = 0; i < ltt_reader_ntraces(f->r); i++)
		if (ltt_reader_trace(f->r, i) == k->trace)
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
	if (sql_cell_text(&c[3], calls_func_name(&f->m, k->func)) ||
	    (k->parent >= 0 && sql_cell_text(&c[6], calls_func_name(&f->m, k->parent))) ||
	    sql_cell_text(&c[8], f->ctx->names[trace]))
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
