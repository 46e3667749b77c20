/* SPDX-License-Identifier: MIT */
/* The small tables of `ltt sql` (regions, threads, processes, lost, traces): computed by one pass
 * over the trace set the first time a statement reads them, then kept in memory for the session. A
 * table with stream functions (regions, as long as the trace) is read one row at a time by each scan
 * instead, and filled only when a statement reads it again while reading it (a self-join, a
 * correlated subquery: SQLite rescans the inner table once per outer row). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "toolkit/sql_rows.h"

static int rows_grow(struct sql_rows *t)
{
	if (LTT_GROW(t->cells, (t->n + 1) * t->ncols, t->cap))
		return -ENOMEM;
	memset(t->cells + t->n * t->ncols, 0, t->ncols * sizeof(*t->cells));
	t->n++;
	return 0;
}

struct sql_cell *sql_rows_add(struct sql_rows *t)
{
	if (rows_grow(t))
		return NULL;
	return t->cells + (t->n - 1) * t->ncols;
}

int sql_cell_text(struct sql_cell *c, const char *s)
{
	c->type = SQLITE_TEXT;
	c->s = strdup(s ? s : "");
	return c->s ? 0 : -ENOMEM;
}

void sql_cell_ref(struct sql_cell *c, const char *s)
{
	c->type = SQLITE_TEXT;
	c->s = (char *)(s ? s : "");	/* never freed: ref */
	c->ref = 1;
}

void sql_cell_int(struct sql_cell *c, int64_t v)
{
	c->type = SQLITE_INTEGER;
	c->i = v;
}

void sql_cells_clear(struct sql_cell *c, unsigned n)
{
	for (unsigned k = 0; k < n; k++) {
		if (!c[k].ref)
			free(c[k].s);
		c[k] = (struct sql_cell){ 0 };
	}
}

static void rows_free(struct sql_rows *t)
{
	for (size_t k = 0; k < t->n * t->ncols; k++)
		free(t->cells[k].s);
	free(t->cells);
	t->cells = NULL;
	t->n = t->cap = 0;
}

/* ---- the virtual table ------------------------------------------------------------------------ */

struct rows_vtab {
	sqlite3_vtab base;
	struct sql_ctx *ctx;
	struct sql_rows rows;
	const struct sql_rows_def *def;
	int filled;
	unsigned streams;	/* cursors streaming the table now */
};

struct rows_cursor {
	sqlite3_vtab_cursor base;
	size_t row;
	int filtered;		/* xFilter was called before: a rescan */
	int streaming, eof;	/* rows from stream, the current one in cells */
	void *stream;
	struct sql_cell *cells;
};

static int rows_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
			char **err)
{
	struct sql_ctx *ctx = aux;
	const struct sql_rows_def *def = NULL;
	struct rows_vtab *t;
	int rc;

	for (size_t i = 0; argc >= 3 && sql_rows_defs[i].name; i++)
		if (!strcmp(sql_rows_defs[i].name, argv[2]))
			def = &sql_rows_defs[i];
	if (!def) {
		*err = sqlite3_mprintf("ltt_rows: no such table");
		return SQLITE_ERROR;
	}
	if (!(t = sql_vtab_declare(db, def->decl, sizeof(*t), &rc)))
		return rc;
	t->ctx = ctx;
	t->def = def;
	t->rows.ncols = def->ncols;
	*out = &t->base;
	return SQLITE_OK;
}

static int rows_disconnect(sqlite3_vtab *vt)
{
	struct rows_vtab *t = (struct rows_vtab *)vt;

	rows_free(&t->rows);
	sqlite3_free(t);
	return SQLITE_OK;
}

/* idxNum bits of the constraints a stream takes (struct sql_push), in the order of xFilter's argv */
enum { PUSH_TID = 1, PUSH_GE = 2, PUSH_GT = 4, PUSH_LE = 8, PUSH_LT = 16, PUSH_EQ = 32 };

/* A streamed table with pushable columns (tables.c's PUSHED: thread_states, syscalls, calls) takes an
 * equality on its tid column and bounds on ts_ns: the stream leaves out the other rows (and, for calls,
 * the other threads' events). SQLite still checks every constraint (omit stays 0): the rows are the
 * same, only fewer are made. One constraint of each kind; the others are SQLite's alone. */
static int rows_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	struct rows_vtab *t = (struct rows_vtab *)vt;
	const struct sql_rows_def *d = t->def;
	int n = 0, bits = 0, narrowed = 0;
	static const struct { unsigned char op; int bit; } ts_ops[] = {
		{ SQLITE_INDEX_CONSTRAINT_GE, PUSH_GE }, { SQLITE_INDEX_CONSTRAINT_GT, PUSH_GT },
		{ SQLITE_INDEX_CONSTRAINT_LE, PUSH_LE }, { SQLITE_INDEX_CONSTRAINT_LT, PUSH_LT },
		{ SQLITE_INDEX_CONSTRAINT_EQ, PUSH_EQ },
	};

	info->estimatedCost = t->filled ? (double)t->rows.n + 1 : 1e5;
	if (!d->open || t->filled || (!d->tid_col && !d->ts_push))
		return SQLITE_OK;
	/* argv order: tid, then the ts_ns bounds in ts_ops' order */
	for (int pass = 0; pass < 6; pass++)
		for (int i = 0; i < info->nConstraint; i++) {
			const struct sqlite3_index_constraint *c = &info->aConstraint[i];
			int bit = 0;

			if (!c->usable || info->aConstraintUsage[i].argvIndex)
				continue;
			if (pass == 0 && d->tid_col && c->iColumn == (int)d->tid_col && c->op == SQLITE_INDEX_CONSTRAINT_EQ)
				bit = PUSH_TID;
			else if (pass > 0 && d->ts_push && c->iColumn == 0 && c->op == ts_ops[pass - 1].op)
				bit = ts_ops[pass - 1].bit;
			if (!bit || (bits & bit))
				continue;
			bits |= bit;
			info->aConstraintUsage[i].argvIndex = ++n;
			narrowed += bit == PUSH_TID ? 2 : 1;
		}
	info->idxNum = bits;
	if (narrowed)	/* fewer rows to make: preferred to a plan that reads them all */
		info->estimatedCost = 1e5 / (1 + narrowed * 4);
	return SQLITE_OK;
}

/* struct sql_push from xFilter's idxNum and argv (rows_best_index's order). 0 when no row can match
 * (a NULL or non-integer bound: the stream is not even opened). */
static int push_of(int bits, int argc, sqlite3_value **argv, struct sql_push *p)
{
	static const int order[] = { PUSH_TID, PUSH_GE, PUSH_GT, PUSH_LE, PUSH_LT, PUSH_EQ };
	int k = 0;

	*p = (struct sql_push){ 0, 0, INT64_MIN, INT64_MAX };
	for (unsigned j = 0; j < sizeof(order) / sizeof(order[0]); j++) {
		sqlite3_value *v;
		sqlite3_int64 x;

		if (!(bits & order[j]))
			continue;
		if (k >= argc)
			return 1;
		v = argv[k++];
		if (sqlite3_value_type(v) != SQLITE_INTEGER) {
			/* a float bound, text: left to SQLite (the stream gives every row); NULL matches none */
			if (sqlite3_value_type(v) == SQLITE_NULL)
				return 0;
			continue;
		}
		x = sqlite3_value_int64(v);
		switch (order[j]) {
		case PUSH_TID: p->has_tid = 1; p->tid = x; break;
		case PUSH_GE: if (x > p->ts_min) p->ts_min = x; break;
		case PUSH_GT: if (x == INT64_MAX) return 0; if (x + 1 > p->ts_min) p->ts_min = x + 1; break;
		case PUSH_LE: if (x < p->ts_max) p->ts_max = x; break;
		case PUSH_LT: if (x == INT64_MIN) return 0; if (x - 1 < p->ts_max) p->ts_max = x - 1; break;
		case PUSH_EQ: if (x > p->ts_min) p->ts_min = x; if (x < p->ts_max) p->ts_max = x; break;
		}
	}
	return p->ts_min <= p->ts_max;
}

static int rows_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct rows_cursor *c = sqlite3_malloc(sizeof(*c));

	(void)vt;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	*out = &c->base;
	return SQLITE_OK;
}

static void stream_stop(struct rows_vtab *t, struct rows_cursor *c)
{
	if (!c->stream)
		return;
	t->def->close(c->stream);
	c->stream = NULL;
	t->streams--;
}

/* The next row of the stream into c->cells (c->eof at the end). */
static int stream_next(struct rows_vtab *t, struct rows_cursor *c)
{
	int rc;

	sql_cells_clear(c->cells, t->def->ncols);
	rc = t->def->next(c->stream, c->cells);
	if (rc == 1) {
		c->row++;
		return SQLITE_OK;
	}
	stream_stop(t, c);
	c->eof = 1;
	return rc == -ENOMEM ? SQLITE_NOMEM : SQLITE_OK;	/* a read error was reported: the rows so far stand */
}

static int stream_start(struct rows_vtab *t, struct rows_cursor *c, const struct sql_push *push)
{
	int rc;

	if (!c->cells && !(c->cells = calloc(t->def->ncols, sizeof(*c->cells))))
		return SQLITE_NOMEM;
	c->streaming = 1;
	c->eof = 0;
	rc = t->def->open(t->ctx, &c->stream, push);
	if (c->stream)
		t->streams++;
	if (rc < 0) {
		stream_stop(t, c);
		c->eof = 1;
		/* a reader that cannot open (too few descriptors) fails the statement, as event tables do */
		return rc == -ENOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
	}
	return stream_next(t, c);
}

static int rows_close(sqlite3_vtab_cursor *cur)
{
	struct rows_cursor *c = (struct rows_cursor *)cur;

	stream_stop((struct rows_vtab *)cur->pVtab, c);
	if (c->cells)
		sql_cells_clear(c->cells, ((struct rows_vtab *)cur->pVtab)->def->ncols);
	free(c->cells);
	sqlite3_free(cur);
	return SQLITE_OK;
}

static int rows_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc, sqlite3_value **argv)
{
	struct rows_vtab *t = (struct rows_vtab *)cur->pVtab;
	struct rows_cursor *c = (struct rows_cursor *)cur;
	int rc, rescan = c->filtered;
	struct sql_push push;

	(void)idx_str;
	stream_stop(t, c);
	c->row = 0;
	c->streaming = 0;
	c->filtered = 1;
	if (t->def->open && !t->filled && !rescan && !t->streams) {
		if (!push_of(idx_num, argc, argv, &push)) {	/* nothing can match: an empty scan */
			c->streaming = 1;
			c->eof = 1;
			return SQLITE_OK;
		}
		return stream_start(t, c, &push);
	}
	if (!t->filled) {
		rc = t->def->fill(t->ctx, &t->rows);
		if (rc == -ENOMEM || rc == -EMFILE || rc == -ENFILE) {
			/* a reader that cannot open (too few descriptors, said) fails the statement: never
			 * an empty table with exit 0 */
			rows_free(&t->rows);
			return rc == -ENOMEM ? SQLITE_NOMEM : SQLITE_ERROR;
		}
		t->filled = 1;	/* a read error was reported: the rows read stand */
	}
	return SQLITE_OK;
}

static int rows_next(sqlite3_vtab_cursor *cur)
{
	struct rows_cursor *c = (struct rows_cursor *)cur;

	if (c->streaming)
		return c->eof ? SQLITE_OK : stream_next((struct rows_vtab *)cur->pVtab, c);
	c->row++;
	return SQLITE_OK;
}

static int rows_eof(sqlite3_vtab_cursor *cur)
{
	struct rows_vtab *t = (struct rows_vtab *)cur->pVtab;
	struct rows_cursor *rc = (struct rows_cursor *)cur;

	return rc->streaming ? rc->eof : rc->row >= t->rows.n;
}

static int rows_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct rows_vtab *t = (struct rows_vtab *)cur->pVtab;
	struct rows_cursor *rc = (struct rows_cursor *)cur;
	const struct sql_cell *c = rc->streaming ? &rc->cells[col] : &t->rows.cells[rc->row * t->rows.ncols + (size_t)col];

	switch (c->type) {
	case SQLITE_INTEGER:
		sqlite3_result_int64(ctx, c->i);
		break;
	case SQLITE_TEXT:
		/* a streamed row is replaced at the next one: SQLite copies it */
		sqlite3_result_text(ctx, c->s, -1, rc->streaming ? SQLITE_TRANSIENT : SQLITE_STATIC);
		break;
	default:
		break;
	}
	return SQLITE_OK;
}

static int rows_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	struct rows_cursor *c = (struct rows_cursor *)cur;

	*rowid = (sqlite3_int64)c->row + !c->streaming;	/* streaming, row counts the rows given */
	return SQLITE_OK;
}

static const sqlite3_module rows_module = SQL_MODULE(rows_connect, rows_best_index, rows_disconnect, rows_open,
						     rows_close, rows_filter, rows_next, rows_eof, rows_column,
						     rows_rowid);

int sql_rows_register(struct sql_ctx *ctx)
{
	return sqlite3_create_module(ctx->db, "ltt_rows", &rows_module, ctx);
}
