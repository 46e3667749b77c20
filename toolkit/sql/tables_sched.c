/* SPDX-License-Identifier: MIT */
/* The thread_states and syscalls tables of `ltt sql` (toolkit/sql_rows.h), from the scheduling model
 * (toolkit/sched_model.h) over the kernel events: one row per interval of a thread's state, one row
 * per completed system call. Joined with regions by tid and time (doc/cli.md's examples). */
#include <errno.h>
#include <stdio.h>

#include "toolkit/sched_decode.h"
#include "toolkit/sched_model.h"
#include "toolkit/sql_rows.h"

struct sched_fill {
	struct sql_ctx *ctx;
	struct sql_rows *rows;
	struct ltt_reader *r;
};

static int kernel_types(const struct ltt_event_type *ty, void *arg)
{
	(void)arg;
	return sched_decode_wants(ty);
}

static int call_name(struct sql_cell *c, struct ltt_reader *r, unsigned trace, uint32_t nr)
{
	const char *name = sched_syscall_name(ltt_reader_trace(r, trace), nr);
	char buf[24];

	if (!name) {
		snprintf(buf, sizeof(buf), "syscall_%u", nr);
		name = buf;
	}
	return sql_cell_text(c, name);
}

static void tid_cell(struct sql_cell *c, uint32_t v)
{
	if (v != SCHED_TID_NONE)
		sql_cell_int(c, v);
}

/* ts_ns, end_ns, dur_ns, tid, pid, cpu, state, cause, trace */
static int state_row(void *arg, const struct sched_interval *iv)
{
	struct sched_fill *f = arg;
	struct sql_cell *c = sql_rows_add(f->rows);

	if (!c)
		return -ENOMEM;
	sql_cell_int(&c[0], (int64_t)iv->start_ns);
	sql_cell_int(&c[1], (int64_t)iv->end_ns);
	sql_cell_int(&c[2], (int64_t)(iv->end_ns - iv->start_ns));
	sql_cell_int(&c[3], iv->tid);
	tid_cell(&c[4], iv->pid != SCHED_TID_NONE ? iv->pid : iv->tid);
	if (iv->cpu >= 0)
		sql_cell_int(&c[5], iv->cpu);
	if (sql_cell_text(&c[6], sched_state_name(iv->state)) || sql_cell_text(&c[8], f->ctx->names[iv->trace]))
		return -ENOMEM;
	if (iv->has_nr)
		return call_name(&c[7], f->r, iv->trace, iv->nr);
	if (iv->why != SCHED_WHY_NONE)
		return sql_cell_text(&c[7], sched_why_name(iv->why));
	return 0;
}

/* ts_ns, end_ns, dur_ns, tid, pid, cpu, nr, name, ret, trace */
static int call_row(void *arg, const struct sched_call *k)
{
	struct sched_fill *f = arg;
	struct sql_cell *c = sql_rows_add(f->rows);

	if (!c)
		return -ENOMEM;
	sql_cell_int(&c[0], (int64_t)k->entry_ns);
	sql_cell_int(&c[1], (int64_t)k->exit_ns);
	sql_cell_int(&c[2], (int64_t)(k->exit_ns - k->entry_ns));
	sql_cell_int(&c[3], k->tid);
	tid_cell(&c[4], k->pid != SCHED_TID_NONE ? k->pid : k->tid);
	if (k->cpu >= 0)
		sql_cell_int(&c[5], k->cpu);
	sql_cell_int(&c[6], k->nr);
	sql_cell_int(&c[8], k->ret);
	if (sql_cell_text(&c[9], f->ctx->names[k->trace]))
		return -ENOMEM;
	return call_name(&c[7], f->r, k->trace, k->nr);
}

static int fill(struct sql_ctx *ctx, struct sql_rows *rows, int calls)
{
	struct sched_fill f = { ctx, rows, NULL };
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
