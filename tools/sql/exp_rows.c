/* SPDX-License-Identifier: MIT */
/* ltt export --format=rows [--table NAME]: the tables of `ltt sql` as JSON Lines for engines that
 * load rows (ClickHouse's JSONEachRow, DuckDB's read_json; doc/fleet.md). Every row starts with host
 * (system.xml's node_name) and trace (the trace as given), then the table's columns in the order of
 * `ltt sql --schema`; ts_ns is an integer, NULL is null, and events' fields is the JSON object as a
 * JSON string (for engines without a JSON type):
 *   {"host":"h","trace":"t","ts_ns":N,"tracefile":"cpu/0","cpu":0,"tid":null,"facility":"f",
 *    "event":"e","fields":"{\"a\":1}"}
 * The events table is written from the driver's events (its filters apply); the other tables are
 * computed as ltt sql computes them (sql_rows.h), from the whole traces: this format lives beside
 * those tables, in ltt sql's folder, and reaches the export driver through its contract
 * (toolkit/export.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "toolkit/cmd.h"
#include "toolkit/export.h"
#include "toolkit/sql.h"
#include "toolkit/sql_schema.h"

static const struct export_option rows_options[] = { { "table" }, { NULL } };
static const char *rows_table = "events";
static int rows_typed; /* rows_table names a per-type table (FACILITY_EVENT), known once the traces open */

static int rows_option(unsigned i, const char *value)
{
	struct sql_export_table t;

	(void)i;
	rows_typed = 0;
	if (sql_export_table(value, &t)) {
		/* a per-type table of ltt sql: a name of letters, digits and '_' (toolkit/colname.h) */
		if (!*value ||
		    strspn(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
			    strlen(value)) {
			ltt_tool_error(
				"export",
				"--table %s: expected events, another table of ltt sql (regions, spans, "
				"threads, ...) or a per-type table FACILITY_EVENT (ltt sql --tables TRACE lists them)",
				value);
			return -1;
		}
		rows_table = value;
		rows_typed = 1;
		return 0;
	}
	rows_table = t.name;
	return 0;
}

#define TF_CACHE 64

struct rows {
	struct sql_export_table table;
	char **head;			/* by trace: {"host":"H","trace":"T" */
	size_t *head_len;
	struct {			/* ,"tracefile":"cpu/0","cpu":0 by tracefile */
		const struct ltt_tracefile_info *tf;
		char *json;
		size_t len;
	} tf[TF_CACHE];
};

/* Per event type (export_type priv): ,"facility":"F","event":"E","fields": and the fields' plan. */
struct rows_type {
	char *head;
	size_t head_len;
	struct json_plan *plan;
};

/* pre, then "key":"value" (a comma first unless pre ends an opening brace or a comma). */
static char *json_pair(const char *pre, const char *key, const char *value, size_t *len)
{
	size_t n = strlen(pre);
	char *sep, *k, *s;

	if (asprintf(&sep, "%s%s", pre, n && (pre[n - 1] == '{' || pre[n - 1] == ',') ? "" : ",") < 0)
		return NULL;
	k = json_literal(sep, key, ":", len);
	free(sep);
	if (!k)
		return NULL;
	s = json_literal(k, value, "", len);
	free(k);
	return s;
}

/* One row of a table other than events. */
static void write_row(struct ltt_export_ctx *ctx, struct rows *w, const struct sql_cell *cell)
{
	struct dump_out *o = ctx->out;
	unsigned trace_col = 0, name_col = 0;
	const char *trace;
	unsigned ti = 0;

	for (unsigned c = 0; c < w->table.ncols; c++) {
		if (!strcmp(w->table.cols[c], "trace"))
			trace_col = c;
		if (!strcmp(w->table.cols[c], "name"))
			name_col = c;
	}
	trace = cell[strcmp(w->table.name, "traces") ? trace_col : name_col].s;
	for (unsigned i = 0; i < ctx->ntraces; i++)
		if (trace && !strcmp(ltt_reader_trace(ctx->reader, i)->path, trace))
			ti = i;
	dump_out_mem(o, w->head[ti], w->head_len[ti]);
	for (unsigned c = 0; c < w->table.ncols; c++) {
		if (sql_export_col_skipped(&w->table, c))
			continue;
		dump_out_char(o, ',');
		dump_out_json_string(o, w->table.cols[c], strlen(w->table.cols[c]));
		dump_out_char(o, ':');
		if (cell[c].type == SQLITE_INTEGER)
			dump_out_i64(o, cell[c].i);
		else if (cell[c].type == SQLITE_TEXT)
			dump_out_json_string(o, cell[c].s, strlen(cell[c].s));
		else
			dump_out_str(o, "null");
	}
	dump_out_mem(o, "}\n", 2);
}

/* A streamed table (regions): each row written as it comes, none kept. */
static int stream_rows(struct sql_ctx *sc, struct ltt_export_ctx *ctx, struct rows *w)
{
	const struct sql_rows_def *def = w->table.def;
	struct sql_cell *cells = calloc(def->ncols, sizeof(*cells));
	void *stream = NULL;
	int rc = cells ? def->open(sc, &stream, NULL) : -ENOMEM;

	if (rc < 0 && rc != -ENOMEM)
		rc = EXPORT_REPORTED;	/* the reader did not open (said): never an empty table */
	while (rc == 0 && (rc = def->next(stream, cells)) == 1) {
		write_row(ctx, w, cells);
		sql_cells_clear(cells, def->ncols);
		rc = ctx->out->error;
	}
	if (stream)
		def->close(stream);
	if (cells)
		sql_cells_clear(cells, def->ncols);
	free(cells);
	return rc;
}

/* A table other than events: computed by ltt sql's code on readers of its own (their problems are
 * counted there, and reported by the driver's reader, which reads every block without decoding). */
static int other_table(struct ltt_export_ctx *ctx, struct rows *w)
{
	struct sql_ctx sc = { .tool = { .cmd = "export", .silent = 1 } };
	struct sql_rows rows = { .ncols = w->table.ncols };
	int rc = -ENOMEM;

	sc.catalog = ctx->reader;
	sc.ntraces = ctx->ntraces;
	sc.dirs = calloc(sc.ntraces + 1, sizeof(*sc.dirs));
	sc.names = calloc(sc.ntraces + 1, sizeof(*sc.names));
	sc.hosts = calloc(sc.ntraces + 1, sizeof(*sc.hosts));
	if (sc.dirs && sc.names && sc.hosts) {
		for (unsigned i = 0; i < sc.ntraces; i++) {
			const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);
			const char *host = ltt_trace_attr(t, "node_name");

			sc.dirs[i] = t->dir;
			sc.names[i] = t->path;
			sc.hosts[i] = host ? host : "";
		}
		if (w->table.def->open)
			rc = stream_rows(&sc, ctx, w);
		else
			rc = w->table.def->fill(&sc, &rows);	/* a read error is reported: the rows read stand */
		if (rc == -EMFILE || rc == -ENFILE)	/* the reader could not open: said already */
			rc = EXPORT_REPORTED;
		else if (rc != -ENOMEM && rc != EXPORT_REPORTED) {
			for (size_t r = 0; r < rows.n; r++)
				write_row(ctx, w, rows.cells + r * rows.ncols);
			rc = 0;
		}
	}
	for (size_t k = 0; k < rows.n * rows.ncols; k++)
		free(rows.cells[k].s);
	free(rows.cells);
	sql_seen_forget(&sc);
	free(sc.dirs);
	free(sc.names);
	free(sc.hosts);
	/* the driver's own pass then only reports problems */
	for (unsigned i = 0; i < ctx->ntraces; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types; k++)
			ltt_reader_hide_event_type(ctx->reader, t->event_types[k], 1);
	}
	return rc;
}

/* A per-type table (FACILITY_EVENT): its rows are ltt sql's, read through a session of ltt sql's
 * tables on the driver's catalog (SELECT * FROM the table), every column written after host and trace
 * with its SQLite type: integers, reals, text, NULL as null. */
static int typed_table(struct ltt_export_ctx *ctx, struct rows *w)
{
	struct sql_ctx sc = { .tool = { .cmd = "export", .silent = 1 } };
	const char *decl, *table = NULL;
	sqlite3_stmt *st = NULL;
	char *q = NULL, num[40];
	int rc = EXPORT_REPORTED, ncols;

	sc.catalog = ctx->reader;
	if (sql_session_init(&sc))
		goto out; /* said */
	for (unsigned i = 0; i < sc.ntypes && !table; i++)
		if (!strcasecmp(sql_type_table(&sc, i, &decl), rows_table))
			table = sql_type_table(&sc, i, &decl);
	if (!table) {
		ltt_tool_error(
			"export",
			"--table %s: no such table in these traces (ltt sql --tables TRACE... lists them)",
			rows_table);
		goto out;
	}
	q = sqlite3_mprintf("SELECT * FROM \"%w\"", table);
	if (!q || sqlite3_prepare_v2(sc.db, q, -1, &st, NULL) != SQLITE_OK) {
		ltt_tool_error("export", "--table %s: %s", table,
			       q ? sqlite3_errmsg(sc.db) : "out of memory");
		goto out;
	}
	ncols = sqlite3_column_count(st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *trace = NULL;
		unsigned ti = 0;

		for (int c = 0; c < ncols; c++)
			if (!strcmp(sqlite3_column_name(st, c), "trace"))
				trace = (const char *)sqlite3_column_text(st, c);
		for (unsigned i = 0; i < ctx->ntraces; i++)
			if (trace && !strcmp(ltt_reader_trace(ctx->reader, i)->path, trace))
				ti = i;
		dump_out_mem(ctx->out, w->head[ti], w->head_len[ti]);
		for (int c = 0; c < ncols; c++) {
			const char *name = sqlite3_column_name(st, c);

			if (!strcmp(name, "trace"))
				continue;
			dump_out_char(ctx->out, ',');
			dump_out_json_string(ctx->out, name, strlen(name));
			dump_out_char(ctx->out, ':');
			switch (sqlite3_column_type(st, c)) {
			case SQLITE_INTEGER:
				dump_out_i64(ctx->out, sqlite3_column_int64(st, c));
				break;
			case SQLITE_FLOAT:
				snprintf(num, sizeof(num), "%.17g", sqlite3_column_double(st, c));
				dump_out_str(ctx->out, num);
				break;
			case SQLITE_TEXT:
				dump_out_json_string(ctx->out, (const char *)sqlite3_column_text(st, c),
						     (size_t)sqlite3_column_bytes(st, c));
				break;
			default:
				dump_out_str(ctx->out, "null");
				break;
			}
		}
		dump_out_mem(ctx->out, "}\n", 2);
		if (ctx->out->error)
			break;
	}
	if (ctx->out->error)
		rc = ctx->out->error;
	else if (rc != SQLITE_DONE) {
		ltt_tool_error("export", "--table %s: %s", table, sqlite3_errmsg(sc.db));
		rc = EXPORT_REPORTED;
	} else
		rc = 0;
out:
	sqlite3_finalize(st);
	sqlite3_free(q);
	sc.catalog = NULL; /* the driver's */
	sql_session_free(&sc);
	/* the driver's own pass then only reports problems */
	for (unsigned i = 0; i < ctx->ntraces; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types; k++)
			ltt_reader_hide_event_type(ctx->reader, t->event_types[k], 1);
	}
	return rc;
}

static int rows_end(struct ltt_export_ctx *ctx, int failed);
static int rows_setup(struct ltt_export_ctx *ctx);

static int rows_begin(struct ltt_export_ctx *ctx)
{
	int rc = rows_setup(ctx);

	if (rc)
		rows_end(ctx, 1);	/* the driver calls end only after a successful begin */
	return rc;
}

static int rows_setup(struct ltt_export_ctx *ctx)
{
	struct rows *w = calloc(1, sizeof(*w));

	if (!w)
		return -ENOMEM;
	ctx->priv = w;
	if (rows_typed)
		w->table.name = rows_table;
	else
		sql_export_table(rows_table, &w->table);
	w->head = calloc(ctx->ntraces, sizeof(*w->head));
	w->head_len = calloc(ctx->ntraces, sizeof(*w->head_len));
	if (!w->head || !w->head_len)
		return -ENOMEM;
	for (unsigned i = 0; i < ctx->ntraces; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);
		const char *host = ltt_trace_attr(t, "node_name");
		char *h = json_pair("{", "host", host ? host : "", &w->head_len[i]);

		w->head[i] = h ? json_pair(h, "trace", t->path, &w->head_len[i]) : NULL;
		free(h);
		if (!w->head[i])
			return -ENOMEM;
	}
	return rows_typed ? typed_table(ctx, w) : w->table.def ? other_table(ctx, w) : 0;
}

static struct rows_type *rows_type(const struct ltt_event *ev)
{
	struct export_type *et = export_type(ev);
	struct rows_type *rt = et->priv;
	char *f;
	size_t l;

	if (__builtin_expect(rt != NULL, 1))
		return rt;
	rt = calloc(1, sizeof(*rt));
	if (!rt)
		return NULL;
	f = json_pair(",", "facility", ev->type->facility, &l);
	rt->head = f ? json_pair(f, "event", ev->type->name, &l) : NULL;
	free(f);
	f = NULL;
	if (rt->head && asprintf(&f, "%s,\"fields\":", rt->head) < 0)
		f = NULL;
	free(rt->head);
	rt->head = f;
	rt->head_len = f ? strlen(f) : 0;
	if (!f) {
		free(rt);
		return NULL;
	}
	et->priv = rt;
	return rt;
}

static int rows_tf(struct rows *w, const struct ltt_tracefile_info *tf, const char **json, size_t *len)
{
	unsigned k = (unsigned)(((uintptr_t)tf >> 4) % TF_CACHE);

	if (__builtin_expect(w->tf[k].tf != tf, 0)) {
		char cpu[32];

		free(w->tf[k].json);
		if (tf->cpu >= 0)
			snprintf(cpu, sizeof(cpu), ",\"cpu\":%d", tf->cpu);
		else
			snprintf(cpu, sizeof(cpu), ",\"cpu\":null");
		w->tf[k].json = json_literal(",\"tracefile\":", tf->name, cpu, &w->tf[k].len);
		w->tf[k].tf = w->tf[k].json ? tf : NULL;
		if (!w->tf[k].json)
			return -ENOMEM;
	}
	*json = w->tf[k].json;
	*len = w->tf[k].len;
	return 0;
}

static int rows_event(struct ltt_export_ctx *ctx, const struct ltt_event *ev)
{
	struct rows *w = ctx->priv;
	struct dump_out *o = ctx->out;
	struct rows_type *rt;
	int rc;
	const char *tfj;
	size_t tfl;
	uint32_t tid;
	char *p;

	if (w->table.def || rows_typed || ev->type->builtin)
		return 0;
	rt = rows_type(ev);
	if (!rt || rows_tf(w, ev->tracefile, &tfj, &tfl))
		return -ENOMEM;
	dump_out_mem(o, w->head[ev->trace->index], w->head_len[ev->trace->index]);
	p = dump_out_reserve(o, 32);
	p = dump_put_lit(p, ",\"ts_ns\":");
	p = dump_put_u64(p, ev->time_ns);
	dump_out_commit(o, p);
	dump_out_mem(o, tfj, tfl);
	p = dump_out_reserve(o, 24);
	p = dump_put_lit(p, ",\"tid\":");
	if (export_event_tid(ev, &tid))
		p = dump_put_u64(p, tid);
	else
		p = dump_put_lit(p, "null");
	dump_out_commit(o, p);
	dump_out_mem(o, rt->head, rt->head_len);
	rc = json_fields_string(o, ev, &rt->plan);
	if (rc == -EFBIG) {
		ltt_tool_error("export", "%s: offset %llu: fields of %s.%s longer than %u bytes of JSON",
			       ev->tracefile->name, (unsigned long long)ev->offset, ev->type->facility,
			       ev->type->name, DUMP_OUT_SIZE);
		return EXPORT_REPORTED;
	}
	if (rc)
		return rc;
	dump_out_mem(o, "}\n", 2);
	return o->error;
}

static int rows_end(struct ltt_export_ctx *ctx, int failed)
{
	struct rows *w = ctx->priv;

	(void)failed;
	if (!w)
		return 0;
	for (unsigned i = 0; i < ctx->ntraces; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			struct export_type *et = *t->event_types[k]->user;
			struct rows_type *rt = et ? et->priv : NULL;

			if (!rt)
				continue;
			json_plan_free(rt->plan);
			free(rt->head);
			free(rt);
			et->priv = NULL;
		}
		if (w->head)
			free(w->head[i]);
	}
	for (unsigned k = 0; k < TF_CACHE; k++)
		free(w->tf[k].json);
	free(w->head);
	free(w->head_len);
	free(w);
	ctx->priv = NULL;
	return 0;
}

const struct ltt_exporter ltt_exp_rows = {
	.name = "rows",
	.summary = "JSON Lines of the tables of ltt sql, for ClickHouse and DuckDB (doc/fleet.md)",
	.suffix = ".jsonl",
	.begin = rows_begin,
	.event = rows_event,
	.end = rows_end,
	.options = rows_options,
	.option = rows_option,
};
