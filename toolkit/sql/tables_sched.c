/* SPDX-License-Identifier: MIT */
/* The thread_states and syscalls tables of `ltt sql` (toolkit/sql_rows.h), from the scheduling model
 * (toolkit/sched_model.h) over the kernel events: one row per interval of a thread's state, one row
 * per completed system call. Joined with regions by tid and time (doc/cli.md's examples). Streamed:
 * the model is fed one event at a time and its intervals handed out as they end (the same rows, in the
 * same order, as filled), only those of the tid and ts_ns range asked for (struct sql_push; the model
 * still reads every kernel event: a thread's states depend on other threads' switches and wakeups). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/grow.h"
#include "toolkit/sched_decode.h"
#include "toolkit/sched_model.h"
#include "toolkit/sql_rows.h"

struct sched_fill {
	struct sql_ctx *ctx;
	struct sql_rows *rows;
	struct ltt_reader *r;
	int ref;		/* cells borrow their text (a stream) */
};

static int kernel_types(const struct ltt_event_type *ty, void *arg)
{
	(void)arg;
	return sched_decode_wants(ty);
}

static int text_cell(const struct sched_fill *f, struct sql_cell *c, const char *s)
{
	if (!f->ref)
		return sql_cell_text(c, s);
	sql_cell_ref(c, s);
	return 0;
}

static int call_name(const struct sched_fill *f, struct sql_cell *c, unsigned trace, uint32_t nr)
{
	const char *name = sched_syscall_name(ltt_reader_trace(f->r, trace), nr);
	char buf[24];

	if (!name) {
		snprintf(buf, sizeof(buf), "syscall_%u", nr);
		return sql_cell_text(c, buf);	/* made here: always a copy */
	}
	return text_cell(f, c, name);
}

static void tid_cell(struct sql_cell *c, uint32_t v)
{
	if (v != SCHED_TID_NONE)
		sql_cell_int(c, v);
}

/* ts_ns, end_ns, dur_ns, tid, pid, cpu, state, cause, trace */
static int state_cells(const struct sched_fill *f, const struct sched_interval *iv, struct sql_cell *c)
{
	sql_cell_int(&c[0], (int64_t)iv->start_ns);
	sql_cell_int(&c[1], (int64_t)iv->end_ns);
	sql_cell_int(&c[2], (int64_t)(iv->end_ns - iv->start_ns));
	sql_cell_int(&c[3], iv->tid);
	tid_cell(&c[4], iv->pid != SCHED_TID_NONE ? iv->pid : iv->tid);
	if (iv->cpu >= 0)
		sql_cell_int(&c[5], iv->cpu);
	if (text_cell(f, &c[6], sched_state_name(iv->state)) || text_cell(f, &c[8], f->ctx->names[iv->trace]))
		return -ENOMEM;
	if (iv->has_nr)
		return call_name(f, &c[7], iv->trace, iv->nr);
	if (iv->why != SCHED_WHY_NONE)
		return text_cell(f, &c[7], sched_why_name(iv->why));
	return 0;
}

static int state_row(void *arg, const struct sched_interval *iv)
{
	struct sched_fill *f = arg;
	struct sql_cell *c = sql_rows_add(f->rows);

	return c ? state_cells(f, iv, c) : -ENOMEM;
}

/* ts_ns, end_ns, dur_ns, tid, pid, cpu, nr, name, ret, trace */
static int call_cells(const struct sched_fill *f, const struct sched_call *k, struct sql_cell *c)
{
	sql_cell_int(&c[0], (int64_t)k->entry_ns);
	sql_cell_int(&c[1], (int64_t)k->exit_ns);
	sql_cell_int(&c[2], (int64_t)(k->exit_ns - k->entry_ns));
	sql_cell_int(&c[3], k->tid);
	tid_cell(&c[4], k->pid != SCHED_TID_NONE ? k->pid : k->tid);
	if (k->cpu >= 0)
		sql_cell_int(&c[5], k->cpu);
	sql_cell_int(&c[6], k->nr);
	sql_cell_int(&c[8], k->ret);
	if (text_cell(f, &c[9], f->ctx->names[k->trace]))
		return -ENOMEM;
	return call_name(f, &c[7], k->trace, k->nr);
}

static int call_row(void *arg, const struct sched_call *k)
{
	struct sched_fill *f = arg;
	struct sql_cell *c = sql_rows_add(f->rows);

	return c ? call_cells(f, k, c) : -ENOMEM;
}

static int fill(struct sql_ctx *ctx, struct sql_rows *rows, int calls)
{
	struct sched_fill f = { ctx, rows, NULL, 0 };
	struct sched_hooks hooks = { .arg = &f };
	struct sql_filter flt;
	struct sched_model *m;
	int rc;

	if (calls)
		hooks.call = call_row;
	else
		hooks.interval = state_row;
	sql_filter_init(&flt);
	flt.keep = kernel_types;
	flt.flags = LTT_READ_BUILTIN;	/* the kernel streams' events_lost: no state across a loss */
	rc = sql_reader_open(ctx, &flt, &f.r);
	if (rc || !f.r)
		return rc;
	rc = sched_model_new(&m, &hooks, 0);
	if (!rc)
		rc = sched_scan(f.r, m, NULL, NULL);
	sched_model_free(m);
	sql_reader_close(ctx, f.r);
	return rc;
}

int sql_fill_thread_states(struct sql_ctx *ctx, struct sql_rows *rows)
{
	return fill(ctx, rows, 0);
}

int sql_fill_syscalls(struct sql_ctx *ctx, struct sql_rows *rows)
{
	return fill(ctx, rows, 1);
}

/* ---- streamed ----------------------------------------------------------------------------------- */

struct sched_stream {
	struct sched_fill f;	/* ctx, r; ref = 1 */
	int calls, done;
	struct sql_push push;
	struct sched_model *m;
	struct sched_decoder *d;
	uint64_t last;		/* the last event's time: the end given to sched_model_finish */
	/* intervals (or calls) ended by the last event fed, handed out from qhead */
	struct sched_interval *qi;
	struct sched_call *qc;
	size_t qn, qcap, qhead;
};

static int queue_grow(struct sched_stream *st)
{
	return st->calls ? LTT_GROW_FROM(st->qc, st->qn + 1, st->qcap, 64)
			 : LTT_GROW_FROM(st->qi, st->qn + 1, st->qcap, 64);
}

static int queue_interval(void *arg, const struct sched_interval *iv)
{
	struct sched_stream *st = arg;

	if (!sql_push_wants(&st->push, iv->tid, (int64_t)iv->start_ns))
		return 0;
	if (queue_grow(st))
		return -ENOMEM;
	st->qi[st->qn++] = *iv;
	return 0;
}

static int queue_call(void *arg, const struct sched_call *k)
{
	struct sched_stream *st = arg;

	if (!sql_push_wants(&st->push, k->tid, (int64_t)k->entry_ns))
		return 0;
	if (queue_grow(st))
		return -ENOMEM;
	st->qc[st->qn++] = *k;
	return 0;
}

static int stream_open(struct sql_ctx *ctx, void **out, const struct sql_push *push, int calls)
{
	struct sched_stream *st = calloc(1, sizeof(*st));
	struct sched_hooks hooks = { 0 };
	struct sql_filter flt;
	int rc;

	*out = st;
	if (!st)
		return -ENOMEM;
	st->f.ctx = ctx;
	st->f.ref = 1;
	st->calls = calls;
	st->push = push ? *push : (struct sql_push){ 0, 0, INT64_MIN, INT64_MAX };
	hooks.arg = st;
	if (calls)
		hooks.call = queue_call;
	else
		hooks.interval = queue_interval;
	sql_filter_init(&flt);
	flt.keep = kernel_types;
	flt.flags = LTT_READ_BUILTIN;	/* the kernel streams' events_lost: no state across a loss (as fill) */
	rc = sql_reader_open(ctx, &flt, &st->f.r);
	if (rc || !st->f.r)
		return rc;
	if ((rc = sched_model_new(&st->m, &hooks, 0)))
		return rc;
	/* each stream's kept history, as sched_scan reads it for the filled tables and ltt stats --sched */
	if ((rc = sched_read_history(st->f.r, st->m)))
		return rc;
	return sched_decoder_new(&st->d);
}

int sql_thread_states_open(struct sql_ctx *ctx, void **out, const struct sql_push *push)
{
	return stream_open(ctx, out, push, 0);
}

int sql_syscalls_open(struct sql_ctx *ctx, void **out, const struct sql_push *push)
{
	return stream_open(ctx, out, push, 1);
}

int sql_sched_next(void *stream, struct sql_cell *c)
{
	struct sched_stream *st = stream;
	struct ltt_event ev;
	struct sched_ev k;
	int rc;

	while (st->qhead == st->qn) {
		st->qhead = st->qn = 0;
		if (st->done || !st->d)
			return 0;
		rc = ltt_reader_next(st->f.r, &ev);
		if (rc < 0) {
			st->done = 1;
			return rc;	/* reported by the reader: the rows so far stand */
		}
		if (rc == 0) {
			st->done = 1;
			if ((rc = sched_model_finish(st->m, st->last)) < 0)
				return rc;
			continue;
		}
		rc = sched_decode(st->d, &ev, &k);
		if (rc < 0 || (rc == 1 && (rc = sched_model_feed(st->m, &k)))) {
			st->done = 1;
			return rc < 0 ? rc : -EIO;
		}
		st->last = ev.time_ns > st->last ? ev.time_ns : st->last;
	}
	rc = st->calls ? call_cells(&st->f, &st->qc[st->qhead], c) : state_cells(&st->f, &st->qi[st->qhead], c);
	st->qhead++;
	return rc ? -ENOMEM : 1;
}

void sql_sched_close(void *stream)
{
	struct sched_stream *st = stream;

	if (!st)
		return;
	if (st->d)
		sched_decoder_free(st->d);
	if (st->m)
		sched_model_free(st->m);
	sql_reader_close(st->f.ctx, st->f.r);
	free(st->qi);
	free(st->qc);
	free(st);
}
