/* SPDX-License-Identifier: MIT */
/* `ltt sql --schema DIALECT`: CREATE TABLE statements for the rows of `ltt export --format=rows`
 * (doc/fleet.md): every table with a host and a trace column first, for ClickHouse (MergeTree ordered
 * by host and time; Nullable where a value can be missing; no JSON type: fields is a String), DuckDB
 * and SQLite. */
#include <stdio.h>
#include <string.h>

#include "toolkit/sql_schema.h"

static const char *const events_cols[] = { "ts_ns", "trace", "tracefile", "cpu", "tid", "facility", "event", "fields" };
static const char *const events_types[] = { "INTEGER", "TEXT", "TEXT", "INTEGER", "INTEGER", "TEXT", "TEXT", "TEXT" };

static unsigned ntables(void)
{
	unsigned n = 1;

	while (sql_rows_defs[n - 1].name)
		n++;
	return n;
}

int sql_export_table(const char *name, struct sql_export_table *out)
{
	memset(out, 0, sizeof(*out));
	if (!strcmp(name, "events")) {
		out->name = "events";
		out->ncols = sizeof(events_cols) / sizeof(events_cols[0]);
		out->cols = events_cols;
		out->types = events_types;
		return 0;
	}
	for (unsigned i = 0; sql_rows_defs[i].name; i++)
		if (!strcmp(sql_rows_defs[i].name, name)) {
			out->name = name;
			out->ncols = sql_rows_defs[i].ncols;
			out->cols = sql_rows_defs[i].cols;
			out->types = sql_rows_defs[i].types;
			out->def = &sql_rows_defs[i];
			return 0;
		}
	return -1;
}

const char *sql_export_table_name(unsigned i)
{
	if (i == 0)
		return "events";
	return i < ntables() ? sql_rows_defs[i - 1].name : NULL;
}

int sql_export_col_skipped(const struct sql_export_table *t, unsigned i)
{
	return !strcmp(t->cols[i], "trace") || !strcmp(t->cols[i], "host") ||
	       (!strcmp(t->name, "traces") && !strcmp(t->cols[i], "name"));
}

static const char *col_type(const char *dialect, const char *col, const char *type)
{
	int integer = !strcmp(type, "INTEGER");

	if (!strcmp(dialect, "clickhouse")) {
		if (!strcmp(col, "ts_ns"))
			return "Int64";
		return integer ? "Nullable(Int64)" : "Nullable(String)";
	}
	if (!strcmp(dialect, "duckdb"))
		return integer ? "BIGINT" : "VARCHAR";
	return type;
}

int sql_schema_print(FILE *f, const char *dialect)
{
	int ch = !strcmp(dialect, "clickhouse");

	if (!ch && strcmp(dialect, "duckdb") && strcmp(dialect, "sqlite"))
		return -1;
	if (ch)
		fprintf(f, "CREATE DATABASE IF NOT EXISTS ltt;\n");
	for (unsigned i = 0; sql_export_table_name(i); i++) {
		struct sql_export_table t;
		int has_ts = 0;

		sql_export_table(sql_export_table_name(i), &t);
		fprintf(f, "CREATE TABLE %s%s (\n    host %s,\n    trace %s", ch ? "IF NOT EXISTS ltt." : "",
			t.name, ch ? "String" : col_type(dialect, "host", "TEXT"),
			ch ? "String" : col_type(dialect, "trace", "TEXT"));
		for (unsigned c = 0; c < t.ncols; c++) {
			if (sql_export_col_skipped(&t, c))
				continue;
			has_ts |= !strcmp(t.cols[c], "ts_ns");
			fprintf(f, ",\n    %s %s", t.cols[c], col_type(dialect, t.cols[c], t.types[c]));
		}
		if (ch)
			fprintf(f, "\n) ENGINE = MergeTree ORDER BY (host, %s);\n", has_ts ? "ts_ns" : "trace");
		else
			fprintf(f, "\n);\n");
	}
	return 0;
}
