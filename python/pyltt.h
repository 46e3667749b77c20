/* SPDX-License-Identifier: MIT */
/* The Python module `ltt` (doc/python.md): its C part, `ltt._ltt`, over libltt-reader and the toolkit.
 *
 * A Trace (trace.c) opens the trace set once, as `ltt dump` does (the toolkit's reader_tool_open:
 * captures, archives, several traces), and keeps that reader as its catalog: event types, system
 * attributes, the directories read (an archive is unpacked once, for the Trace's lifetime). Every
 * pass over the events (iteration, columns, counts) opens its own reader on the catalog's
 * directories with the Trace's filters applied by the toolkit (reader_filter_apply), so passes are
 * independent and may be interleaved. Problems of the traces go to Trace.problems, each once. */
#ifndef LTT_PYTHON_PYLTT_H
#define LTT_PYTHON_PYLTT_H

/* The limited API of CPython 3.8 (the stable ABI, abi3): one build imports in every CPython from 3.8 on
 * (doc/python.md). No NumPy at build time: columns are handed over as ltt._ltt.Column objects that
 * NumPy wraps without a copy through their __array_interface__ (colbuf.c). */
#define Py_LIMITED_API 0x03080000
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include <ltt/reader.h>

#include "toolkit/reader_common.h"

/* The exception of the module: ltt.Error (an OSError: errno and the message naming the file). */
extern PyObject *pyltt_error;

struct pyltt_trace {
	PyObject_HEAD
	struct ltt_reader *catalog;	/* open for the Trace's lifetime */
	unsigned ntraces;
	const char **dirs;		/* what passes open: the catalog's directories */
	char **names;			/* the traces as given (capture members expanded) */
	struct reader_filter filter;	/* the open() filters; strings in `strings` */
	char **strings;
	unsigned nstrings;
	PyObject *problems;		/* list of (trace, file, offset, line, what, text) tuples */
	PyObject *seen;			/* set of the problems' texts */
	PyObject *sql;			/* the SQL session (sql.c), a capsule; NULL until first used */
};

/* The module's types: heap types (PyType_FromSpec), made by PyInit__ltt */
extern PyTypeObject *pyltt_trace_type;
int pyltt_trace_init(void);
/* The dealloc of every type of the module: frees the object, then drops its type (a heap type). */
void pyltt_free(PyObject *self);
/* tp_new of the types the module makes itself: TypeError (no instances from Python). */
PyObject *pyltt_no_new(PyTypeObject *type, PyObject *args, PyObject *kw);
/* The UTF-8 text of a str (the limited API of 3.8 has no PyUnicode_AsUTF8): NULL with an exception; the
 * text lives as long as *keep (a bytes object the caller releases with Py_XDECREF). */
const char *pyltt_utf8(PyObject *s, PyObject **keep);

/* ltt._ltt.open(paths, facility=, event=, cpu=, from_=, to=, all=, all_snapshots=) (trace.c). */
PyObject *pyltt_open(PyObject *self, PyObject *args, PyObject *kw);

/* A reader over the Trace's directories with its filters (flags: LTT_READ_*; filtered 0 for a reader
 * of every event type). NULL with an exception set. */
struct ltt_reader *pyltt_reader(struct pyltt_trace *t, unsigned flags, int filtered);
/* The problem callback of every reader of a Trace (arg: the Trace). */
void pyltt_problem(void *arg, const struct ltt_problem *p);
/* Raises ltt.Error for an error ret of ltt_reader_next, with the problem the reader reported for it
 * (its file and offset). NULL. */
PyObject *pyltt_raise_read(struct pyltt_trace *t, int ret);
/* Collects the toolkit's messages (ltt_tool_error) from now on; pyltt_collected() stops and returns
 * them joined by newlines (NULL when none). */
void pyltt_collect(void);
PyObject *pyltt_collected(void);
/* Raises ltt.Error for a negative errno ret with the message msg (or strerror). NULL. */
PyObject *pyltt_raise(int ret, const char *msg);
/* The same with the message a str (or NULL: strerror). */
PyObject *pyltt_raise_str(int ret, PyObject *msg);

/* ---- values (values.c) ------------------------------------------------------------------------ */

/* A value of any type as a Python object (int, float, str, list, dict); NULL with an exception. */
PyObject *pyltt_value(const struct ltt_value *v);
/* A name (of a facility, event, field, tracefile, enum label) as str, made once per pass and shared by its
 * rows. Not interned: an interned str freed at the end of every pass leaves a dead entry in the
 * interpreter's table of interned strings, which grows by a MiB now and then over many passes. */
static inline PyObject *pyltt_name(const char *s)
{
	return PyUnicode_FromString(s);
}
/* A string as str (invalid UTF-8 decoded with U+FFFD, as the JSON output writes it). */
PyObject *pyltt_str(const char *s, size_t n);

/* ---- iteration (events.c) --------------------------------------------------------------------- */

extern PyTypeObject *pyltt_event_type;
extern PyTypeObject *pyltt_iter_type;
int pyltt_events_init(void);
/* iter(trace) */
PyObject *pyltt_iter(PyObject *trace);

/* ---- columns (columns.c, table.c) ------------------------------------------------------------- */

/* Trace._columns("facility.event"): (names, columns) of one event type's fields, ltt._ltt.Column
 * objects (NumPy arrays by numpy.asarray, without a copy). */
PyObject *pyltt_columns(PyObject *trace, PyObject *args);
/* Trace._events(): (names, columns) of every event, fields as JSON text. */
PyObject *pyltt_events(PyObject *trace, PyObject *args);
/* The Column type (colbuf.c): 0 or -1. */
extern PyTypeObject *pyltt_column_type;
int pyltt_column_init(void);

/* ---- SQL (sql.c) -------------------------------------------------------------------------------- */

/* Trace._sql(query): (names, rows) of the last statement's result. */
PyObject *pyltt_sql(PyObject *trace, PyObject *args);
void pyltt_sql_free(struct pyltt_trace *t);

#endif
