/* SPDX-License-Identifier: MIT */
/* What no statement of an SQL session may do (toolkit/sql/sql_guard.c states the list and why): the
 * settings and the authorizer every session (`ltt sql`, `ltt export --format=rows`, Python's
 * Trace.sql()) runs under, whoever wrote its statements. */
#ifndef LTT_TOOLKIT_SQL_GUARD_H
#define LTT_TOOLKIT_SQL_GUARD_H

#include <sqlite3.h>

struct sql_ctx;

/* Turns off what reaches code or memory (fts3_tokenizer's pointers, extensions, trusted schemas) and
 * sets SQLITE_DBCONFIG_DEFENSIVE on ctx->db, before anything is declared in it: 0, or -1 (reported). */
int sql_guard_init(struct sql_ctx *ctx);
/* Installs the authorizer on ctx->db (after the session's own tables are declared): the guard's
 * refusals, then ctx->extra's when set. */
void sql_guard_set(struct sql_ctx *ctx);
/* For an extra authorizer: keeps "not authorized: WHAT" (the first refusal of the statement, for
 * sql_guard_errmsg) and returns SQLITE_DENY. */
int sql_guard_deny(struct sql_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The error of the statement that failed on ctx->db: what was refused and why when the authorizer
 * refused something (then forgotten), else sqlite3_errmsg. Valid until the next call. */
const char *sql_guard_errmsg(struct sql_ctx *ctx);

#endif
