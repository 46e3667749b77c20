/* SPDX-License-Identifier: MIT */
/* `ltt sql` without --save: the user's statements read; they never create or change a file
 * (tools/sql/sql_readonly.c states the rule). */
#ifndef LTT_TOOLS_SQL_READONLY_H
#define LTT_TOOLS_SQL_READONLY_H

#include <sqlite3.h>

/* Sets the authorizer on db (after the session's tables are declared). */
void sql_readonly_set(sqlite3 *db);
/* The error of the statement that failed on db: what was refused and why when the authorizer refused
 * something, else sqlite3_errmsg. */
const char *sql_readonly_errmsg(sqlite3 *db);

#endif
