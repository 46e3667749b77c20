/* SPDX-License-Identifier: MIT */
/* The small tables of `ltt sql` (regions, threads, processes, lost, traces) as rows in memory: filled
 * by one pass over the trace set, read by the ltt_rows virtual table (vtab_rows.c) and by
 * `ltt export --format=rows`. A table as long as the trace (regions) is also read one row at a time
 * (the stream functions of its definition), in the same order: memory bounded by the stream. */
#ifndef LTT_TOOLKIT_SQL_ROWS_H
#define LTT_TOOLKIT_SQL_ROWS_H

#include "toolkit/sql.h"

struct sql_cell {
	int type;		/* SQLITE_INTEGER, SQLITE_TEXT, 0 for NULL */
	int64_t i;
	char *s;
	int ref;		/* s is borrowed (a streamed row: valid until the stream's next call), not freed */
};

/* What a streamed table is asked for (xBestIndex/xFilter of the ltt_rows table): rows of one tid, rows
 * whose ts_ns is in [ts_min, ts_max]. The stream may leave out the others, or skip the events only they
 * need, as long as every row asked for comes out the same; SQLite checks the constraints again. */
struct sql_push {
	int has_tid;
	int64_t tid;
	int64_t ts_min, ts_max;	/* INT64_MIN, INT64_MAX: no bound */
};
/* Whether a row of this tid and ts_ns is asked for (push NULL: every row). */
static inline int sql_push_wants(const struct sql_push *p, int64_t tid, int64_t ts)
{
	return !p || ((!p->has_tid || p->tid == tid) && ts >= p->ts_min && ts <= p->ts_max);
}

struct sql_rows {
	unsigned ncols;
	size_t n, cap;		/* rows; cells allocated */
	struct sql_cell *cells;	/* n rows of ncols */
};

/* A new row of NULLs (NULL on ENOMEM). */
struct sql_cell *sql_rows_add(struct sql_rows *t);
int sql_cell_text(struct sql_cell *c, const char *s);
/* A text cell that borrows s (streamed rows: no copy; s must stay valid until the stream moves on). */
void sql_cell_ref(struct sql_cell *c, const char *s);
void sql_cell_int(struct sql_cell *c, int64_t v);

struct sql_rows_def {
	const char *name;
	const char *decl;		/* CREATE TABLE name(col TYPE, ...) */
	unsigned ncols;
	const char *const *cols;	/* column names */
	const char *const *types;	/* INTEGER or TEXT, by column */
	/* Fills rows (ncols set): 0, -ENOMEM, or a reader error (reported; the rows read stand). */
	int (*fill)(struct sql_ctx *ctx, struct sql_rows *rows);
	/* Optional, the same rows streamed: open (0, or a negative errno: reported; *stream is to be
	 * closed either way, NULL allowed), next fills the
	 * ncols cells of row (NULLs on entry; the caller frees the text): 1, 0 at the end, -ENOMEM, or a
	 * reader error (reported; the rows so far stand), close. The ltt_rows table streams a scan, and
	 * fills only when a statement reads the table again while reading it (a self-join). */
	int (*open)(struct sql_ctx *ctx, void **stream, const struct sql_push *push);
	int (*next)(void *stream, struct sql_cell *row);
	void (*close)(void *stream);
	/* The columns a stream takes constraints on (struct sql_push): tid_col the tid's (0: none), and
	 * ts_ns (column 0) ranges when ts_push. */
	unsigned tid_col;
	int ts_push;
};

/* Frees the text of n cells and makes them NULL. */
void sql_cells_clear(struct sql_cell *c, unsigned n);

/* Every such table, NULL-terminated (tables.c). */
extern const struct sql_rows_def sql_rows_defs[];

int sql_fill_regions(struct sql_ctx *ctx, struct sql_rows *rows);
int sql_regions_open(struct sql_ctx *ctx, void **stream, const struct sql_push *push);
int sql_regions_next(void *stream, struct sql_cell *row);
void sql_regions_close(void *stream);
int sql_fill_threads(struct sql_ctx *ctx, struct sql_rows *rows);
int sql_fill_processes(struct sql_ctx *ctx, struct sql_rows *rows);
int sql_fill_lost(struct sql_ctx *ctx, struct sql_rows *rows);
int sql_fill_traces(struct sql_ctx *ctx, struct sql_rows *rows);
int sql_fill_thread_states(struct sql_ctx *ctx, struct sql_rows *rows);
int sql_fill_syscalls(struct sql_ctx *ctx, struct sql_rows *rows);
int sql_fill_calls(struct sql_ctx *ctx, struct sql_rows *rows);
/* io: the read and write system calls (toolkit/sql/tables_io.c), filled or streamed as thread_states */
int sql_fill_io(struct sql_ctx *ctx, struct sql_rows *rows);
int sql_io_open(struct sql_ctx *ctx, void **stream, const struct sql_push *push);
int sql_io_next(void *stream, struct sql_cell *row);
void sql_io_close(void *stream);
/* thread_states, syscalls and calls streamed (rows asked for by push only) */
int sql_thread_states_open(struct sql_ctx *ctx, void **stream, const struct sql_push *push);
int sql_syscalls_open(struct sql_ctx *ctx, void **stream, const struct sql_push *push);
int sql_sched_next(void *stream, struct sql_cell *row);
void sql_sched_close(void *stream);
int sql_calls_open(struct sql_ctx *ctx, void **stream, const struct sql_push *push);
int sql_calls_next(void *stream, struct sql_cell *row);
void sql_calls_close(void *stream);
int sql_fill_spans(struct sql_ctx *ctx, struct sql_rows *rows);
int sql_spans_open(struct sql_ctx *ctx, void **stream, const struct sql_push *push);
int sql_spans_next(void *stream, struct sql_cell *row);
void sql_spans_close(void *stream);

#endif
