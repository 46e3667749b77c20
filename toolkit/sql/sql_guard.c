/* SPDX-License-Identifier: MIT */
/* What no statement of an SQL session may do (toolkit/sql_guard.h). The statements of `ltt sql`, `ltt
 * export --format=rows` and Python's Trace.sql() come from scripts, notebooks and other people: they
 * may read the traces and anything the user may read, never run code or reach memory outside what
 * SQLite hands them. The review of SQLite 3.40's features (Debian 12's build: FTS3 with
 * ENABLE_FTS3_TOKENIZER, FTS4, FTS5, RTREE, DBSTAT_VTAB, STMTVTAB, LOAD_EXTENSION, MATH_FUNCTIONS,
 * USE_URI; `PRAGMA compile_options` lists them) that reach memory, code or files:
 *
 * Refused in every session (the authorizer says "not authorized: ..." naming it):
 *   - fts3_tokenizer(): with one argument it returns the address of a tokenizer (a table of code
 *     pointers: the library's place in memory), with two it installs a blob as such a table, whose
 *     pointers the next fts3 table calls: a query that runs code. SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER
 *     is 0 too (SQLite still takes a bound second argument then; the authorizer refuses the name).
 *   - load_extension(): loads a shared object. SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION is 0 (SQLite's
 *     default, set anyway) and the name is refused.
 *   - PRAGMA with a value of the settings that are the whole process's, not the session's:
 *     temp_store_directory and data_store_directory (where SQLite creates files, for every connection
 *     of the process: Python's sqlite3 module shares the library), soft_heap_limit, hard_heap_limit;
 *     and trusted_schema (below).
 * Turned off by settings:
 *   - SQLITE_DBCONFIG_DEFENSIVE: PRAGMA writable_schema, schema_version = N, journal_mode = OFF and
 *     writes to the shadow tables of fts3/fts4/fts5/rtree tables do nothing or fail; each lets a
 *     statement make a database whose pages later decode out of bounds.
 *   - SQLITE_DBCONFIG_TRUSTED_SCHEMA 0: the views, triggers and defaults of an attached file (written
 *     by anyone) call only functions marked innocuous, and use no virtual table but those.
 *   - PRAGMA cell_size_check = ON: a damaged page of an attached file is an error, not a read past it.
 * Safe, allowed:
 *   - fts3, fts4, fts5, rtree and rtree_i32 tables in the session's memory: their tokenizers
 *     are the built-in ones (fts5() hands its API out only to bound typed pointers,
 *     sqlite3_bind_pointer, never from SQL); their shadow tables are read-only (DEFENSIVE).
 *   - dbstat, sqlite_stmt, json_each/json_tree and the pragma table-valued functions: they read.
 *   - ltt's own modules (ltt_events, ltt_rows, ltt_type) and functions (percentile...): they only
 *     read the traces, so they are marked innocuous (the user's views may use them); a user's CREATE
 *     VIRTUAL TABLE of them gets its arguments checked (ltt_type's index against the catalog).
 *   - ATTACH: files are opened with the user's own rights; `ltt sql` without --save also refuses what
 *     would create or change one (tools/sql/sql_readonly.c). sqlite_dbpage is not in Debian's build
 *     (its writes would be refused by DEFENSIVE).
 *   - zeroblob(), randomblob(), printf() widths, recursive CTEs: bounded by SQLITE_LIMIT_LENGTH (1e9
 *     bytes) or unbounded in time; they spend the memory and time of the query author's own process
 *     (out of scope: doc/security.md). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "toolkit/cmd.h"
#include "toolkit/sql.h"
#include "toolkit/sql_guard.h"

int sql_guard_deny(struct sql_ctx *ctx, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ctx->refused[0])	/* the first refusal of the statement is the one said */
		return SQLITE_DENY;
	n = snprintf(ctx->refused, sizeof(ctx->refused), "not authorized: ");
	va_start(ap, fmt);
	vsnprintf(ctx->refused + n, sizeof(ctx->refused) - (size_t)n, fmt, ap);
	va_end(ap);
	return SQLITE_DENY;
}

const char *sql_guard_errmsg(struct sql_ctx *ctx)
{
	const char *msg = sqlite3_errmsg(ctx->db);

	/* SQLITE_AUTH, or SQLITE_ERROR "not authorized to use function: NAME" */
	if (!ctx->refused[0] || (sqlite3_errcode(ctx->db) != SQLITE_AUTH && strncmp(msg, "not authorized", 14))) {
		ctx->refused[0] = 0;
		return msg;
	}
	memcpy(ctx->refused_msg, ctx->refused, sizeof(ctx->refused_msg));
	ctx->refused[0] = 0;
	return ctx->refused_msg;
}

static int function_refused(struct sql_ctx *ctx, const char *name)
{
	if (!name)
		return SQLITE_OK;
	if (!strcasecmp(name, "fts3_tokenizer"))
		return sql_guard_deny(ctx, "fts3_tokenizer(): it hands out and installs code pointers "
				      "(doc/security.md)");
	if (!strcasecmp(name, "load_extension"))
		return sql_guard_deny(ctx, "load_extension(): it runs a library's code (doc/security.md)");
	return SQLITE_OK;
}

static int pragma_refused(struct sql_ctx *ctx, const char *name, const char *value)
{
	static const char *const process_wide[] = { "temp_store_directory", "data_store_directory",
						    "soft_heap_limit", "hard_heap_limit" };

	if (!name || !value)
		return SQLITE_OK;
	for (size_t i = 0; i < sizeof(process_wide) / sizeof(*process_wide); i++)
		if (!strcasecmp(name, process_wide[i]))
			return sql_guard_deny(ctx, "PRAGMA %s = ...: it changes every SQLite connection of the "
					      "process (doc/security.md)", process_wide[i]);
	if (!strcasecmp(name, "trusted_schema"))
		return sql_guard_deny(ctx, "PRAGMA trusted_schema = ...: attached files' schemas stay untrusted "
				      "(doc/security.md)");
	return SQLITE_OK;
}

static int authorize(void *arg, int action, const char *a, const char *b, const char *db, const char *trig)
{
	struct sql_ctx *ctx = arg;
	int rc = SQLITE_OK;

	(void)trig;
	if (action == SQLITE_FUNCTION)		/* a: NULL, b: the function's name */
		rc = function_refused(ctx, b);
	else if (action == SQLITE_PRAGMA)	/* a: the pragma, b: its value or NULL */
		rc = pragma_refused(ctx, a, b);
	if (rc == SQLITE_OK && ctx->extra)
		rc = ctx->extra(ctx, action, a, b, db);
	return rc;
}

int sql_guard_init(struct sql_ctx *ctx)
{
	static const struct {
		int op, value;
		const char *name;
	} cfg[] = {
		{ SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, "SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER" },
		{ SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, "SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION" },
		{ SQLITE_DBCONFIG_DEFENSIVE, 1, "SQLITE_DBCONFIG_DEFENSIVE" },
		{ SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, "SQLITE_DBCONFIG_TRUSTED_SCHEMA" },
	};

	for (size_t i = 0; i < sizeof(cfg) / sizeof(*cfg); i++) {
		int now = -1;

		/* read back: an SQLite that does not know the option leaves now alone */
		if (sqlite3_db_config(ctx->db, cfg[i].op, cfg[i].value, &now) != SQLITE_OK || now != cfg[i].value) {
			ltt_tool_error(ctx->tool.cmd, "SQLite %s cannot set %s (SQLite 3.31 or later needed)",
				       sqlite3_libversion(), cfg[i].name);
			return -1;
		}
	}
	return sql_exec(ctx->db, ctx->tool.cmd, "PRAGMA cell_size_check = ON") == SQLITE_OK ? 0 : -1;
}

void sql_guard_set(struct sql_ctx *ctx)
{
	ctx->refused[0] = 0;
	sqlite3_set_authorizer(ctx->db, authorize, ctx);
}
