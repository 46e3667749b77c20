/* SPDX-License-Identifier: MIT */
/* The `events` table of `ltt sql`: every event of the trace set (builtin ones left out, as in
 * `ltt dump`), fields as one JSON object:
 *   events(ts_ns, trace, tracefile, cpu, tid, facility, event, fields) */
#include <stdlib.h>
#include <string.h>

#include "toolkit/sql.h"

enum { COL_FACILITY = SQL_COL_NFIXED, COL_EVENT, COL_FIELDS };

const char sql_events_decl[] =
	"CREATE TABLE events(ts_ns INTEGER, trace TEXT, tracefile TEXT, cpu INTEGER, tid INTEGER, "
	"facility TEXT, event TEXT, fields TEXT)";

struct ev_vtab {
	sqlite3_vtab base;
	struct sql_ctx *ctx;
};

static int ev_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err)
{
	struct ev_vtab *t;
	int rc;

	(void)argc;
	(void)argv;
	(void)err;
	if (!(t = sql_vtab_declare(db, sql_events_decl, sizeof(*t), &rc)))
		return rc;
	t->ctx = aux;
	*out = &t->base;
	return SQLITE_OK;
}

static int ev_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	(void)vt;
	return sql_plan_best_index(info, COL_FACILITY, COL_EVENT);
}

static int ev_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	(void)vt;
	return sql_cursor_open(sizeof(struct sql_cursor), out);
}

static int ev_close(sqlite3_vtab_cursor *cur)
{
	struct sql_cursor *c = (struct sql_cursor *)cur;

	sql_scan_close(&c->scan);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int ev_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc, sqlite3_value **argv)
{
	struct ev_vtab *t = (struct ev_vtab *)cur->pVtab;

	return sql_cursor_filter((struct sql_cursor *)cur, t->ctx, idx_num, idx_str, argc, argv, NULL, NULL);
}

/* The columns every event table starts with (shared with vtab_types.c). */
void sql_fixed_column(sqlite3_context *ctx, struct sql_ctx *sc, const struct ltt_event *ev, int col)
{
	int64_t tid;

	switch (col) {
	case SQL_COL_TS:
		sqlite3_result_int64(ctx, (sqlite3_int64)ev->time_ns);
		break;
	case SQL_COL_TRACE:
		sqlite3_result_text(ctx, sc->names[ev->trace->index], -1, SQLITE_STATIC);
		break;
	case SQL_COL_TRACEFILE:
		sqlite3_result_text(ctx, ev->tracefile->name, -1, SQLITE_TRANSIENT);
		break;
	case SQL_COL_CPU:
		if (ev->tracefile->cpu >= 0)
			sqlite3_result_int(ctx, ev->tracefile->cpu);
		break;
	case SQL_COL_TID:
		if (sql_event_tid(ev, &tid))
			sqlite3_result_int64(ctx, tid);
		break;
	default:
		break;
	}
}

static int ev_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct sql_cursor *c = (struct sql_cursor *)cur;
	struct ev_vtab *t = (struct ev_vtab *)cur->pVtab;
	const struct ltt_event *ev = &c->scan.ev;
	const struct ltt_event_type *ty = ev->type;
	struct json_plan *plan;
	const char *s;
	size_t n;

	switch (col) {
	case COL_FACILITY:
		sqlite3_result_text(ctx, ty->facility, -1, SQLITE_TRANSIENT);
		break;
	case COL_EVENT:
		sqlite3_result_text(ctx, ty->name, -1, SQLITE_TRANSIENT);
		break;
	case COL_FIELDS:
		plan = *ty->user;
		s = sql_json_fields(ev, &plan, &n);
		*ty->user = plan;
		if (!s)
			return SQLITE_NOMEM;
		sqlite3_result_text(ctx, s, (int)n, SQLITE_TRANSIENT);
		break;
	default:
		sql_fixed_column(ctx, t->ctx, ev, col);
	}
	return SQLITE_OK;
}

static const sqlite3_module ev_module = SQL_MODULE(ev_connect, ev_best_index, sql_vtab_disconnect, ev_open, ev_close,
						   ev_filter, sql_cursor_next, sql_cursor_eof, ev_column,
						   sql_cursor_rowid);

int sql_events_register(struct sql_ctx *ctx)
{
	return sqlite3_create_module(ctx->db, "ltt_events", &ev_module, ctx);
}
