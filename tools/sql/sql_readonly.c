/* SPDX-License-Identifier: MIT */
/* The read-only authorizer of `ltt sql` without --save (sql_readonly.h). The session's own database
 * ("main") and "temp" live in memory: anything may be done there (scratch tables, views). What
 * reaches a file is refused ("not authorized"), the codes as SQLite 3.40's sqlite3.h numbers them:
 *   - SQLITE_ATTACH of anything but an existing regular file or ":memory:": ATTACH 'new.db' and
 *     VACUUM INTO 'new.db' (which attaches its output) would create the file; a "file:" URI could
 *     name any mode; plain VACUUM (it attaches '') is refused with them;
 *   - on an attached database (not main, not temp): INSERT, UPDATE, DELETE, CREATE and DROP of
 *     tables, indexes, views, triggers and virtual tables, ALTER TABLE, REINDEX, ANALYZE;
 *   - PRAGMA with a value (PRAGMA s.user_version = 3, journal_mode = WAL...) but the ones whose
 *     argument only names what to read (table_info...), and the pragmas that write without one
 *     (optimize, incremental_vacuum, wal_checkpoint).
 * What no session may do (fts3_tokenizer, load_extension...) is refused before these rules
 * (toolkit/sql/sql_guard.c).
 * Allowed: SELECT and reads of every database, functions,
 * json_each and the other table-valued functions (their first use declares them in main: an UPDATE of
 * main's sqlite_master), transactions, savepoints, DETACH. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "toolkit/sql_guard.h"
#include "sql_readonly.h"

static int deny(struct sql_ctx *ctx, const char *what, const char *name, const char *db)
{
	return sql_guard_deny(ctx, "%s%s%.200s%s%s%.100s: ltt sql only reads (--save FILE writes a database; "
			      "doc/cli.md \"ltt sql\")", what, name ? " " : "", name ? name : "", db ? " of " : "",
			      db ? "database " : "", db ? db : "");
}

static int in_memory(const char *db)
{
	return !db || !strcmp(db, "main") || !strcmp(db, "temp");
}

static int attach_allowed(const char *file)
{
	struct stat st;

	if (!file)
		return 0;
	if (!strcmp(file, ":memory:"))
		return 1;
	return *file && strncmp(file, "file:", 5) && !stat(file, &st) && S_ISREG(st.st_mode);
}

static int pragma_allowed(const char *name, const char *arg)
{
	static const char *const read_with_arg[] = { "table_info", "table_xinfo", "table_list", "index_list",
						     "index_info", "index_xinfo", "foreign_key_list" };
	static const char *const write_without[] = { "optimize", "incremental_vacuum", "wal_checkpoint" };

	if (!name)
		return 0;
	for (size_t i = 0; i < sizeof(write_without) / sizeof(*write_without); i++)
		if (!strcmp(name, write_without[i]))
			return 0;
	if (!arg)
		return 1;
	for (size_t i = 0; i < sizeof(read_with_arg) / sizeof(*read_with_arg); i++)
		if (!strcmp(name, read_with_arg[i]))
			return 1;
	return 0;
}

static int read_only(struct sql_ctx *ctx, int action, const char *a, const char *b, const char *db)
{
	switch (action) {
	case SQLITE_ATTACH:	/* VACUUM attaches its output ('' for a plain VACUUM) */
		return attach_allowed(a) ? SQLITE_OK : deny(ctx, "ATTACH or VACUUM of a file that is not an existing "
							    "database:", a && *a ? a : "''", NULL);
	case SQLITE_PRAGMA:
		return pragma_allowed(a, b) ? SQLITE_OK : deny(ctx, "PRAGMA", a, db);
	case SQLITE_ALTER_TABLE:	/* a: the database */
		return in_memory(a) ? SQLITE_OK : deny(ctx, "ALTER TABLE", b, a);
	case SQLITE_INSERT:
	case SQLITE_UPDATE:
	case SQLITE_DELETE:
	case SQLITE_CREATE_INDEX:
	case SQLITE_CREATE_TABLE:
	case SQLITE_CREATE_TRIGGER:
	case SQLITE_CREATE_VIEW:
	case SQLITE_CREATE_VTABLE:
	case SQLITE_DROP_INDEX:
	case SQLITE_DROP_TABLE:
	case SQLITE_DROP_TRIGGER:
	case SQLITE_DROP_VIEW:
	case SQLITE_DROP_VTABLE:
	case SQLITE_REINDEX:
	case SQLITE_ANALYZE:
		return in_memory(db) ? SQLITE_OK : deny(ctx, "a change of", a, db);
	default:	/* SELECT, READ, FUNCTION, RECURSIVE, TRANSACTION, SAVEPOINT, DETACH, the temp forms */
		return SQLITE_OK;
	}
}

void sql_readonly_set(struct sql_ctx *ctx)
{
	ctx->extra = read_only;	/* after the guard's own refusals (toolkit/sql/sql_guard.c) */
}
