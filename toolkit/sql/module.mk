# SPDX-License-Identifier: MIT
# toolkit/sql: the SQL table engine (SQLite virtual tables over a trace set: the events table, one table
# per event type, regions, threads, processes, lost, traces, calls; toolkit/sql.h), shared by `ltt sql`
# (tools/sql/), `ltt export --format=rows` and the Python module's Trace.sql() (python/). Whoever
# links it adds SQLITE_LIBS.
$(call obj,$(wildcard toolkit/sql/*.c)): CPPFLAGS += $(SQLITE_CFLAGS)
