/* SPDX-License-Identifier: MIT */
/* `ltt sql` without --save: the user's statements read; they never create or change a file
 * (tools/sql/sql_readonly.c states the rule). */
#ifndef LTT_TOOLS_SQL_READONLY_H
#define LTT_TOOLS_SQL_READONLY_H

#include "toolkit/sql.h"

/* Adds the read-only rules to the session's authorizer (sql_guard_errmsg says what they refused). */
void sql_readonly_set(struct sql_ctx *ctx);

#endif
