/* SPDX-License-Identifier: MIT */
/* The tables of `ltt export --format=rows` and their CREATE TABLE statements (sql_schema.c). */
#ifndef LTT_TOOLKIT_SQL_SCHEMA_H
#define LTT_TOOLKIT_SQL_SCHEMA_H

#include <stdio.h>

#include "toolkit/sql_rows.h"

struct sql_export_table {
	const char *name;
	unsigned ncols;
	const char *const *cols;
	const char *const *types;	/* INTEGER or TEXT */
	const struct sql_rows_def *def;	/* NULL for events */
};

/* The table called name: 0, or -1 when there is none. */
int sql_export_table(const char *name, struct sql_export_table *out);
/* The name of table i (events first), NULL past the last. */
const char *sql_export_table_name(unsigned i);
/* Columns the rows do not repeat after their leading host and trace (trace itself; traces' name). */
int sql_export_col_skipped(const struct sql_export_table *t, unsigned i);
/* Prints the statements for dialect clickhouse, duckdb or sqlite; -1 for another. */
int sql_schema_print(FILE *f, const char *dialect);

#endif
