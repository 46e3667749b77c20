/* SPDX-License-Identifier: MIT */
/* The tables of `ltt sql` named after each event type, `facility_event`: the columns of every event
 * table (ts_ns, trace, tracefile, cpu, tid) then one typed column per field of the body. Nested
 * structs are flattened (`a_b`), arrays, sequences and unions are JSON text; integers are INTEGER
 * (an unsigned value above 2^63-1, which SQLite cannot hold, is its decimal TEXT), enums their label
 * (the number when no label has that value), floats REAL (NaN is NULL), strings TEXT. When the traces
 * of a set describe a type differently, the table has the union of their columns, by name. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/grow.h"

#include "toolkit/colname.h"
#include "toolkit/sql.h"

enum col_kind { CK_INT, CK_UINT, CK_FLOAT, CK_TEXT, CK_ENUM, CK_JSON };

struct sql_col {
	char *name;
	enum col_kind kind;
};

struct sql_type {
	char *table;
	char *facility, *event;
	struct sql_col *cols;		/* after the SQL_COL_NFIXED fixed ones */
	unsigned ncols, capcols;
	char *decl;
	int **map;			/* by trace index: leaf (flattening order) -> column, or NULL */
	unsigned *nleaves;
};


static const char *const fixed_tables[] = { "events", "regions", "threads", "processes", "lost", "traces" };
static const char *const fixed_cols[SQL_COL_NFIXED] = { "ts_ns", "trace", "tracefile", "cpu", "tid" };

static enum col_kind kind_of(const struct ltt_type_desc *t)
{
	switch (t->kind) {
	case LTT_TYPE_INT: return CK_INT;
	case LTT_TYPE_UINT: return CK_UINT;
	case LTT_TYPE_FLOAT: return CK_FLOAT;
	case LTT_TYPE_STRING: return CK_TEXT;
	case LTT_TYPE_ENUM: return CK_ENUM;
	default: return CK_JSON;
	}
}

static const char *decl_type(enum col_kind k)
{
	switch (k) {
	case CK_INT:
	case CK_UINT: return "INTEGER";
	case CK_FLOAT: return "REAL";
	default: return "TEXT";
	}
}

/* Column index of name in ty, adding it when absent; -1 on ENOMEM. */
static int col_of(struct sql_type *ty, const char *name, enum col_kind k)
{
	struct sql_col *n;

	for (unsigned i = 0; i < ty->ncols; i++)
		if (!strcasecmp(ty->cols[i].name, name))	/* SQL names are case-insensitive */
			return (int)(SQL_COL_NFIXED + i);
	if (LTT_GROW(ty->cols, ty->ncols + 1, ty->capcols))
		return -1;
	n = ty->cols;
	n[ty->ncols].name = strdup(name);
	n[ty->ncols].kind = k;
	if (!n[ty->ncols].name)
		return -1;
	return (int)(SQL_COL_NFIXED + ty->ncols++);
}

struct leaves {
	int *map;
	unsigned n, cap;
};

struct leaf_taken {
	const struct sql_type *ty;
	const struct leaves *l;
};

/* Whether name is the column of an earlier leaf of this flattening (toolkit/colname.h). */
static int leaf_taken(void *arg, const char *name)
{
	const struct leaf_taken *a = arg;

	for (unsigned i = 0; i < a->l->n; i++) {
		int c = a->l->map[i] - SQL_COL_NFIXED;

		if (c >= 0 && (unsigned)c < a->ty->ncols && !strcasecmp(a->ty->cols[c].name, name))
			return 1;
	}
	return 0;
}

static int add_leaf(struct sql_type *ty, struct leaves *l, const char *name, const struct ltt_type_desc *t,
		    int top)
{
	char buf[512];
	int col;

	if (LTT_GROW(l->map, l->n + 1, l->cap))
		return -ENOMEM;
	/* a top-level integer tid is the tid column itself */
	if (top && !strcmp(name, "tid") && (t->kind == LTT_TYPE_INT || t->kind == LTT_TYPE_UINT)) {
		l->map[l->n++] = SQL_COL_TID;
		return 0;
	}
	/* unique within the type (toolkit/colname.h): never two leaves in one column */
	if (colname_make(buf, sizeof(buf), name, fixed_cols, SQL_COL_NFIXED, leaf_taken,
			 &(struct leaf_taken){ ty, l }))
		return -ENAMETOOLONG;
	col = col_of(ty, buf, kind_of(t));
	if (col < 0)
		return -ENOMEM;
	l->map[l->n++] = col;
	return 0;
}

/* Flattens a struct's fields into leaves named prefix_field. */
static int flatten(struct sql_type *ty, struct leaves *l, const char *prefix, const struct ltt_type_desc *t)
{
	for (uint32_t i = 0; i < t->n_fields; i++) {
		const struct ltt_field_desc *f = &t->fields[i];
		char name[512];
		int rc;

		snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "_" : "", f->name);
		if (f->type->kind == LTT_TYPE_STRUCT)
			rc = flatten(ty, l, name, f->type);
		else
			rc = add_leaf(ty, l, name, f->type, !*prefix);
		if (rc)
			return rc;
	}
	return 0;
}

static int table_taken(const struct sql_ctx *ctx, const char *name)
{
	for (size_t i = 0; i < sizeof(fixed_tables) / sizeof(fixed_tables[0]); i++)
		if (!strcasecmp(fixed_tables[i], name))
			return 1;
	for (unsigned i = 0; i < ctx->ntypes; i++)
		if (!strcasecmp(ctx->types[i].table, name))
			return 1;
	return 0;
}

static struct sql_type *type_of(struct sql_ctx *ctx, const struct ltt_event_type *et)
{
	struct sql_type *ty;
	char name[512];

	for (unsigned i = 0; i < ctx->ntypes; i++)
		if (!strcmp(ctx->types[i].facility, et->facility) && !strcmp(ctx->types[i].event, et->name))
			return &ctx->types[i];
	if (LTT_GROW(ctx->types, ctx->ntypes + 1, ctx->captypes))
		return NULL;
	snprintf(name, sizeof(name), "%s_%s", et->facility, et->name);
	for (unsigned k = 2; table_taken(ctx, name); k++)
		snprintf(name, sizeof(name), "%s_%s_%u", et->facility, et->name, k);
	ty = &ctx->types[ctx->ntypes];
	memset(ty, 0, sizeof(*ty));
	ty->table = strdup(name);
	ty->facility = strdup(et->facility);
	ty->event = strdup(et->name);
	ty->map = calloc(ctx->ntraces, sizeof(*ty->map));
	ty->nleaves = calloc(ctx->ntraces, sizeof(*ty->nleaves));
	ctx->ntypes++;
	if (!ty->table || !ty->facility || !ty->event || !ty->map || !ty->nleaves)
		return NULL;
	return ty;
}

static char *make_decl(const struct sql_type *ty)
{
	size_t cap = 256, len = 0;
	char *s = NULL, *q;

	for (int pass = 0; pass < 2; pass++) {
		int n;

		if (pass) {
			s = malloc(len + 1);
			if (!s)
				return NULL;
			cap = len + 1;
		}
		q = s;
		len = 0;
#define PUT(...) do { n = snprintf(q ? q + len : NULL, q ? cap - len : 0, __VA_ARGS__); len += (size_t)n; } while (0)
		PUT("CREATE TABLE x(ts_ns INTEGER, trace TEXT, tracefile TEXT, cpu INTEGER, tid INTEGER");
		for (unsigned i = 0; i < ty->ncols; i++) {
			char *quoted = sqlite3_mprintf("%w", ty->cols[i].name);

			if (!quoted) {
				free(s);
				return NULL;
			}
			PUT(", \"%s\" %s", quoted, decl_type(ty->cols[i].kind));
			sqlite3_free(quoted);
		}
		PUT(")");
#undef PUT
	}
	return s;
}

int sql_types_build(struct sql_ctx *ctx)
{
	for (unsigned i = 0; i < ctx->ntraces; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->catalog, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *et = t->event_types[k];
			struct leaves l = { 0 };
			struct sql_type *ty;

			if (et->builtin)
				continue;
			ty = type_of(ctx, et);
			if (!ty)
				return -ENOMEM;
			if (ty->map[i])
				continue;	/* loaded twice in this trace: the first one names the columns */
			if (et->body && et->body->kind == LTT_TYPE_STRUCT) {
				int rc = flatten(ty, &l, "", et->body);

				if (rc) {
					free(l.map);
					return rc;
				}
			}
			ty->map[i] = l.map ? l.map : calloc(1, sizeof(int));
			ty->nleaves[i] = l.n;
			if (!ty->map[i])
				return -ENOMEM;
		}
	}
	for (unsigned i = 0; i < ctx->ntypes; i++) {
		ctx->types[i].decl = make_decl(&ctx->types[i]);
		if (!ctx->types[i].decl)
			return -ENOMEM;
	}
	return 0;
}

void sql_types_free(struct sql_ctx *ctx)
{
	for (unsigned i = 0; i < ctx->ntypes; i++) {
		struct sql_type *ty = &ctx->types[i];

		for (unsigned k = 0; k < ty->ncols; k++)
			free(ty->cols[k].name);
		free(ty->cols);
		for (unsigned k = 0; ty->map && k < ctx->ntraces; k++)
			free(ty->map[k]);
		free(ty->map);
		free(ty->nleaves);
		free(ty->table);
		free(ty->facility);
		free(ty->event);
		free(ty->decl);
	}
	free(ctx->types);
	ctx->types = NULL;
	ctx->ntypes = ctx->captypes = 0;
}

const char *sql_type_table(const struct sql_ctx *ctx, unsigned i, const char **decl)
{
	*decl = ctx->types[i].decl;
	return ctx->types[i].table;
}

/* ---- the virtual table ------------------------------------------------------------------------ */

struct ty_vtab {
	sqlite3_vtab base;
	struct sql_ctx *ctx;
	struct sql_type *ty;
};

struct ty_cursor {
	struct sql_cursor sc;		/* first: the shared cursor (vtab_scan.c) */
	sqlite3_int64 decoded;		/* rowid whose values are in vals, or -1 */
	struct ltt_value *vals;		/* by column (fixed ones unused) */
	unsigned char *have;
};

/* argv[3]: the index of the type in ctx->types */
static int ty_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out, char **err)
{
	struct sql_ctx *ctx = aux;
	struct ty_vtab *t;
	unsigned i;
	int rc;

	if (argc < 4 || sscanf(argv[3], "%u", &i) != 1 || i >= ctx->ntypes) {
		*err = sqlite3_mprintf("ltt_type: no such event type");
		return SQLITE_ERROR;
	}
	if (!(t = sql_vtab_declare(db, ctx->types[i].decl, sizeof(*t), &rc)))
		return rc;
	t->ctx = ctx;
	t->ty = &ctx->types[i];
	*out = &t->base;
	return SQLITE_OK;
}

static int ty_best_index(sqlite3_vtab *vt, sqlite3_index_info *info)
{
	(void)vt;
	return sql_plan_best_index(info, -1, -1);
}

static int ty_open(sqlite3_vtab *vt, sqlite3_vtab_cursor **out)
{
	struct ty_vtab *t = (struct ty_vtab *)vt;
	unsigned n = SQL_COL_NFIXED + t->ty->ncols;
	struct ty_cursor *c;
	int rc = sql_cursor_open(sizeof(*c), out);

	if (rc != SQLITE_OK)
		return rc;
	c = (struct ty_cursor *)*out;
	c->vals = calloc(n, sizeof(*c->vals));
	c->have = calloc(n, 1);
	if (!c->vals || !c->have) {
		free(c->vals);
		free(c->have);
		sqlite3_free(c);
		*out = NULL;
		return SQLITE_NOMEM;
	}
	return SQLITE_OK;
}

static int ty_close(sqlite3_vtab_cursor *cur)
{
	struct ty_cursor *c = (struct ty_cursor *)cur;

	sql_scan_close(&c->sc.scan);
	free(c->vals);
	free(c->have);
	sqlite3_free(c);
	return SQLITE_OK;
}

static int ty_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc, sqlite3_value **argv)
{
	struct ty_cursor *c = (struct ty_cursor *)cur;
	struct ty_vtab *t = (struct ty_vtab *)cur->pVtab;

	c->decoded = -1;
	return sql_cursor_filter(&c->sc, t->ctx, idx_num, idx_str, argc, argv, t->ty->facility, t->ty->event);
}

struct walk {
	struct ty_cursor *c;
	const int *map;
	unsigned n, leaf;
};

static void walk_struct(struct walk *w, const struct ltt_value *v)
{
	struct ltt_value ch;

	for (int rc = ltt_value_first(v, &ch); !rc; rc = ltt_value_next(v, &ch)) {
		if (ch.type->kind == LTT_TYPE_STRUCT) {
			walk_struct(w, &ch);
			continue;
		}
		if (w->leaf < w->n) {
			int col = w->map[w->leaf];

			w->c->vals[col] = ch;
			w->c->have[col] = 1;
		}
		w->leaf++;
	}
}

static void decode_row(struct ty_cursor *c, const struct sql_type *ty, unsigned ncols, unsigned ntraces)
{
	const struct ltt_event *ev = &c->sc.scan.ev;
	unsigned ti = ev->trace->index;
	struct ltt_value body;
	struct walk w = { .c = c };

	memset(c->have, 0, ncols);
	c->decoded = c->sc.rowid;
	if (ti >= ntraces || !ty->map[ti] || ltt_event_body(ev, &body))
		return;
	w.map = ty->map[ti];
	w.n = ty->nleaves[ti];
	walk_struct(&w, &body);
}

static void result_value(sqlite3_context *ctx, const struct ltt_value *v)
{
	const char *s;
	size_t n;
	uint64_t u;
	char buf[24];

	switch (v->type->kind) {
	case LTT_TYPE_INT:
		sqlite3_result_int64(ctx, ltt_value_int(v));
		return;
	case LTT_TYPE_UINT:
		u = ltt_value_uint(v);
		if (u <= INT64_MAX) {
			sqlite3_result_int64(ctx, (sqlite3_int64)u);
		} else {
			snprintf(buf, sizeof(buf), "%llu", (unsigned long long)u);
			sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
		}
		return;
	case LTT_TYPE_FLOAT:
		sqlite3_result_double(ctx, ltt_value_float(v));
		return;
	case LTT_TYPE_ENUM:
		s = ltt_value_enum_label(v);
		if (s)
			sqlite3_result_text(ctx, s, -1, SQLITE_TRANSIENT);
		else
			sqlite3_result_int64(ctx, (sqlite3_int64)ltt_value_uint(v));
		return;
	case LTT_TYPE_STRING:
		s = ltt_value_string(v, &n);
		sqlite3_result_text(ctx, s, (int)n, SQLITE_TRANSIENT);
		return;
	default:
		s = sql_json_value(v, &n);
		if (s)
			sqlite3_result_text(ctx, s, (int)n, SQLITE_TRANSIENT);
		return;
	}
}

static int ty_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	struct ty_cursor *c = (struct ty_cursor *)cur;
	struct ty_vtab *t = (struct ty_vtab *)cur->pVtab;

	if (col < SQL_COL_NFIXED) {
		sql_fixed_column(ctx, t->ctx, &c->sc.scan.ev, col);
		return SQLITE_OK;
	}
	if (c->decoded != c->sc.rowid)
		decode_row(c, t->ty, SQL_COL_NFIXED + t->ty->ncols, t->ctx->ntraces);
	if (c->have[col])
		result_value(ctx, &c->vals[col]);
	return SQLITE_OK;
}

static const sqlite3_module ty_module = SQL_MODULE(ty_connect, ty_best_index, sql_vtab_disconnect, ty_open, ty_close,
						   ty_filter, sql_cursor_next, sql_cursor_eof, ty_column,
						   sql_cursor_rowid);

int sql_types_register(struct sql_ctx *ctx)
{
	return sqlite3_create_module(ctx->db, "ltt_type", &ty_module, ctx);
}
