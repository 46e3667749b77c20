/* SPDX-License-Identifier: MIT */
/* Trace.sql("SELECT ..."): `ltt sql`'s tables in process, on the same engine (sql/sql.h): the session
 * is made on the Trace's catalog at the first query and kept for the next ones (pyltt.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pyltt.h"
#include "toolkit/sql.h"
#include "toolkit/sql_guard.h"

static struct sql_ctx *session(struct pyltt_trace *t)
{
	struct sql_ctx *ctx;
	PyObject *msg;

	if (t->sql)
		return PyCapsule_GetPointer(t->sql, "ltt.sql");
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return PyErr_NoMemory(), NULL;
	ctx->tool.cmd = "python";
	ctx->tool.silent = 1;		/* problems go to Trace.problems */
	ctx->problem = pyltt_problem;
	ctx->problem_arg = t;
	ctx->catalog = t->catalog;	/* shared: the session never closes it */
	pyltt_collect();
	if (sql_session_init(ctx)) {
		msg = pyltt_collected();
		if (msg)
			pyltt_raise_str(-EIO, msg);
		else
			pyltt_raise(-EIO, "cannot make the SQL tables");
		Py_XDECREF(msg);
		ctx->catalog = NULL;
		sql_session_free(ctx);
		free(ctx);
		return NULL;
	}
	Py_XDECREF(pyltt_collected());
	t->sql = PyCapsule_New(ctx, "ltt.sql", NULL);
	if (!t->sql) {
		ctx->catalog = NULL;
		sql_session_free(ctx);
		free(ctx);
		return NULL;
	}
	return ctx;
}

void pyltt_sql_free(struct pyltt_trace *t)
{
	struct sql_ctx *ctx;

	if (!t->sql)
		return;
	ctx = PyCapsule_GetPointer(t->sql, "ltt.sql");
	if (ctx) {
		ctx->catalog = NULL;
		sql_session_free(ctx);
		free(ctx);
	}
	Py_CLEAR(t->sql);
}

static PyObject *cell(sqlite3_stmt *st, int i)
{
	switch (sqlite3_column_type(st, i)) {
	case SQLITE_INTEGER:
		return PyLong_FromLongLong(sqlite3_column_int64(st, i));
	case SQLITE_FLOAT:
		return PyFloat_FromDouble(sqlite3_column_double(st, i));
	case SQLITE_TEXT:
		return pyltt_str((const char *)sqlite3_column_text(st, i), (size_t)sqlite3_column_bytes(st, i));
	case SQLITE_BLOB:
		return PyBytes_FromStringAndSize(sqlite3_column_blob(st, i), sqlite3_column_bytes(st, i));
	default:
		Py_RETURN_NONE;
	}
}

/* An error of the statement at offset off of text: ltt.Error "SQL: line L, column C: msg". */
static PyObject *sql_error(struct sql_ctx *ctx, const char *text, long off)
{
	long line = 1, col = 1;
	char buf[1024];

	for (long i = 0; i < off && text[i]; i++) {
		if (text[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	snprintf(buf, sizeof(buf), "SQL: line %ld, column %ld: %s", line, col, sql_guard_errmsg(ctx));
	return pyltt_raise(-EINVAL, buf);
}

PyObject *pyltt_sql(PyObject *self, PyObject *args)
{
	struct pyltt_trace *t = (struct pyltt_trace *)self;
	PyObject *names = NULL, *rows = NULL;
	struct sql_ctx *ctx;
	const char *text, *p;

	if (!PyArg_ParseTuple(args, "s", &text))
		return NULL;
	ctx = session(t);
	if (!ctx)
		return NULL;
	for (p = text; *p;) {
		sqlite3_stmt *st = NULL;
		const char *tail = NULL;
		int rc, n;

		rc = sqlite3_prepare_v2(ctx->db, p, -1, &st, &tail);
		if (rc != SQLITE_OK) {
			int off = sqlite3_error_offset(ctx->db);

			Py_XDECREF(names);
			Py_XDECREF(rows);
			return sql_error(ctx, text, (long)(p - text) + (off >= 0 ? off : 0));
		}
		if (!st)	/* only spaces or comments left */
			break;
		Py_XDECREF(names);
		Py_XDECREF(rows);
		n = sqlite3_column_count(st);
		names = PyList_New(n);
		rows = PyList_New(0);
		for (int i = 0; names && i < n; i++) {
			const char *nm = sqlite3_column_name(st, i);

			PyList_SetItem(names, i, PyUnicode_FromString(nm ? nm : ""));
		}
		while (names && rows && (rc = sqlite3_step(st)) == SQLITE_ROW) {
			PyObject *row = PyTuple_New(n);

			for (int i = 0; row && i < n; i++) {
				PyObject *c = cell(st, i);

				if (!c) {
					Py_CLEAR(row);
					break;
				}
				PyTuple_SetItem(row, i, c);
			}
			if (!row || PyList_Append(rows, row))
				Py_CLEAR(rows);
			Py_XDECREF(row);
		}
		if (!names || !rows) {
			sqlite3_finalize(st);
			Py_XDECREF(names);
			Py_XDECREF(rows);
			return NULL;
		}
		if (rc != SQLITE_DONE) {
			PyObject *e = sql_error(ctx, text, (long)(p - text));

			sqlite3_finalize(st);
			Py_DECREF(names);
			Py_DECREF(rows);
			return e;
		}
		sqlite3_finalize(st);
		p = tail;
	}
	if (!names) {
		names = PyList_New(0);
		rows = PyList_New(0);
	}
	return Py_BuildValue("(NN)", names, rows);
}
