/* SPDX-License-Identifier: MIT */
/* `ltt sql` (doc/cli.md): SQLite over a trace set, queried in place through virtual tables.
 *
 * The trace set is opened once (the catalog: its event types name the tables); every scan of a table
 * opens its own reader on the same directories (an archive is unpacked once, by the catalog) with the
 * scan's constraints turned into the reader's filters: the time range into ltt_reader_set_time_range
 * (block seeking), tracefile, cpu and trace into skipped tracefiles, facility and event into hidden
 * types. A problem of the traces is printed once however many scans meet it. */
#ifndef LTT_TOOLKIT_SQL_H
#define LTT_TOOLKIT_SQL_H

#include <stdint.h>

#include <sqlite3.h>

#include <ltt/reader.h>

#include "common/grow.h"
#include "common/hashmap.h"

#include "toolkit/json_fields.h"
#include "toolkit/reader_common.h"

LTT_MAP_DEFINE(sql_seen_set, const char *, char, ltt_hash_str, ltt_eq_str)

struct sql_ctx {
	sqlite3 *db;
	struct ltt_reader *catalog;	/* open for the whole session */
	unsigned ntraces;
	const char **dirs;		/* what scans open: the catalog's directories */
	const char **names;		/* the traces as given */
	const char **hosts;		/* node_name of system.xml ("" when absent) */
	struct reader_tool tool;	/* cmd names the command in messages; silent: problems are
					 * counted, not printed */
	struct sql_seen_set seen;	/* problems already printed (their text, owned) */
	/* --stats: what the scans of the current statement read */
	uint64_t blocks_read, blocks_total, events_read, scans;
	unsigned ntypes, captypes;
	struct sql_type *types;		/* the per-type tables (vtab_types.c) */
	/* When set, every problem (once, its trace named as given) also goes here (the Python
	 * module's Trace.problems). */
	void (*problem)(void *arg, const struct ltt_problem *p);
	void *problem_arg;
	/* The authorizer (toolkit/sql_guard.h): when set, more refusals than the guard's (ltt sql's
	 * read-only rules, tools/sql/sql_readonly.c); the first refusal of the current statement. */
	int (*extra)(struct sql_ctx *ctx, int action, const char *a, const char *b, const char *db);
	char refused[512];
	char refused_msg[512];
};

/* ---- the session (sql_session.c) --------------------------------------------------------------- */

/* Makes the session's database and tables over ctx->catalog (an open reader of the trace set; cmd
 * and silent set in ctx->tool): 0, or -1 (reported with ltt_tool_error). */
int sql_session_init(struct sql_ctx *ctx);
/* Frees what the session holds, the catalog included (set ctx->catalog to NULL to keep it). */
void sql_session_free(struct sql_ctx *ctx);
/* sqlite3_exec of a statement without rows; an error is reported as "ltt CMD: message". */
int sql_exec(sqlite3 *db, const char *cmd, const char *sql);
/* Adds percentile(X, P), median(X), p50(X), p90(X), p99(X) to db (sql_aggregates.c; the interpolation
 * is numpy's default, doc/cli.md). An SQLite result code. */
int sql_aggregates_register(sqlite3 *db);

/* ---- scans (sql_scan.c) ---------------------------------------------------------------------- */

/* What a scan lets through: the reader's filters. */
struct sql_filter {
	uint64_t from_ns, to_ns;	/* inclusive; 0 .. UINT64_MAX for all */
	const char *tracefile;		/* NULL for all */
	int cpu;			/* -2 for all, -1 for the control files */
	const char *facility, *event;	/* NULL for all */
	const char *trace_name;		/* the trace as given, NULL for all */
	int empty;			/* a constraint no row can meet: read nothing */
	unsigned flags;			/* LTT_READ_UNORDERED, LTT_READ_BUILTIN */
	/* Only these event types (by facility and name) when set; builtin ones need LTT_READ_BUILTIN. */
	int (*keep)(const struct ltt_event_type *ty, void *arg);
	void *keep_arg;
};

struct sql_scan {
	struct sql_ctx *ctx;
	struct ltt_reader *r;		/* NULL once at the end */
	struct ltt_event ev;		/* the current event (its type's user: the json_plan of
					 * sql_json_fields, freed with the scan) */
	int eof;
};

void sql_filter_init(struct sql_filter *f);
/* Opens a reader with the filter's constraints (*out NULL when the filter lets nothing through). 0,
 * or a negative errno (reported). */
int sql_reader_open(struct sql_ctx *ctx, const struct sql_filter *f, struct ltt_reader **out);
/* Closes it, adding what it read to ctx's statistics (NULL is allowed). */
void sql_reader_close(struct sql_ctx *ctx, struct ltt_reader *r);
/* Opens a reader with the filter's constraints and moves to the first event. 0, or a negative errno
 * (reported). */
int sql_scan_open(struct sql_ctx *ctx, struct sql_scan *s, const struct sql_filter *f);
/* Moves to the next event (s->eof at the end). 0 or a negative errno. */
int sql_scan_next(struct sql_scan *s);
/* Closes the reader, adding what it read to ctx's statistics. */
void sql_scan_close(struct sql_scan *s);

/* The problem callback of every reader of the session: prints each distinct problem once (counts it
 * when ctx->tool.silent). */
void sql_problem(void *arg, const struct ltt_problem *p);
/* Frees the problems remembered as printed (sql_scan.c). */
void sql_seen_forget(struct sql_ctx *ctx);

/* A value as JSON text into a thread-local buffer: returns it (NUL-terminated) and its length, or
 * NULL when it does not fit. */
const char *sql_json_value(const struct ltt_value *v, size_t *len);
/* The fields of ev as a JSON object, the same way; *plan as for json_fields. */
const char *sql_json_fields(const struct ltt_event *ev, struct json_plan **plan, size_t *len);

/* The tid of an event: its body's top-level "tid" integer field. 1 and *tid, or 0 when none. */
int sql_event_tid(const struct ltt_event *ev, int64_t *tid);

/* ---- index planning shared by the event tables (sql_plan.c) ----------------------------------- */

/* Column numbers of the columns every event table starts with. */
enum { SQL_COL_TS, SQL_COL_TRACE, SQL_COL_TRACEFILE, SQL_COL_CPU, SQL_COL_TID, SQL_COL_NFIXED };

/* xBestIndex for a table whose first SQL_COL_NFIXED columns are the above; facility_col and
 * event_col are the columns of facility and event names, or -1. */
int sql_plan_best_index(sqlite3_index_info *info, int facility_col, int event_col);
/* xFilter's half: the constraints of idxStr/argv into f. */
void sql_plan_filter(struct sql_filter *f, int idx_num, const char *idx_str, int argc, sqlite3_value **argv);

/* ---- tables ---------------------------------------------------------------------------------- */

/* A read-only virtual table's sqlite3_module (xCreate is xConnect, xDestroy is xDisconnect). */
#define SQL_MODULE(connect, best_index, disconnect, open, close, filter, next, eof, column, rowid) {	\
	.iVersion = 0, .xCreate = connect, .xConnect = connect, .xBestIndex = best_index,		\
	.xDisconnect = disconnect, .xDestroy = disconnect, .xOpen = open, .xClose = close,		\
	.xFilter = filter, .xNext = next, .xEof = eof, .xColumn = column, .xRowid = rowid }

/* The cursor of the event tables (vtab_scan.c): a table's own cursor starts with it. */
struct sql_cursor {
	sqlite3_vtab_cursor base;
	struct sql_scan scan;
	sqlite3_int64 rowid;
};

/* xOpen's half: a zeroed cursor of size bytes (the table's own, starting with struct sql_cursor). */
int sql_cursor_open(size_t size, sqlite3_vtab_cursor **out);
/* xFilter's half: (re)starts the scan with the statement's constraints, narrowed to one event type when
 * facility is not NULL. SQLite error codes. */
int sql_cursor_filter(struct sql_cursor *c, struct sql_ctx *ctx, int idx_num, const char *idx_str, int argc,
		      sqlite3_value **argv, const char *facility, const char *event);
int sql_cursor_next(sqlite3_vtab_cursor *cur);
int sql_cursor_eof(sqlite3_vtab_cursor *cur);
int sql_cursor_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid);
/* xConnect's half: declares the table (decl), marks it innocuous (it only reads the traces: usable in
 * the user's views with trusted_schema off, sql_guard.c) and returns its struct of size bytes, zeroed
 * (sqlite3_malloc'ed); NULL with *rc the SQLite error. */
void *sql_vtab_declare(sqlite3 *db, const char *decl, size_t size, int *rc);
/* xDisconnect of a table that owns nothing but its sqlite3_malloc'ed self. */
int sql_vtab_disconnect(sqlite3_vtab *vt);

/* The columns every event table starts with, for row ev (vtab_events.c). */
void sql_fixed_column(sqlite3_context *ctx, struct sql_ctx *sc, const struct ltt_event *ev, int col);
extern const char sql_events_decl[];	/* CREATE TABLE events(...) */

/* The modules: ltt_events (the events table), ltt_type(N) (the table of ctx->types[N]), ltt_rows (the
 * small tables of sql_rows.h, by table name). SQLite error codes. */
int sql_events_register(struct sql_ctx *ctx);
int sql_types_register(struct sql_ctx *ctx);
int sql_rows_register(struct sql_ctx *ctx);

/* The per-type tables of the catalog's event types (builtin ones left out): 0 or -ENOMEM. */
int sql_types_build(struct sql_ctx *ctx);
void sql_types_free(struct sql_ctx *ctx);
/* The name of per-type table i, and its declaration (CREATE TABLE x(...)) in *decl. */
const char *sql_type_table(const struct sql_ctx *ctx, unsigned i, const char **decl);

#endif
