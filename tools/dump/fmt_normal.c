/* SPDX-License-Identifier: MIT */
/* `ltt dump --format=normal`: the app events as Git Trace2's normal target writes them,
 *
 *     [<time> SP <file>:<line> SP+] <event-name> [SP <event-message>] LF
 *
 * time and file:line padded to column 50, left out with --brief. Like Trace2's normal target it
 * is a summary: thread, region, data, timer and counter events are not shown. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/dump_format.h"
#include "toolkit/trace2_model.h"
#include "toolkit/trace2_text.h"

#define NORMAL_FL_WIDTH 50

static int normal_begin(struct ltt_dump_ctx *ctx)
{
	struct t2_model *m;
	int rc = t2_model_new(&m);

	ctx->priv = m;
	return rc;
}

static int normal_end(struct ltt_dump_ctx *ctx)
{
	t2_model_free(ctx->priv);
	ctx->priv = NULL;
	return 0;
}

static void normal_prefix(struct ltt_dump_ctx *ctx, struct t2_line *l, const struct t2_event *e)
{
	if (ctx->brief)
		return;
	t2_local_time(l, e->ev->time_ns);
	t2_char(l, ' ');
	if (*e->file)
		t2_printf(l, "%s:%u ", e->file, e->line);
	t2_pad(l, NORMAL_FL_WIDTH);
}

static int normal_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct t2_line l = { .o = ctx->out, .term = 1 };
	struct t2_event e;
	int rc = t2_model_event(ctx->priv, ev, &e);

	if (rc <= 0)
		return rc == -ENOMEM ? rc : 0;
	switch (e.kind) {
	case T2_THREAD_START:
	case T2_THREAD_EXIT:
	case T2_REGION_ENTER:
	case T2_REGION_LEAVE:
	case T2_DATA_INT:
	case T2_DATA_STRING:
	case T2_DATA_JSON:
	case T2_TIMER:
	case T2_COUNTER:
	case T2_NONE:
	case T2_NKINDS:
		return 0;
	default:
		break;
	}
	normal_prefix(ctx, &l, &e);
	switch (e.kind) {
	case T2_VERSION:
		t2_printf(&l, "version %s", t2_str(&e, "exe"));
		break;
	case T2_START:
		t2_str_out(&l, "start ");
		t2_argv_pretty(&l, &e, "argv");
		break;
	case T2_EXIT:
	case T2_ATEXIT:
	case T2_SIGNAL:
		t2_printf(&l, "%s elapsed:", e.event);
		t2_seconds(&l, e.t_abs_ns, 0);
		t2_printf(&l, " code:%d", (int)t2_int(&e, e.kind == T2_SIGNAL ? "signo" : "code"));
		break;
	case T2_ERROR:
		t2_str_out(&l, "error");
		if (*t2_str(&e, "fmt") || *t2_str(&e, "msg")) {
			t2_char(&l, ' ');
			t2_str_out(&l, t2_str(&e, "msg"));
		}
		break;
	case T2_CMD_PATH:
		t2_printf(&l, "cmd_path %s", t2_str(&e, "path"));
		break;
	case T2_CMD_NAME:
		t2_printf(&l, "cmd_name %s", t2_str(&e, "name"));
		if (*t2_str(&e, "hierarchy"))
			t2_printf(&l, " (%s)", t2_str(&e, "hierarchy"));
		break;
	case T2_CMD_MODE:
		t2_printf(&l, "cmd_mode %s", t2_str(&e, "name"));
		break;
	case T2_ALIAS:
		t2_printf(&l, "alias %s -> ", t2_str(&e, "alias"));
		t2_argv_pretty(&l, &e, "argv");
		break;
	case T2_DEF_PARAM:
		t2_printf(&l, "def_param %s=%s", t2_str(&e, "param"), t2_str(&e, "value"));
		break;
	case T2_CHILD_START:
		t2_printf(&l, "child_start[%d] ", (int)t2_int(&e, "child_id"));
		t2_argv_pretty(&l, &e, "argv");
		break;
	case T2_CHILD_EXIT:
		t2_printf(&l, "child_exit[%d] pid:%d code:%d elapsed:", (int)t2_int(&e, "child_id"),
			  (int)t2_int(&e, "pid"), (int)t2_int(&e, "code"));
		t2_seconds(&l, e.t_rel_ns, 0);
		break;
	case T2_EXEC:
		t2_printf(&l, "exec[%d] ", (int)t2_int(&e, "exec_id"));
		if (*t2_str(&e, "exe"))
			t2_printf(&l, "%s ", t2_str(&e, "exe"));
		t2_argv_pretty(&l, &e, "argv");
		break;
	case T2_EXEC_RESULT: {
		int code = (int)t2_int(&e, "code");

		t2_printf(&l, "exec_result[%d] code:%d", (int)t2_int(&e, "exec_id"), code);
		if (code > 0)
			t2_printf(&l, " err:%s", strerror(code));
		break;
	}
	case T2_PRINTF:
		t2_str_out(&l, t2_str(&e, "msg"));
		break;
	default:
		break;
	}
	t2_char(&l, '\n');
	return 0;
}

const struct ltt_dump_format ltt_fmt_normal = {
	.name = "normal",
	.summary = "app events as Git Trace2's normal target writes them (--brief: no time, file, line)",
	.begin = normal_begin,
	.event = normal_event,
	.end = normal_end,
};
