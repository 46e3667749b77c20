/* SPDX-License-Identifier: MIT */
/* The aggregate functions ltt adds to SQLite for `ltt sql` (sql.h sql_aggregates_register):
 * percentile(X, P), median(X), p50(X), p90(X), p99(X). P is a percent, 0 to 100, the same for every
 * row of a group. The value is numpy's default (method 'linear', also PostgreSQL's percentile_cont and
 * SQLite's own percentile extension): the values sorted, h = (n - 1) * (P / 100), the value of rank
 * floor(h) plus (h - floor(h)) times the difference to the next one (computed from the nearer of the
 * two, as numpy does, so that the result has numpy's bits). NULLs are left out; no value
 * gives NULL; a text or blob value is an error. An integer result that falls on a value is that
 * INTEGER, exactly (timestamps in ns keep their 19 digits); between two values it is a REAL. The
 * values are kept in memory until the group ends (16 bytes each). */
#include <math.h>
#include <stdlib.h>

#include "toolkit/sql.h"

struct pv {
	int is_int;
	int64_t i;
	double d;
};

struct pct_state {
	struct pv *v;
	sqlite3_int64 n, cap;
	double p;
	int have_p;
};

static int pv_cmp(const void *a, const void *b)
{
	const struct pv *x = a, *y = b;

	if (x->is_int && y->is_int)
		return x->i < y->i ? -1 : x->i > y->i;
	return x->d < y->d ? -1 : x->d > y->d;
}

/* p: the percent of percentile(), or the fixed one of median and pNN (argc 1). */
static void pct_add(sqlite3_context *ctx, sqlite3_value *x, double p, int p_arg)
{
	struct pct_state *s = sqlite3_aggregate_context(ctx, sizeof(*s));
	int type = sqlite3_value_numeric_type(x);

	if (!s) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	if (!s->have_p) {
		if (p_arg && (isnan(p) || p < 0 || p > 100)) {
			sqlite3_result_error(ctx, "percentile(X, P): P must be a number from 0 to 100", -1);
			return;
		}
		s->p = p;
		s->have_p = 1;
	} else if (p != s->p) {
		sqlite3_result_error(ctx, "percentile(X, P): P must be the same for every row of a group", -1);
		return;
	}
	if (type == SQLITE_NULL)
		return;
	if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) {
		sqlite3_result_error(ctx, "percentile: a value that is not a number (cast it, or leave it out)", -1);
		return;
	}
	if (s->n == s->cap) {
		sqlite3_int64 ncap = s->cap ? 2 * s->cap : 64;
		struct pv *nv = sqlite3_realloc64(s->v, (sqlite3_uint64)ncap * sizeof(*nv));

		if (!nv) {
			sqlite3_result_error_nomem(ctx);
			return;
		}
		s->v = nv;
		s->cap = ncap;
	}
	s->v[s->n].is_int = type == SQLITE_INTEGER;
	s->v[s->n].i = sqlite3_value_int64(x);
	s->v[s->n].d = sqlite3_value_double(x);
	if (type == SQLITE_FLOAT && isnan(s->v[s->n].d))
		return;		/* SQLite turns NaN into NULL already: never reached in practice */
	s->n++;
}

static void percentile_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	int t = sqlite3_value_numeric_type(argv[1]);

	(void)argc;
	if (t != SQLITE_INTEGER && t != SQLITE_FLOAT) {
		sqlite3_result_error(ctx, "percentile(X, P): P must be a number from 0 to 100", -1);
		return;
	}
	pct_add(ctx, argv[0], sqlite3_value_double(argv[1]), 1);
}

static void fixed_step(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	(void)argc;
	pct_add(ctx, argv[0], *(const double *)sqlite3_user_data(ctx), 0);
}

static void pct_final(sqlite3_context *ctx)
{
	struct pct_state *s = sqlite3_aggregate_context(ctx, 0);
	const struct pv *a, *b;
	double h, f;
	sqlite3_int64 k;

	if (!s || !s->n) {
		if (s)
			sqlite3_free(s->v);
		return;		/* NULL */
	}
	qsort(s->v, (size_t)s->n, sizeof(*s->v), pv_cmp);
	h = (double)(s->n - 1) * (s->p / 100.0);	/* numpy's order of operations: the same bits */
	k = (sqlite3_int64)floor(h);
	if (k >= s->n - 1) {
		k = s->n - 1;
		h = (double)k;
	}
	f = h - (double)k;
	a = &s->v[k];
	if (f == 0) {
		if (a->is_int)
			sqlite3_result_int64(ctx, a->i);
		else
			sqlite3_result_double(ctx, a->d);
	} else {
		double lo, hi, diff;

		b = &s->v[k + 1];
		lo = a->is_int ? (double)a->i : a->d;
		hi = b->is_int ? (double)b->i : b->d;
		/* the difference in integers when both are: exact up to 2^63 */
		diff = a->is_int && b->is_int ? (double)(b->i - a->i) : hi - lo;
		/* numpy's lerp: from the nearer end (the same bits as numpy.percentile) */
		sqlite3_result_double(ctx, f < 0.5 ? lo + diff * f : hi - diff * (1 - f));
	}
	sqlite3_free(s->v);
}

int sql_aggregates_register(sqlite3 *db)
{
	static const struct {
		const char *name;
		double p;
	} fixed[] = { { "median", 50 }, { "p50", 50 }, { "p90", 90 }, { "p99", 99 } };
	int flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;	/* pure: views may use them */
	int rc = sqlite3_create_function(db, "percentile", 2, flags, NULL, NULL, percentile_step, pct_final);

	for (unsigned i = 0; rc == SQLITE_OK && i < sizeof(fixed) / sizeof(fixed[0]); i++)
		rc = sqlite3_create_function(db, fixed[i].name, 1, flags, (void *)&fixed[i].p, NULL, fixed_step,
					     pct_final);
	return rc;
}
