/* SPDX-License-Identifier: MIT */
/* The regions, threads and processes tables of `ltt sql` (sql_rows.h). regions are the rows behind
 * `ltt stats --regions` (toolkit/regions.c), one per completed region, in the order of their
 * region_leave events, streamed (regions_iter) or filled; threads are the (trace, tid)
 * pairs of the events that carry a tid, named as the Trace2 view of the app facility names them
 * ("main", "th01:name"), else by core.thread_start / core.thread_name; processes are the core.process records, with the session id and
 * executable of the app facility's version event of the same pid. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/escape_json.h"
#include "toolkit/losses.h"
#include "toolkit/regions.h"
#include "toolkit/trace2_model.h"
#include "toolkit/sql_rows.h"
#include "toolkit/thread_table.h"

struct regions_fill {
	struct sql_ctx *ctx;
	struct sql_rows *rows;
};

/* The cells of one region (the columns of tables.c). */
static int region_cells(struct sql_ctx *ctx, const struct region_row *r, struct sql_cell *c)
{
	sql_cell_int(&c[0], (int64_t)r->start_ns);
	if (!r->open && !r->cut)	/* open at the end, cut by a loss: no duration, no self time */
		sql_cell_int(&c[1], (int64_t)r->dur_ns);
	sql_cell_int(&c[2], r->tid);
	sql_cell_int(&c[6], r->depth);
	if (r->parent_id)
		sql_cell_int(&c[7], (int64_t)r->parent_id);
	sql_cell_int(&c[8], (int64_t)r->id);
	if (!r->open && !r->cut)
		sql_cell_int(&c[9], (int64_t)r->self_ns);
	sql_cell_int(&c[11], r->open);
	sql_cell_int(&c[13], r->cut);
	if (sql_cell_text(&c[3], r->thread) || sql_cell_text(&c[4], r->category) ||
	    sql_cell_text(&c[5], r->label) || sql_cell_text(&c[10], ctx->names[r->trace]) ||
	    (r->msg && sql_cell_text(&c[12], r->msg)))
		return -ENOMEM;
	return 0;
}

/* The app facility's events and the loss records, which cut the regions open across them. */
static int app_or_loss(const struct ltt_event_type *ty, void *arg)
{
	(void)arg;
	return losses_type(ty) || (!ty->builtin && !strcmp(ty->facility, "app"));
}

static int region_row(void *arg, const struct region_row *r)
{
	struct regions_fill *f = arg;
	struct sql_cell *c = sql_rows_add(f->rows);

	return c ? region_cells(f->ctx, r, c) : -ENOMEM;
}

struct regions_stream {
	struct sql_ctx *ctx;
	struct ltt_reader *r;
	struct regions_iter *it;
};

int sql_regions_open(struct sql_ctx *ctx, void **out, const struct sql_push *push)
{
	struct regions_stream *st = calloc(1, sizeof(*st));
	struct sql_filter flt;
	int rc;

	(void)push;	/* every row: SQLite filters (regions_iter pairs across threads' nesting) */
	*out = st;
	if (!st)
		return -ENOMEM;
	st->ctx = ctx;
	sql_filter_init(&flt);
	flt.keep = app_or_loss;
	flt.flags = LTT_READ_BUILTIN;
	rc = sql_reader_open(ctx, &flt, &st->r);
	if (!rc && st->r)
		rc = regions_iter_new(st->r, &st->it);
	return rc;
}

int sql_regions_next(void *stream, struct sql_cell *c)
{
	struct regions_stream *st = stream;
	const struct region_row *row;
	int rc = st->it ? regions_iter_next(st->it, &row) : 0;

	if (rc == 1 && region_cells(st->ctx, row, c))
		return -ENOMEM;
	return rc;
}

void sql_regions_close(void *stream)
{
	struct regions_stream *st = stream;

	if (!st)
		return;
	regions_iter_free(st->it);
	sql_reader_close(st->ctx, st->r);
	free(st);
}

int sql_fill_regions(struct sql_ctx *ctx, struct sql_rows *rows)
{
	struct regions_fill f = { ctx, rows };
	struct sql_filter flt;
	struct ltt_reader *r;
	int rc;

	sql_filter_init(&flt);
	flt.keep = app_or_loss;
	flt.flags = LTT_READ_BUILTIN;
	rc = sql_reader_open(ctx, &flt, &r);
	if (rc || !r)
		return rc;
	rc = regions_scan(r, region_row, &f);
	sql_reader_close(ctx, r);
	return rc;
}

/* ---- threads ------------------------------------------------------------------------------------- */

static int thread_types(const struct ltt_event_type *ty, void *arg)
{
	(void)arg;
	return !ty->builtin;
}

/* trace, tid, pid, name, start_ns, end_ns, events, process, trace2_name, names: the thread table's
 * (toolkit/thread_table.h) threads that events are about (their top-level tid). */
static int thread_cells(struct sql_ctx *ctx, const struct thread_table *tt, const struct tt_thread *t,
			struct sql_cell *c)
{
	struct ltt_buf b = LTT_BUF_INIT;
	const char *name = tt_name_at(t, UINT64_MAX), *proc;
	char *names;
	int rc;

	if (sql_cell_text(&c[0], ctx->names[t->trace]))
		return -ENOMEM;
	sql_cell_int(&c[1], t->tid);
	if (t->pid != TT_NONE)
		sql_cell_int(&c[2], t->pid);
	if (name && sql_cell_text(&c[3], name))
		return -ENOMEM;
	sql_cell_int(&c[4], (int64_t)t->first_ns);
	sql_cell_int(&c[5], (int64_t)t->last_ns);
	sql_cell_int(&c[6], (int64_t)t->events);
	proc = t->pid != TT_NONE ? thread_table_process_name(tt, t->trace, t->pid) : NULL;
	if (proc && sql_cell_text(&c[7], proc))
		return -ENOMEM;
	if (t->trace2 && sql_cell_text(&c[8], t->trace2))
		return -ENOMEM;
	if (!t->nnames)
		return 0;
	ltt_buf_putc(&b, '[');
	for (size_t k = 0; k < t->nnames; k++) {
		if (k)
			ltt_buf_putc(&b, ',');
		ltt_json_to_buf(&b, t->names[k].name, strlen(t->names[k].name));
	}
	ltt_buf_putc(&b, ']');
	if (!(names = ltt_buf_detach(&b, NULL)))
		return -ENOMEM;
	rc = sql_cell_text(&c[9], names);
	free(names);
	return rc ? -ENOMEM : 0;
}

int sql_fill_threads(struct sql_ctx *ctx, struct sql_rows *rows)
{
	struct thread_table *tt;
	struct tt_thread **th;
	struct sql_filter flt;
	struct ltt_reader *r;
	struct ltt_event ev;
	size_t n;
	int rc;

	sql_filter_init(&flt);
	flt.keep = thread_types;
	if ((rc = thread_table_new(&tt))) {
		thread_table_free(tt);
		return rc;
	}
	rc = sql_reader_open(ctx, &flt, &r);
	if (rc || !r) {
		thread_table_free(tt);
		return rc;
	}
	while ((rc = ltt_reader_next(r, &ev)) == 1)
		if ((rc = thread_table_event(tt, &ev)))
			break;
	sql_reader_close(ctx, r);
	n = thread_table_threads(tt, &th);
	for (size_t i = 0; !rc && i < n; i++) {
		struct sql_cell *c;

		if (!th[i]->events)
			continue;	/* named by another's event only (a switch's other side) */
		rc = (c = sql_rows_add(rows)) ? thread_cells(ctx, tt, th[i], c) : -ENOMEM;
	}
	thread_table_free(tt);
	return rc;
}

static int fill_text(struct sql_cell *c, const char *s)
{
	free(c->s);
	c->s = NULL;
	return sql_cell_text(c, s);
}

static int str_field(const struct ltt_event *ev, const char *name, const char **s, int64_t *n)
{
	struct ltt_value body, v;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, name, &v))
		return 0;
	if (s && v.type->kind == LTT_TYPE_STRING) {
		*s = ltt_value_string(&v, NULL);
		return 1;
	}
	if (n && (v.type->kind == LTT_TYPE_UINT || v.type->kind == LTT_TYPE_INT)) {
		*n = v.type->kind == LTT_TYPE_INT ? ltt_value_int(&v) : (int64_t)ltt_value_uint(&v);
		return 1;
	}
	return 0;
}

/* ---- processes ----------------------------------------------------------------------------------- */

static int process_types(const struct ltt_event_type *ty, void *arg)
{
	(void)arg;
	return (!strcmp(ty->facility, "core") && !strcmp(ty->name, "process")) ||
	       (!strcmp(ty->facility, "app") && !strcmp(ty->name, "version"));
}

static struct sql_cell *process_row(struct sql_ctx *ctx, struct sql_rows *rows, unsigned trace, int64_t pid)
{
	struct sql_cell *c;

	for (size_t i = 0; i < rows->n; i++) {
		c = rows->cells + i * rows->ncols;
		if (c[1].i == pid && !strcmp(c[0].s, ctx->names[trace]))
			return c;
	}
	c = sql_rows_add(rows);
	if (!c || sql_cell_text(&c[0], ctx->names[trace]))
		return NULL;
	sql_cell_int(&c[1], pid);
	return c;
}

int sql_fill_processes(struct sql_ctx *ctx, struct sql_rows *rows)
{
	struct sql_filter flt;
	struct ltt_reader *r;
	struct ltt_event ev;
	int rc;

	sql_filter_init(&flt);
	flt.keep = process_types;
	rc = sql_reader_open(ctx, &flt, &r);
	if (rc || !r)
		return rc;
	while ((rc = ltt_reader_next(r, &ev)) == 1) {
		int version = !strcmp(ev.type->facility, "app");
		const char *s1 = NULL, *s2 = NULL;
		int64_t pid, ppid;
		struct sql_cell *c;

		if (!str_field(&ev, "pid", NULL, &pid))
			continue;
		if (!(c = process_row(ctx, rows, ev.trace->index, pid))) {
			rc = -ENOMEM;
			break;
		}
		if (c[6].type != SQLITE_INTEGER)
			sql_cell_int(&c[6], (int64_t)ev.time_ns);
		if (version) {
			if ((str_field(&ev, "sid", &s1, NULL) && fill_text(&c[4], s1)) ||
			    (str_field(&ev, "exe", &s2, NULL) && fill_text(&c[5], s2)))
				rc = -ENOMEM;
		} else {
			if (str_field(&ev, "ppid", NULL, &ppid))
				sql_cell_int(&c[2], ppid);
			if (str_field(&ev, "name", &s1, NULL) && fill_text(&c[3], s1))
				rc = -ENOMEM;
		}
		if (rc < 0)
			break;
	}
	sql_reader_close(ctx, r);
	return rc;
}
