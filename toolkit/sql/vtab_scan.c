/* SPDX-License-Identifier: MIT */
/* The cursor of the event tables (sql.h): ltt_events (vtab_events.c) and the table of each event type
 * (vtab_types.c) both walk one scan of the trace set; what they share is here, what differs (the
 * columns, the type's own values) stays with each table. */
#include <string.h>

#include "toolkit/sql.h"

int sql_cursor_open(size_t size, sqlite3_vtab_cursor **out)
{
	struct sql_cursor *c = sqlite3_malloc64(size);

	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, size);
	c->scan.eof = 1;
	*out = &c->base;
	return SQLITE_OK;
}

int sql_cursor_filter(struct sql_cursor *c, struct sql_ctx *ctx, int idx_num, const char *idx_str, int argc,
		      sqlite3_value **argv, const char *facility, const char *event)
{
	struct sql_filter f;

	sql_scan_close(&c->scan);
	sql_filter_init(&f);
	sql_plan_filter(&f, idx_num, idx_str, argc, argv);
	if (facility) {
		f.facility = facility;
		f.event = event;
	}
	c->rowid = 0;
	/* a scan that cannot open its reader (too few descriptors: it opens a second reader) fails the
	 * statement: never an empty table with exit 0 */
	if (sql_scan_open(ctx, &c->scan, &f) < 0)
		return SQLITE_ERROR;
	return SQLITE_OK;
}

int sql_cursor_next(sqlite3_vtab_cursor *cur)
{
	struct sql_cursor *c = (struct sql_cursor *)cur;

	c->rowid++;
	sql_scan_next(&c->scan);	/* an I/O error was reported; the rows so far stand */
	return SQLITE_OK;
}

int sql_cursor_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct sql_cursor *)cur)->scan.eof;
}

int sql_cursor_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct sql_cursor *)cur)->rowid;
	return SQLITE_OK;
}

void *sql_vtab_declare(sqlite3 *db, const char *decl, size_t size, int *rc)
{
	void *t;

	*rc = sqlite3_declare_vtab(db, decl);
	if (*rc != SQLITE_OK)
		return NULL;
	sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
	t = sqlite3_malloc64(size);
	if (!t) {
		*rc = SQLITE_NOMEM;
		return NULL;
	}
	memset(t, 0, size);
	return t;
}

int sql_vtab_disconnect(sqlite3_vtab *vt)
{
	sqlite3_free(vt);
	return SQLITE_OK;
}
