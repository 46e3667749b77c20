/* SPDX-License-Identifier: MIT */
/* A session of the SQL tables (sql.h): the SQLite database and its virtual tables over a catalog,
 * shared by `ltt sql` and the Python module's Trace.sql(). */
#include <stdlib.h>

#include "toolkit/cmd.h"
#include "toolkit/sql.h"
#include "toolkit/sql_guard.h"
#include "toolkit/sql_rows.h"

int sql_exec(sqlite3 *db, const char *cmd, const char *sql)
{
	char *err = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &err);

	if (rc != SQLITE_OK)
		ltt_tool_error(cmd, "%s", err ? err : sqlite3_errstr(rc));
	sqlite3_free(err);
	return rc;
}

static int create_tables(struct sql_ctx *ctx)
{
	const char *decl;
	char *q;
	int rc;

	if (sql_events_register(ctx) || sql_types_register(ctx) || sql_rows_register(ctx))
		return -1;
	if (sql_exec(ctx->db, ctx->tool.cmd, "CREATE VIRTUAL TABLE events USING ltt_events"))
		return -1;
	for (unsigned i = 0; sql_rows_defs[i].name; i++) {
		q = sqlite3_mprintf("CREATE VIRTUAL TABLE %s USING ltt_rows", sql_rows_defs[i].name);
		rc = q ? sql_exec(ctx->db, ctx->tool.cmd, q) : SQLITE_NOMEM;
		sqlite3_free(q);
		if (rc)
			return -1;
	}
	for (unsigned i = 0; i < ctx->ntypes; i++) {
		q = sqlite3_mprintf("CREATE VIRTUAL TABLE \"%w\" USING ltt_type(%u)", sql_type_table(ctx, i, &decl), i);
		rc = q ? sql_exec(ctx->db, ctx->tool.cmd, q) : SQLITE_NOMEM;
		sqlite3_free(q);
		if (rc)
			return -1;
	}
	return 0;
}

int sql_session_init(struct sql_ctx *ctx)
{
	ctx->ntraces = ltt_reader_ntraces(ctx->catalog);
	ctx->dirs = calloc(ctx->ntraces + 1, sizeof(*ctx->dirs));
	ctx->names = calloc(ctx->ntraces + 1, sizeof(*ctx->names));
	ctx->hosts = calloc(ctx->ntraces + 1, sizeof(*ctx->hosts));
	if (!ctx->dirs || !ctx->names || !ctx->hosts)
		goto nomem;
	for (unsigned i = 0; i < ctx->ntraces; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->catalog, i);
		const char *host = ltt_trace_attr(t, "node_name");

		ctx->dirs[i] = t->dir;
		ctx->names[i] = t->path;
		ctx->hosts[i] = host ? host : "";
	}
	if (sql_types_build(ctx))
		goto nomem;
	if (sqlite3_open(":memory:", &ctx->db) != SQLITE_OK) {
		ltt_tool_error(ctx->tool.cmd, "cannot open SQLite: %s", ctx->db ? sqlite3_errmsg(ctx->db) : "out of memory");
		return -1;
	}
	if (sql_guard_init(ctx))	/* before anything is declared in the database */
		return -1;
	if (sql_aggregates_register(ctx->db) != SQLITE_OK) {
		ltt_tool_error(ctx->tool.cmd, "cannot add the percentile functions: %s", sqlite3_errmsg(ctx->db));
		return -1;
	}
	if (create_tables(ctx))
		return -1;
	sql_guard_set(ctx);	/* the statements from here on are the user's */
	return 0;
nomem:
	ltt_tool_error(ctx->tool.cmd, "out of memory");
	return -1;
}

void sql_session_free(struct sql_ctx *ctx)
{
	if (ctx->db)
		sqlite3_close(ctx->db);
	ctx->db = NULL;
	sql_types_free(ctx);
	sql_seen_forget(ctx);
	free(ctx->dirs);
	free(ctx->names);
	free(ctx->hosts);
	ctx->dirs = ctx->names = ctx->hosts = NULL;
	if (ctx->catalog)
		ltt_reader_close(ctx->catalog);
	ctx->catalog = NULL;
}
