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

#include "toolkit/losses.h"
#include "toolkit/regions.h"
#include "toolkit/trace2_model.h"
#include "toolkit/sql_rows.h"

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

static int fill_text(struct sql_cell *c, const char *s)
{
	free(c->s);
	c->s = NULL;
	return sql_cell_text(c, s);
}

/* The row of (trace, tid), added when new (rows are few: a linear search from the end). */
static struct sql_cell *thread_row(struct sql_ctx *ctx, struct sql_rows *rows, unsigned trace, int64_t tid)
{
	struct sql_cell *c;

	for (size_t i = rows->n; i-- > 0; ) {
		c = rows->cells + i * rows->ncols;
		if (c[1].i == tid && !strcmp(c[0].s, ctx->names[trace]))
			return c;
	}
	c = sql_rows_add(rows);
	if (!c || sql_cell_text(&c[0], ctx->names[trace]))
		return NULL;
	sql_cell_int(&c[1], tid);
	return c;
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

int sql_fill_threads(struct sql_ctx *ctx, struct sql_rows *rows)
{
	struct sql_filter flt;
	struct ltt_reader *r;
	struct t2_model *m;
	struct ltt_event ev;
	struct t2_event e;
	int rc;

	sql_filter_init(&flt);
	flt.keep = thread_types;
	rc = t2_model_new(&m);
	if (rc)
		return rc;
	rc = sql_reader_open(ctx, &flt, &r);
	if (rc || !r) {
		t2_model_free(m);
		return rc;
	}
	while ((rc = ltt_reader_next(r, &ev)) == 1) {
		const char *name = NULL;
		int64_t tid, pid;
		struct sql_cell *c;
		int core = !strcmp(ev.type->facility, "core");

		if (!sql_event_tid(&ev, &tid))
			continue;
		if (!(c = thread_row(ctx, rows, ev.trace->index, tid))) {
			rc = -ENOMEM;
			break;
		}
		if (c[4].type != SQLITE_INTEGER)
			sql_cell_int(&c[4], (int64_t)ev.time_ns);
		sql_cell_int(&c[5], (int64_t)ev.time_ns);
		sql_cell_int(&c[6], c[6].i + 1);
		/* the Trace2 name ("main", "th01:name") when the app facility names the thread, else
		 * core's (the kernel's name of the thread) */
		if (core && (!strcmp(ev.type->name, "thread_start") || !strcmp(ev.type->name, "thread_name")) &&
		    c[3].i != 2 && str_field(&ev, "name", &name, NULL)) {
			if (fill_text(&c[3], name)) {
				rc = -ENOMEM;
				break;
			}
			c[3].i = 1;
		}
		if (core && str_field(&ev, "pid", NULL, &pid))
			sql_cell_int(&c[2], pid);
		if (!strcmp(ev.type->facility, "app") && t2_model_event(m, &ev, &e) == 1 &&
		    (strncmp(e.thread, "tid:", 4) || !c[3].s)) {
			if (fill_text(&c[3], e.thread)) {
				rc = -ENOMEM;
				break;
			}
			c[3].i = strncmp(e.thread, "tid:", 4) ? 2 : 0;
		}
	}
	sql_reader_close(ctx, r);
	t2_model_free(m);
	return rc;
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
