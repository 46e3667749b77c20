/* SPDX-License-Identifier: MIT */
/* Result printing of `ltt sql`: table (aligned columns under a header), csv (RFC 4180, a header line)
 * and json (JSON Lines, one object per row). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape_csv.h"
#include "common/escape_json.h"
#include "common/grow.h"
#include "sql_out.h"

#define TABLE_BATCH 10000	/* rows measured before the table's widths are fixed */

struct sql_out *sql_out_new(enum sql_format fmt, FILE *f)
{
	struct sql_out *o = calloc(1, sizeof(*o));

	if (o) {
		o->fmt = fmt;
		o->f = f;
	}
	return o;
}

static void free_batch(struct sql_out *o)
{
	for (size_t i = 0; i < o->nrows * (size_t)o->ncols; i++)
		free(o->cells[i]);
	free(o->cells);
	o->cells = NULL;
	o->nrows = o->capcells = 0;
}

static void free_cols(struct sql_out *o)
{
	for (int i = 0; i < o->ncols; i++)
		free(o->names[i]);
	free(o->names);
	free(o->width);
	free(o->numeric);
	o->names = NULL;
	o->width = NULL;
	o->numeric = NULL;
	o->ncols = 0;
}

void sql_out_free(struct sql_out *o)
{
	if (!o)
		return;
	free_batch(o);
	free_cols(o);
	free(o);
}

int sql_out_begin(struct sql_out *o, sqlite3_stmt *st)
{
	free_batch(o);
	free_cols(o);
	o->ncols = sqlite3_column_count(st);
	o->rows = 0;
	o->fixed = 0;
	o->names = calloc((size_t)o->ncols + 1, sizeof(*o->names));
	o->width = calloc((size_t)o->ncols + 1, sizeof(*o->width));
	o->numeric = calloc((size_t)o->ncols + 1, 1);
	if (!o->names || !o->width || !o->numeric)
		return -ENOMEM;
	for (int i = 0; i < o->ncols; i++) {
		o->names[i] = strdup(sqlite3_column_name(st, i));
		if (!o->names[i])
			return -ENOMEM;
		o->width[i] = strlen(o->names[i]);
	}
	if (o->fmt == SQL_FMT_CSV && o->ncols) {
		for (int i = 0; i < o->ncols; i++) {
			if (i)
				fputc(',', o->f);
			ltt_csv_to_file(o->f, o->names[i], strlen(o->names[i]), 0);
		}
		fputc('\n', o->f);
	}
	return 0;
}

/* The text of a column value for table and csv ("" for NULL); malloc'ed. */
static char *cell_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t;

	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return strdup("");
	t = sqlite3_column_text(st, i);
	return strdup(t ? (const char *)t : "");
}

/* A cell on one line: newline and tab as \n and \t, other control bytes as '?' (s freed). */
static char *table_escape(char *s)
{
	size_t extra = 0, n = 0;
	char *r, *w;

	for (char *p = s; *p; p++, n++)
		extra += *p == '\n' || *p == '\t';
	if (!extra) {
		for (char *p = s; *p; p++)
			if ((unsigned char)*p < 0x20)
				*p = '?';
		return s;
	}
	r = malloc(n + extra + 1);
	if (!r)
		return s;
	w = r;
	for (const char *p = s; *p; p++) {
		if (*p == '\n' || *p == '\t') {
			*w++ = '\\';
			*w++ = *p == '\n' ? 'n' : 't';
		} else {
			*w++ = (unsigned char)*p < 0x20 ? '?' : *p;
		}
	}
	*w = 0;
	free(s);
	return r;
}

static void table_rule(struct sql_out *o)
{
	for (int i = 0; i < o->ncols; i++) {
		fputs(i ? "  " : "", o->f);
		for (size_t k = 0; k < o->width[i]; k++)
			fputc('-', o->f);
	}
	fputc('\n', o->f);
}

static void table_line(struct sql_out *o, char *const *cells)
{
	for (int i = 0; i < o->ncols; i++) {
		int last = i == o->ncols - 1;

		fputs(i ? "  " : "", o->f);
		if (o->numeric[i])
			fprintf(o->f, "%*s", (int)o->width[i], cells[i]);
		else if (last)
			fputs(cells[i], o->f);
		else
			fprintf(o->f, "%-*s", (int)o->width[i], cells[i]);
	}
	fputc('\n', o->f);
}

/* Prints the batch (and the header before the first). */
static void table_flush(struct sql_out *o)
{
	if (!o->fixed) {
		table_line(o, o->names);
		table_rule(o);
		o->fixed = 1;
	}
	for (size_t r = 0; r < o->nrows; r++)
		table_line(o, o->cells + r * (size_t)o->ncols);
	free_batch(o);
}

int sql_out_row(struct sql_out *o, sqlite3_stmt *st)
{
	o->rows++;
	if (o->fmt == SQL_FMT_JSON) {
		fputc('{', o->f);
		for (int i = 0; i < o->ncols; i++) {
			double d;

			fputs(i ? "," : "", o->f);
			ltt_json_to_file(o->f, o->names[i], strlen(o->names[i]));
			fputc(':', o->f);
			switch (sqlite3_column_type(st, i)) {
			case SQLITE_INTEGER:
				fprintf(o->f, "%lld", (long long)sqlite3_column_int64(st, i));
				break;
			case SQLITE_FLOAT:
				d = sqlite3_column_double(st, i);
				if (isfinite(d))
					fprintf(o->f, "%.17g", d);
				else
					fputs("null", o->f);
				break;
			case SQLITE_NULL:
				fputs("null", o->f);
				break;
			default:
				ltt_json_to_file(o->f, (const char *)sqlite3_column_text(st, i), (size_t)sqlite3_column_bytes(st, i));
			}
		}
		fputs("}\n", o->f);
		return 0;
	}
	if (o->fmt == SQL_FMT_CSV) {
		for (int i = 0; i < o->ncols; i++) {
			char *s = cell_text(st, i);

			if (!s)
				return -ENOMEM;
			if (i)
				fputc(',', o->f);
			ltt_csv_to_file(o->f, s, strlen(s), 0);
			free(s);
		}
		fputc('\n', o->f);
		return 0;
	}
	if (LTT_GROW(o->cells, (o->nrows + 1) * (size_t)o->ncols, o->capcells))
		return -ENOMEM;
	for (int i = 0; i < o->ncols; i++) {
		char *s = cell_text(st, i);
		int ty = sqlite3_column_type(st, i);

		if (!s) {
			for (int k = 0; k < i; k++)
				free(o->cells[o->nrows * (size_t)o->ncols + (size_t)k]);
			return -ENOMEM;
		}
		o->cells[o->nrows * (size_t)o->ncols + (size_t)i] = s = table_escape(s);
		if (!o->fixed) {
			if (strlen(s) > o->width[i])
				o->width[i] = strlen(s);
			if (o->rows == 1 && (ty == SQLITE_INTEGER || ty == SQLITE_FLOAT))
				o->numeric[i] = 1;
		}
	}
	o->nrows++;
	if (o->nrows >= TABLE_BATCH)
		table_flush(o);
	return 0;
}

void sql_out_end(struct sql_out *o)
{
	if (o->fmt == SQL_FMT_TABLE && o->ncols && (o->nrows || !o->fixed))
		table_flush(o);
	free_batch(o);
	fflush(o->f);
}
