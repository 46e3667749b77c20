/* SPDX-License-Identifier: MIT */
/* `ltt dump --format=event`: the app events as Git Trace2's event target writes them: one JSON
 * object per line with the common keys "event", "sid", "thread", "time", "file", "line", then the
 * event's own keys, named as Trace2 names them. With --brief, "file" and "line" are left out and
 * "time" is only on "start" and "atexit" (Trace2's event brief mode). Like Trace2's event target it
 * does not show printf messages. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/dump_format.h"
#include "toolkit/trace2_model.h"
#include "toolkit/trace2_text.h"

static int event_begin(struct ltt_dump_ctx *ctx)
{
	struct t2_model *m;
	int rc = t2_model_new(&m);

	ctx->priv = m;
	return rc;
}

static int event_end(struct ltt_dump_ctx *ctx)
{
	t2_model_free(ctx->priv);
	ctx->priv = NULL;
	return 0;
}

/* ,"key": */
static void event_key(struct t2_line *l, const char *key)
{
	t2_mem(l, ",\"", 2);
	t2_str_out(l, key);
	t2_mem(l, "\":", 2);
}

static void event_string(struct t2_line *l, const char *key, const char *value)
{
	event_key(l, key);
	t2_json_string(l, value);
}

/* A string field of the event under a JSON key, left out when empty. */
static void event_field_opt(struct t2_line *l, const struct t2_event *e, const char *key, const char *field)
{
	const char *v = t2_str(e, field);

	if (*v)
		event_string(l, key, v);
}

static void event_int(struct t2_line *l, const char *key, int64_t v)
{
	event_key(l, key);
	t2_printf(l, "%" PRId64, v);
}

static void event_seconds(struct t2_line *l, const char *key, uint64_t ns)
{
	event_key(l, key);
	t2_seconds(l, ns, 0);
}

static int event_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct t2_line l = { .o = ctx->out };
	struct t2_event e;
	int rc = t2_model_event(ctx->priv, ev, &e);

	if (rc <= 0)
		return rc == -ENOMEM ? rc : 0;
	if (e.kind == T2_PRINTF)
		return 0;
	t2_str_out(&l, "{\"event\":");
	t2_json_string(&l, e.event);
	event_string(&l, "sid", e.proc->sid);
	event_string(&l, "thread", e.thread);
	if (!ctx->brief || e.kind == T2_START || e.kind == T2_ATEXIT) {
		event_key(&l, "time");
		t2_char(&l, '"');
		t2_utc_time(&l, e.ev->time_ns);
		t2_char(&l, '"');
	}
	if (!ctx->brief && *e.file) {
		event_string(&l, "file", e.file);
		event_int(&l, "line", e.line);
	}
	switch (e.kind) {
	case T2_VERSION:
		event_string(&l, "evt", t2_str(&e, "evt"));
		event_string(&l, "exe", t2_str(&e, "exe"));
		break;
	case T2_START:
		event_seconds(&l, "t_abs", e.t_abs_ns);
		event_key(&l, "argv");
		t2_argv_json(&l, &e, "argv");
		break;
	case T2_EXIT:
	case T2_ATEXIT:
		event_seconds(&l, "t_abs", e.t_abs_ns);
		event_int(&l, "code", t2_int(&e, "code"));
		break;
	case T2_SIGNAL:
		event_seconds(&l, "t_abs", e.t_abs_ns);
		event_int(&l, "signo", t2_int(&e, "signo"));
		break;
	case T2_ERROR:
		event_string(&l, "msg", t2_str(&e, "msg"));
		event_field_opt(&l, &e, "fmt", "fmt");
		break;
	case T2_CMD_PATH:
		event_string(&l, "path", t2_str(&e, "path"));
		break;
	case T2_CMD_NAME:
		event_string(&l, "name", t2_str(&e, "name"));
		event_field_opt(&l, &e, "hierarchy", "hierarchy");
		break;
	case T2_CMD_MODE:
		event_string(&l, "name", t2_str(&e, "name"));
		break;
	case T2_ALIAS:
		event_string(&l, "alias", t2_str(&e, "alias"));
		event_key(&l, "argv");
		t2_argv_json(&l, &e, "argv");
		break;
	case T2_DEF_PARAM:
		event_string(&l, "param", t2_str(&e, "param"));
		event_string(&l, "value", t2_str(&e, "value"));
		break;
	case T2_CHILD_START:
		event_int(&l, "child_id", t2_int(&e, "child_id"));
		event_string(&l, "child_class", t2_str(&e, "child_class"));
		event_key(&l, "use_shell");
		t2_str_out(&l, t2_int(&e, "use_shell") ? "true" : "false");
		event_key(&l, "argv");
		t2_argv_json(&l, &e, "argv");
		break;
	case T2_CHILD_EXIT:
		event_int(&l, "child_id", t2_int(&e, "child_id"));
		event_int(&l, "pid", t2_int(&e, "pid"));
		event_int(&l, "code", t2_int(&e, "code"));
		event_seconds(&l, "t_rel", e.t_rel_ns);
		break;
	case T2_EXEC:
		event_int(&l, "exec_id", t2_int(&e, "exec_id"));
		event_field_opt(&l, &e, "exe", "exe");
		event_key(&l, "argv");
		t2_argv_json(&l, &e, "argv");
		break;
	case T2_EXEC_RESULT:
		event_int(&l, "exec_id", t2_int(&e, "exec_id"));
		event_int(&l, "code", t2_int(&e, "code"));
		break;
	case T2_THREAD_EXIT:
		event_seconds(&l, "t_rel", e.t_rel_ns);
		break;
	case T2_REGION_ENTER:
	case T2_REGION_LEAVE:
		if (e.kind == T2_REGION_LEAVE && e.has_rel)
			event_seconds(&l, "t_rel", e.t_rel_ns);
		event_int(&l, "nesting", e.nesting);
		event_field_opt(&l, &e, "category", "category");
		event_field_opt(&l, &e, "label", "label");
		event_field_opt(&l, &e, "msg", "msg");
		break;
	case T2_DATA_INT:
	case T2_DATA_STRING:
	case T2_DATA_JSON:
		event_seconds(&l, "t_abs", e.t_abs_ns);
		if (e.has_rel)
			event_seconds(&l, "t_rel", e.t_rel_ns);
		event_int(&l, "nesting", e.nesting);
		event_string(&l, "category", t2_str(&e, "category"));
		event_string(&l, "key", t2_str(&e, "key"));
		event_key(&l, "value");
		if (e.kind == T2_DATA_INT) {
			t2_printf(&l, "\"%" PRId64 "\"", t2_int(&e, "value"));
		} else if (e.kind == T2_DATA_STRING) {
			t2_json_string(&l, t2_str(&e, "value"));
		} else {
			const char *json = t2_str(&e, "json");

			if (t2_json_valid(json, strlen(json)))
				t2_str_out(&l, json);
			else
				t2_json_string(&l, json);
		}
		break;
	case T2_TIMER:
		event_string(&l, "category", t2_str(&e, "category"));
		event_string(&l, "name", t2_str(&e, "name"));
		event_int(&l, "intervals", t2_int(&e, "intervals"));
		event_seconds(&l, "t_total", (uint64_t)t2_int(&e, "total_ns"));
		event_seconds(&l, "t_min", (uint64_t)t2_int(&e, "min_ns"));
		event_seconds(&l, "t_max", (uint64_t)t2_int(&e, "max_ns"));
		break;
	case T2_COUNTER:
		event_string(&l, "category", t2_str(&e, "category"));
		event_string(&l, "name", t2_str(&e, "name"));
		event_int(&l, "count", t2_int(&e, "value"));
		break;
	default:
		break;
	}
	t2_mem(&l, "}\n", 2);
	return 0;
}

const struct ltt_dump_format ltt_fmt_event = {
	.name = "event",
	.summary = "app events as Git Trace2's event target writes them: JSON lines (--brief: time only on start and atexit)",
	.begin = event_begin,
	.event = event_event,
	.end = event_end,
};
