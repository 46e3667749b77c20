/* SPDX-License-Identifier: MIT */
/* The columns of the small tables of `ltt sql` (sql_rows.h); doc/cli.md describes them. */
#include "toolkit/sql_rows.h"

#define COLS(...) (const char *const[]){ __VA_ARGS__ }
#define N(...) (sizeof((const char *const[]){ __VA_ARGS__ }) / sizeof(const char *))
#define TABLE(nm, fill_fn, decl_text, names, typs) \
	{ .name = nm, .decl = decl_text, .ncols = N names, .cols = COLS names, .types = COLS typs, .fill = fill_fn }
/* a table also read one row at a time (sql_rows.h) */
#define STREAMED(nm, fill_fn, decl_text, names, typs, open_fn, next_fn, close_fn) \
	{ .name = nm, .decl = decl_text, .ncols = N names, .cols = COLS names, .types = COLS typs, .fill = fill_fn, \
	  .open = open_fn, .next = next_fn, .close = close_fn }
/* ... that also takes constraints on its tid column and on ts_ns (struct sql_push) */
#define PUSHED(nm, fill_fn, decl_text, names, typs, open_fn, next_fn, close_fn, tid) \
	{ .name = nm, .decl = decl_text, .ncols = N names, .cols = COLS names, .types = COLS typs, .fill = fill_fn, \
	  .open = open_fn, .next = next_fn, .close = close_fn, .tid_col = tid, .ts_push = 1 }

const struct sql_rows_def sql_rows_defs[] = {
	STREAMED("regions", sql_fill_regions,
	      "CREATE TABLE regions(ts_ns INTEGER, dur_ns INTEGER, tid INTEGER, thread TEXT, category TEXT, "
	      "label TEXT, depth INTEGER, parent_id INTEGER, id INTEGER, self_ns INTEGER, trace TEXT, open INTEGER, "
	      "msg TEXT, cut INTEGER)",
	      ("ts_ns", "dur_ns", "tid", "thread", "category", "label", "depth", "parent_id", "id", "self_ns",
	       "trace", "open", "msg", "cut"),
	      ("INTEGER", "INTEGER", "INTEGER", "TEXT", "TEXT", "TEXT", "INTEGER", "INTEGER", "INTEGER",
	       "INTEGER", "TEXT", "INTEGER", "TEXT", "INTEGER"),
	      sql_regions_open, sql_regions_next, sql_regions_close),
	TABLE("threads", sql_fill_threads,
	      "CREATE TABLE threads(trace TEXT, tid INTEGER, pid INTEGER, name TEXT, start_ns INTEGER, "
	      "end_ns INTEGER, events INTEGER, process TEXT, trace2_name TEXT, names TEXT)",
	      ("trace", "tid", "pid", "name", "start_ns", "end_ns", "events", "process", "trace2_name", "names"),
	      ("TEXT", "INTEGER", "INTEGER", "TEXT", "INTEGER", "INTEGER", "INTEGER", "TEXT", "TEXT", "TEXT")),
	TABLE("processes", sql_fill_processes,
	      "CREATE TABLE processes(trace TEXT, pid INTEGER, ppid INTEGER, name TEXT, sid TEXT, exe TEXT, "
	      "ts_ns INTEGER)",
	      ("trace", "pid", "ppid", "name", "sid", "exe", "ts_ns"),
	      ("TEXT", "INTEGER", "INTEGER", "TEXT", "TEXT", "TEXT", "INTEGER")),
	TABLE("lost", sql_fill_lost,
	      "CREATE TABLE lost(ts_ns INTEGER, trace TEXT, tracefile TEXT, count INTEGER, cause TEXT, "
	      "from_ns INTEGER)",
	      ("ts_ns", "trace", "tracefile", "count", "cause", "from_ns"),
	      ("INTEGER", "TEXT", "TEXT", "INTEGER", "TEXT", "INTEGER")),
	TABLE("traces", sql_fill_traces,
	      "CREATE TABLE traces(name TEXT, host TEXT, start_ns INTEGER, end_ns INTEGER, events INTEGER, "
	      "lost INTEGER)",
	      ("name", "host", "start_ns", "end_ns", "events", "lost"),
	      ("TEXT", "TEXT", "INTEGER", "INTEGER", "INTEGER", "INTEGER")),
	PUSHED("thread_states", sql_fill_thread_states,
	      "CREATE TABLE thread_states(ts_ns INTEGER, end_ns INTEGER, dur_ns INTEGER, tid INTEGER, pid INTEGER, "
	      "cpu INTEGER, state TEXT, cause TEXT, trace TEXT)",
	      ("ts_ns", "end_ns", "dur_ns", "tid", "pid", "cpu", "state", "cause", "trace"),
	      ("INTEGER", "INTEGER", "INTEGER", "INTEGER", "INTEGER", "INTEGER", "TEXT", "TEXT", "TEXT"),
	      sql_thread_states_open, sql_sched_next, sql_sched_close, 3),
	PUSHED("syscalls", sql_fill_syscalls,
	      "CREATE TABLE syscalls(ts_ns INTEGER, end_ns INTEGER, dur_ns INTEGER, tid INTEGER, pid INTEGER, "
	      "cpu INTEGER, nr INTEGER, name TEXT, ret INTEGER, trace TEXT)",
	      ("ts_ns", "end_ns", "dur_ns", "tid", "pid", "cpu", "nr", "name", "ret", "trace"),
	      ("INTEGER", "INTEGER", "INTEGER", "INTEGER", "INTEGER", "INTEGER", "INTEGER", "TEXT", "INTEGER",
	       "TEXT"),
	      sql_syscalls_open, sql_sched_next, sql_sched_close, 3),
	PUSHED("io", sql_fill_io,
	      "CREATE TABLE io(ts_ns INTEGER, end_ns INTEGER, dur_ns INTEGER, tid INTEGER, pid INTEGER, fd INTEGER, "
	      "handle INTEGER, file TEXT, op TEXT, name TEXT, bytes INTEGER, ret INTEGER, trace TEXT)",
	      ("ts_ns", "end_ns", "dur_ns", "tid", "pid", "fd", "handle", "file", "op", "name", "bytes", "ret",
	       "trace"),
	      ("INTEGER", "INTEGER", "INTEGER", "INTEGER", "INTEGER", "INTEGER", "INTEGER", "TEXT", "TEXT", "TEXT",
	       "INTEGER", "INTEGER", "TEXT"),
	      sql_io_open, sql_io_next, sql_io_close, 3),
	PUSHED("calls", sql_fill_calls,
	      "CREATE TABLE calls(ts_ns INTEGER, dur_ns INTEGER, tid INTEGER, function TEXT, depth INTEGER, "
	      "self_ns INTEGER, caller TEXT, unfinished INTEGER, trace TEXT, cut INTEGER, off_cpu_ns INTEGER, "
	      "blocked_ns INTEGER, args TEXT, retval TEXT)",
	      ("ts_ns", "dur_ns", "tid", "function", "depth", "self_ns", "caller", "unfinished", "trace", "cut",
	       "off_cpu_ns", "blocked_ns", "args", "retval"),
	      ("INTEGER", "INTEGER", "INTEGER", "TEXT", "INTEGER", "INTEGER", "TEXT", "INTEGER", "TEXT",
	       "INTEGER", "INTEGER", "INTEGER", "TEXT", "TEXT"),
	      sql_calls_open, sql_calls_next, sql_calls_close, 2),
	STREAMED("spans", sql_fill_spans,
	      "CREATE TABLE spans(ts_ns INTEGER, end_ns INTEGER, dur_ns INTEGER, tid INTEGER, end_tid INTEGER, "
	      "facility TEXT, name TEXT, key TEXT, open INTEGER, begin_fields TEXT, end_fields TEXT, id INTEGER, "
	      "trace TEXT, cut INTEGER)",
	      ("ts_ns", "end_ns", "dur_ns", "tid", "end_tid", "facility", "name", "key", "open", "begin_fields",
	       "end_fields", "id", "trace", "cut"),
	      ("INTEGER", "INTEGER", "INTEGER", "INTEGER", "INTEGER", "TEXT", "TEXT", "TEXT", "INTEGER", "TEXT",
	       "TEXT", "INTEGER", "TEXT", "INTEGER"),
	      sql_spans_open, sql_spans_next, sql_spans_close),
	{ 0 },
};
