/* SPDX-License-Identifier: MIT */
/* Constraint push-down of the event tables (sql.h): xBestIndex picks the constraints the reader can
 * apply (time range, trace, tracefile, cpu, facility, event), xFilter turns their values into a
 * struct sql_filter. SQLite still checks every constraint on the rows (omit = 0): the filter only has
 * to let through a superset, so a value of an unexpected type just widens it. */
#include <math.h>
#include <string.h>

#include "toolkit/sql.h"

/* One letter per constraint handed to xFilter, in argv order (idxStr). */
enum {
	OP_TS_GE = 'a', OP_TS_GT, OP_TS_LE, OP_TS_LT, OP_TS_EQ,
	OP_TRACE = 'f', OP_TRACEFILE, OP_CPU, OP_FACILITY, OP_EVENT,
};

#define IDX_UNORDERED 1		/* no column read, no order asked: read tracefile after tracefile */

int sql_plan_best_index(sqlite3_index_info *info, int facility_col, int event_col)
{
	char ops[64];
	int n = 0, have_time = 0, eqs = 0;
	double cost = 1e7;

	for (int i = 0; i < info->nConstraint && n < (int)sizeof(ops) - 1; i++) {
		const struct sqlite3_index_constraint *c = &info->aConstraint[i];
		int op = 0;

		if (!c->usable)
			continue;
		if (c->iColumn == SQL_COL_TS) {
			switch (c->op) {
			case SQLITE_INDEX_CONSTRAINT_GE: op = OP_TS_GE; break;
			case SQLITE_INDEX_CONSTRAINT_GT: op = OP_TS_GT; break;
			case SQLITE_INDEX_CONSTRAINT_LE: op = OP_TS_LE; break;
			case SQLITE_INDEX_CONSTRAINT_LT: op = OP_TS_LT; break;
			case SQLITE_INDEX_CONSTRAINT_EQ: op = OP_TS_EQ; break;
			default: break;
			}
			have_time |= op != 0;
		} else if (c->op == SQLITE_INDEX_CONSTRAINT_EQ) {
			if (c->iColumn == SQL_COL_TRACE)
				op = OP_TRACE;
			else if (c->iColumn == SQL_COL_TRACEFILE)
				op = OP_TRACEFILE;
			else if (c->iColumn == SQL_COL_CPU)
				op = OP_CPU;
			else if (c->iColumn == facility_col && facility_col >= 0)
				op = OP_FACILITY;
			else if (c->iColumn == event_col && event_col >= 0)
				op = OP_EVENT;
			eqs += op != 0;
		}
		if (!op)
			continue;
		ops[n++] = (char)op;
		info->aConstraintUsage[i].argvIndex = n;
		info->aConstraintUsage[i].omit = 0;
	}
	ops[n] = 0;
	if (have_time)
		cost /= 100;
	for (int i = 0; i < eqs; i++)
		cost /= 4;
	info->estimatedCost = cost;
	info->estimatedRows = (sqlite3_int64)cost;
	info->idxNum = 0;
	/* Rows come in time order (doc/format.md section 5) unless read unordered. */
	if (info->nOrderBy == 1 && info->aOrderBy[0].iColumn == SQL_COL_TS && !info->aOrderBy[0].desc)
		info->orderByConsumed = 1;
	else if (info->nOrderBy == 0 && info->colUsed == 0)
		info->idxNum |= IDX_UNORDERED;
	if (n) {
		info->idxStr = sqlite3_mprintf("%s", ops);
		if (!info->idxStr)
			return SQLITE_NOMEM;
		info->needToFreeIdxStr = 1;
	}
	return SQLITE_OK;
}

/* The value as an integer bound: *lo and *hi are the integers a row's value must lie between
 * for value op row-value to hold (a non-integer value widens to what contains it). 0 when the
 * value is not numeric (no bound). */
static int num_bounds(sqlite3_value *v, int64_t *lo, int64_t *hi)
{
	double d;

	switch (sqlite3_value_numeric_type(v)) {
	case SQLITE_INTEGER:
		*lo = *hi = sqlite3_value_int64(v);
		return 1;
	case SQLITE_FLOAT:
		d = sqlite3_value_double(v);
		if (isnan(d))
			return 0;
		*lo = d <= -9.2e18 ? INT64_MIN : d >= 9.2e18 ? INT64_MAX : (int64_t)floor(d);
		*hi = d <= -9.2e18 ? INT64_MIN : d >= 9.2e18 ? INT64_MAX : (int64_t)ceil(d);
		return 1;
	default:
		return 0;
	}
}

static void set_from(struct sql_filter *f, int64_t v)
{
	uint64_t u = v < 0 ? 0 : (uint64_t)v;

	if (u > f->from_ns)
		f->from_ns = u;
}

static void set_to(struct sql_filter *f, int64_t v)
{
	if (v < 0) {
		f->empty = 1;
		return;
	}
	if ((uint64_t)v < f->to_ns)
		f->to_ns = (uint64_t)v;
}

void sql_plan_filter(struct sql_filter *f, int idx_num, const char *idx_str, int argc, sqlite3_value **argv)
{
	int64_t lo, hi;

	if (idx_num & IDX_UNORDERED)
		f->flags |= LTT_READ_UNORDERED;
	for (int i = 0; i < argc && idx_str && idx_str[i]; i++) {
		sqlite3_value *v = argv[i];
		const char *s;

		if (sqlite3_value_type(v) == SQLITE_NULL) {	/* x = NULL, x < NULL: no row */
			f->empty = 1;
			continue;
		}
		switch (idx_str[i]) {
		case OP_TS_GE:
		case OP_TS_GT:
			if (num_bounds(v, &lo, &hi))
				set_from(f, idx_str[i] == OP_TS_GT && lo == hi && lo < INT64_MAX ? lo + 1 : lo);
			break;
		case OP_TS_LE:
		case OP_TS_LT:
			if (num_bounds(v, &lo, &hi))
				set_to(f, idx_str[i] == OP_TS_LT && lo == hi ? hi - 1 : hi);
			break;
		case OP_TS_EQ:
			if (num_bounds(v, &lo, &hi)) {
				set_from(f, lo);
				set_to(f, hi);
			}
			break;
		case OP_CPU:
			if (num_bounds(v, &lo, &hi) && lo == hi)
				f->cpu = lo < -1 || lo > 1 << 20 ? -3 : (int)lo;	/* -3: no such cpu */
			break;
		case OP_TRACE:
		case OP_TRACEFILE:
		case OP_FACILITY:
		case OP_EVENT:
			if (sqlite3_value_type(v) != SQLITE_TEXT)
				break;
			s = (const char *)sqlite3_value_text(v);
			if (idx_str[i] == OP_TRACE)
				f->trace_name = s;
			else if (idx_str[i] == OP_TRACEFILE)
				f->tracefile = s;
			else if (idx_str[i] == OP_FACILITY)
				f->facility = s;
			else
				f->event = s;
			break;
		default:
			break;
		}
	}
	if (f->from_ns > f->to_ns)
		f->empty = 1;
}
