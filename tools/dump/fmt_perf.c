/* SPDX-License-Identifier: MIT */
/* `ltt dump --format=perf`: the app events as Git Trace2's performance target writes them,
 *
 *     [<time> SP <file>:<line> SP+ BAR SP] d<depth> SP BAR SP <thread-name> SP+ BAR SP <event-name> SP+
 *     BAR SP [r<repo-id>] SP+ BAR SP [<t_abs>] SP+ BAR SP [<t_rel>] SP+ BAR SP [<category>] SP+
 *     BAR SP DOTS* <perf-event-message> LF
 *
 * with Trace2's column widths; two dots per open region indent region and data messages. --brief
 * leaves out time, file and line. ltt has no repositories: the repo column is always empty. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/dump_format.h"
#include "toolkit/trace2_model.h"
#include "toolkit/trace2_text.h"

#define PERF_FL_WIDTH 28
#define PERF_EVENT_WIDTH 12
#define PERF_REPO_WIDTH 3
#define PERF_CATEGORY_WIDTH 12
#define PERF_DOTS_MAX 2000	/* indentation of damaged nesting values stops here */

static int perf_begin(struct ltt_dump_ctx *ctx)
{
	struct t2_model *m;
	int rc = t2_model_new(&m);

	ctx->priv = m;
	return rc;
}

static int perf_end(struct ltt_dump_ctx *ctx)
{
	t2_model_free(ctx->priv);
	ctx->priv = NULL;
	return 0;
}

/* What a line shows besides the message. */
struct perf_cols {
	int abs, rel;
	const char *category;
};

static void perf_prefix(struct ltt_dump_ctx *ctx, struct t2_line *l, const struct t2_event *e,
			const struct perf_cols *c)
{
	size_t end;

	if (!ctx->brief) {
		t2_local_time(l, e->ev->time_ns);
		t2_char(l, ' ');
		end = l->col + PERF_FL_WIDTH;
		if (*e->file) {
			char fl[PERF_FL_WIDTH * 4];
			size_t n = (size_t)snprintf(fl, sizeof(fl), "%s:%u", e->file, e->line);

			if (n >= sizeof(fl)) {	/* only its end is shown: keep the line number */
				size_t flen = strlen(e->file);
				const char *tail = e->file + flen - (flen > PERF_FL_WIDTH ? PERF_FL_WIDTH : flen);

				n = (size_t)snprintf(fl, sizeof(fl), "%s:%u", tail, e->line);
			}
			if (n <= PERF_FL_WIDTH) {
				t2_mem(l, fl, n);
			} else {
				t2_mem(l, "...", 3);
				t2_mem(l, fl + n - (PERF_FL_WIDTH - 3), PERF_FL_WIDTH - 3);
			}
		}
		t2_pad(l, end);
		t2_mem(l, " | ", 3);
	}
	t2_printf(l, "d%u | ", e->proc->depth);
	t2_printf(l, "%-*s | %-*s | ", T2_THREAD_NAME_MAX, e->thread, PERF_EVENT_WIDTH, e->event);
	t2_pad(l, l->col + PERF_REPO_WIDTH);
	t2_mem(l, " | ", 3);
	if (c->abs)
		t2_seconds(l, e->t_abs_ns, 9);
	else
		t2_pad(l, l->col + 9);
	t2_mem(l, " | ", 3);
	if (c->rel && e->has_rel)
		t2_seconds(l, e->t_rel_ns, 9);
	else
		t2_pad(l, l->col + 9);
	t2_mem(l, " | ", 3);
	t2_printf(l, "%-*.*s | ", PERF_CATEGORY_WIDTH, PERF_CATEGORY_WIDTH, c->category ? c->category : "");
	if (e->nesting > 1) {
		size_t dots = (size_t)(e->nesting - 1) * 2;

		if (dots > PERF_DOTS_MAX)
			dots = PERF_DOTS_MAX;
		while (dots--)
			t2_char(l, '.');
	}
}

static void perf_label_msg(struct t2_line *l, const struct t2_event *e)
{
	const char *label = t2_str(e, "label"), *msg = t2_str(e, "msg");

	if (*label) {
		t2_str_out(l, "label:");
		t2_str_out(l, label);
	}
	if (*msg) {
		t2_char(l, ' ');
		t2_str_out(l, msg);
	}
}

static int perf_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct t2_line l = { .o = ctx->out, .term = 1 };
	struct perf_cols c = { 0, 0, NULL };
	struct t2_event e;
	int rc = t2_model_event(ctx->priv, ev, &e);

	if (rc <= 0)
		return rc == -ENOMEM ? rc : 0;
	switch (e.kind) {
	case T2_START: case T2_EXIT: case T2_SIGNAL: case T2_ATEXIT: case T2_CHILD_START:
	case T2_THREAD_START: case T2_EXEC: case T2_EXEC_RESULT: case T2_PRINTF:
		c.abs = 1;
		break;
	case T2_CHILD_EXIT: case T2_THREAD_EXIT:
		c.abs = c.rel = 1;
		break;
	case T2_REGION_ENTER:
		c.abs = 1;
		c.category = t2_str(&e, "category");
		break;
	case T2_REGION_LEAVE: case T2_DATA_INT: case T2_DATA_STRING: case T2_DATA_JSON:
		c.abs = c.rel = 1;
		c.category = t2_str(&e, "category");
		break;
	case T2_TIMER: case T2_COUNTER:
		c.category = t2_str(&e, "category");
		break;
	default:
		break;
	}
	perf_prefix(ctx, &l, &e, &c);
	switch (e.kind) {
	case T2_VERSION:
		t2_str_out(&l, t2_str(&e, "exe"));
		break;
	case T2_START:
		t2_argv_pretty(&l, &e, "argv");
		break;
	case T2_EXIT:
	case T2_ATEXIT:
		t2_printf(&l, "code:%d", (int)t2_int(&e, "code"));
		break;
	case T2_SIGNAL:
		t2_printf(&l, "signo:%d", (int)t2_int(&e, "signo"));
		break;
	case T2_ERROR:
		t2_str_out(&l, t2_str(&e, "msg"));
		break;
	case T2_CMD_PATH:
		t2_str_out(&l, t2_str(&e, "path"));
		break;
	case T2_CMD_NAME:
		t2_str_out(&l, t2_str(&e, "name"));
		if (*t2_str(&e, "hierarchy"))
			t2_printf(&l, " (%s)", t2_str(&e, "hierarchy"));
		break;
	case T2_CMD_MODE:
		t2_str_out(&l, t2_str(&e, "name"));
		break;
	case T2_ALIAS:
		t2_printf(&l, "alias:%s argv:[", t2_str(&e, "alias"));
		t2_argv_pretty(&l, &e, "argv");
		t2_char(&l, ']');
		break;
	case T2_DEF_PARAM:
		t2_printf(&l, "%s:%s", t2_str(&e, "param"), t2_str(&e, "value"));
		break;
	case T2_CHILD_START:
		t2_printf(&l, "[ch%d] class:%s argv:[", (int)t2_int(&e, "child_id"), t2_str(&e, "child_class"));
		t2_argv_pretty(&l, &e, "argv");
		t2_char(&l, ']');
		break;
	case T2_CHILD_EXIT:
		t2_printf(&l, "[ch%d] pid:%d code:%d", (int)t2_int(&e, "child_id"), (int)t2_int(&e, "pid"),
			  (int)t2_int(&e, "code"));
		break;
	case T2_EXEC: {
		const char *exe = t2_str(&e, "exe");

		t2_printf(&l, "id:%d argv:[", (int)t2_int(&e, "exec_id"));
		if (*exe) {
			t2_str_out(&l, exe);
			if (t2_argc(&e, "argv"))
				t2_char(&l, ' ');
		}
		t2_argv_pretty(&l, &e, "argv");
		t2_char(&l, ']');
		break;
	}
	case T2_EXEC_RESULT: {
		int code = (int)t2_int(&e, "code");

		t2_printf(&l, "id:%d code:%d", (int)t2_int(&e, "exec_id"), code);
		if (code > 0)
			t2_printf(&l, " err:%s", strerror(code));
		break;
	}
	case T2_REGION_ENTER:
	case T2_REGION_LEAVE:
		perf_label_msg(&l, &e);
		break;
	case T2_DATA_INT:
		t2_printf(&l, "%s:%" PRId64, t2_str(&e, "key"), t2_int(&e, "value"));
		break;
	case T2_DATA_STRING:
		t2_printf(&l, "%s:%s", t2_str(&e, "key"), t2_str(&e, "value"));
		break;
	case T2_DATA_JSON:
		t2_printf(&l, "%s:%s", t2_str(&e, "key"), t2_str(&e, "json"));
		break;
	case T2_PRINTF:
		t2_str_out(&l, t2_str(&e, "msg"));
		break;
	case T2_TIMER:
		t2_printf(&l, "name:%s intervals:%" PRIu64 " total:", t2_str(&e, "name"),
			  (uint64_t)t2_int(&e, "intervals"));
		t2_seconds(&l, (uint64_t)t2_int(&e, "total_ns"), 8);
		t2_str_out(&l, " min:");
		t2_seconds(&l, (uint64_t)t2_int(&e, "min_ns"), 8);
		t2_str_out(&l, " max:");
		t2_seconds(&l, (uint64_t)t2_int(&e, "max_ns"), 8);
		break;
	case T2_COUNTER:
		t2_printf(&l, "name:%s value:%" PRId64, t2_str(&e, "name"), t2_int(&e, "value"));
		break;
	default:
		break;
	}
	t2_char(&l, '\n');
	return 0;
}

const struct ltt_dump_format ltt_fmt_perf = {
	.name = "perf",
	.summary = "app events as Git Trace2's performance target writes them (--brief: no time, file, line)",
	.begin = perf_begin,
	.event = perf_event,
	.end = perf_end,
};
