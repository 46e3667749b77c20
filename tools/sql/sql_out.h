/* SPDX-License-Identifier: MIT */
/* Result printing of `ltt sql` (sql_out.c). */
#ifndef LTT_TOOLS_SQL_OUT_H
#define LTT_TOOLS_SQL_OUT_H

#include <stdint.h>
#include <stdio.h>

#include <sqlite3.h>

enum sql_format { SQL_FMT_TABLE, SQL_FMT_CSV, SQL_FMT_JSON };

struct sql_out {
	enum sql_format fmt;
	FILE *f;
	int ncols;
	char **names;
	size_t *width;
	unsigned char *numeric;		/* right-aligned columns (numbers in the first row) */
	char **cells;			/* table: the rows not printed yet */
	size_t nrows, capcells;
	uint64_t rows;			/* rows of the current statement */
	int fixed;			/* table: header printed, widths fixed */
};

struct sql_out *sql_out_new(enum sql_format fmt, FILE *f);
void sql_out_free(struct sql_out *o);
/* A statement's result: begin (its columns), row for each row, end. 0 or -ENOMEM. */
int sql_out_begin(struct sql_out *o, sqlite3_stmt *st);
int sql_out_row(struct sql_out *o, sqlite3_stmt *st);
void sql_out_end(struct sql_out *o);

#endif
