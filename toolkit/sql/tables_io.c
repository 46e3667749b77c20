/* SPDX-License-Identifier: MIT */
/* The io table of `ltt sql` (toolkit/sql_rows.h): one row per completed read or write system call,
 * from the I/O model (toolkit/io_model.h) over the kernel events and the fd facility, with the file
 * its fd referred to and the open file it belongs to (`handle`: shared by an fd and its dup copies).
 * `ltt stats --io` is its GROUP BY pid, tid, file, op; an uninstrumented server's request latency is a
 * read to the next write on the same handle (doc/cli.md "The io table"). Streamed as thread_states
 * (tables_sched.c): the models read every kernel event, the rows of the tid and ts_ns range asked for
 * are handed out as the calls end. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/grow.h"
#include "toolkit/io_model.h"
#include "toolkit/losses.h"
#include "toolkit/sched_decode.h"
#include "toolkit/sched_model.h"
#include "toolkit/sql_rows.h"

struct io_stream {
	struct sql_ctx *ctx;
	struct ltt_reader *r;
	struct sql_push push;
	struct sched_model *sm;
	struct sched_decoder *d;
	struct io_model *io;
	struct losses loss;
	int done;
	uint64_t last;
	struct io_call *q;	/* calls ended by the last event fed, handed out from qhead */
	size_t qn, qcap, qhead;
	struct sql_rows *rows;	/* filling: every row goes here instead */
	int rc;			/* a cell's allocation failed (filling) */
};

static int io_types(const struct ltt_event_type *ty, void *arg)
{
	(void)arg;
	return sched_decode_wants(ty) || io_model_wants(ty);
}

/* ts_ns, end_ns, dur_ns, tid, pid, fd, handle, file, op, name, bytes, ret, trace */
static int io_cells(struct io_stream *st, const struct io_call *k, struct sql_cell *c, int ref)
{
	const char *name = sched_syscall_name(ltt_reader_trace(st->r, k->trace), k->nr);
	char buf[24];
	int rc;

	sql_cell_int(&c[0], (int64_t)k->entry_ns);
	sql_cell_int(&c[1], (int64_t)k->exit_ns);
	sql_cell_int(&c[2], (int64_t)(k->exit_ns - k->entry_ns));
	sql_cell_int(&c[3], k->tid);
	sql_cell_int(&c[4], k->pid != SCHED_TID_NONE ? k->pid : k->tid);
	sql_cell_int(&c[5], k->fd);
	sql_cell_int(&c[6], (int64_t)k->handle);
	sql_cell_int(&c[10], (int64_t)k->bytes);
	sql_cell_int(&c[11], k->ret);
	if (!name) {
		snprintf(buf, sizeof(buf), "syscall_%u", k->nr);
		if (sql_cell_text(&c[9], buf))
			return -ENOMEM;
	} else if (ref) {
		sql_cell_ref(&c[9], name);
	} else if (sql_cell_text(&c[9], name)) {
		return -ENOMEM;
	}
	if (ref) {
		sql_cell_ref(&c[7], k->file);
		sql_cell_ref(&c[8], io_op_name(k->op));
		sql_cell_ref(&c[12], st->ctx->names[k->trace]);
		return 0;
	}
	rc = sql_cell_text(&c[7], k->file) || sql_cell_text(&c[8], io_op_name(k->op)) ||
	     sql_cell_text(&c[12], st->ctx->names[k->trace]);
	return rc ? -ENOMEM : 0;
}

static int queue_call(void *arg, const struct io_call *k)
{
	struct io_stream *st = arg;

	if (!sql_push_wants(&st->push, k->tid, (int64_t)k->entry_ns))
		return 0;
	if (st->rows) {
		struct sql_cell *c = sql_rows_add(st->rows);

		return c ? io_cells(st, k, c, 0) : -ENOMEM;
	}
	if (LTT_GROW(st->q, st->qn + 1, st->qcap))
		return -ENOMEM;
	st->q[st->qn++] = *k;
	return 0;
}

static int io_open(struct sql_ctx *ctx, struct io_stream *st, const struct sql_push *push)
{
	struct io_hooks hooks = { .arg = st, .call = queue_call };
	struct sql_filter flt;
	int rc;

	st->ctx = ctx;
	st->push = push ? *push : (struct sql_push){ 0, 0, INT64_MIN, INT64_MAX };
	losses_init(&st->loss);
	sql_filter_init(&flt);
	flt.keep = io_types;
	flt.flags = LTT_READ_BUILTIN;	/* the kernel streams' events_lost: no call matched across a loss */
	rc = sql_reader_open(ctx, &flt, &st->r);
	if (rc || !st->r)
		return rc;
	if ((rc = sched_model_new(&st->sm, NULL, 0)) || (rc = io_model_new(&st->io, &hooks, 0)))
		return rc;
	if ((rc = sched_read_history(st->r, st->sm)))
		return rc;
	return sched_decoder_new(&st->d);
}

/* Feeds the next event: 1 fed, 0 at the end (the models finished), or a negative errno. */
static int io_feed(struct io_stream *st)
{
	struct ltt_event ev;
	struct sched_ev k;
	int rc, l;

	rc = ltt_reader_next(st->r, &ev);
	if (rc <= 0) {
		st->done = 1;
		if (rc < 0)
			return rc;	/* reported by the reader: the rows so far stand */
		return sched_model_finish(st->sm, st->last) < 0 ? -ENOMEM : 0;
	}
	rc = sched_decode(st->d, &ev, &k);
	if (rc < 0 || (rc == 1 && (rc = sched_model_feed(st->sm, &k)))) {
		st->done = 1;
		return rc < 0 ? rc : -EIO;
	}
	if ((l = losses_event(&st->loss, &ev)) < 0 ||
	    (rc = io_model_event(st->io, st->sm, &ev, l == 1 && st->loss.last.kernel))) {
		st->done = 1;
		return l < 0 ? -ENOMEM : rc;
	}
	st->last = ev.time_ns > st->last ? ev.time_ns : st->last;
	return 1;
}

static void io_free(struct io_stream *st)
{
	if (st->d)
		sched_decoder_free(st->d);
	sched_model_free(st->sm);
	io_model_free(st->io);
	losses_free(&st->loss);
	sql_reader_close(st->ctx, st->r);
	free(st->q);
}

int sql_fill_io(struct sql_ctx *ctx, struct sql_rows *rows)
{
	struct io_stream st = { 0 };
	int rc;

	st.rows = rows;
	rc = io_open(ctx, &st, NULL);
	if (!rc && st.r)
		while ((rc = io_feed(&st)) == 1)
			;
	io_free(&st);
	return rc;
}

int sql_io_open(struct sql_ctx *ctx, void **out, const struct sql_push *push)
{
	struct io_stream *st = calloc(1, sizeof(*st));

	*out = st;
	if (!st)
		return -ENOMEM;
	return io_open(ctx, st, push);
}

int sql_io_next(void *stream, struct sql_cell *c)
{
	struct io_stream *st = stream;
	int rc;

	while (st->qhead == st->qn) {
		st->qhead = st->qn = 0;
		if (st->done || !st->d)
			return 0;
		if ((rc = io_feed(st)) < 0)
			return rc;
	}
	rc = io_cells(st, &st->q[st->qhead], c, 1);
	st->qhead++;
	return rc ? -ENOMEM : 1;
}

void sql_io_close(void *stream)
{
	struct io_stream *st = stream;

	if (!st)
		return;
	io_free(st);
	free(st);
}
