/* SPDX-License-Identifier: MIT */
/* Trace.to_pandas() without a type: every event (of the filters) as a row, the columns of `ltt sql`'s
 * events table, fields as the JSON text `ltt dump --format=json` prints (the toolkit's JSON writer:
 * one escaper), filled in C (pyltt.h). */
#include <stdlib.h>
#include <string.h>

#include "colbuf.h"
#include "ptrmap.h"
#include "toolkit/sql.h"

/* What a pass keeps per event type: its names (shared by every row) and its JSON plan */
struct row_type {
	PyObject *facility, *event;
	struct json_plan *plan;
};

static void free_row_type(void *p)
{
	struct row_type *t = p;

	Py_XDECREF(t->facility);
	Py_XDECREF(t->event);
	json_plan_free(t->plan);
	free(t);
}

static void decref(void *p)
{
	Py_XDECREF((PyObject *)p);
}

enum { C_TS, C_CYCLES, C_TRACE, C_TRACEFILE, C_CPU, C_TID, C_FACILITY, C_EVENT, C_FIELDS, C_N };

static PyObject *shared(PyObject *o)
{
	Py_INCREF(o);
	return o;
}

PyObject *pyltt_events(PyObject *self, PyObject *noargs)
{
	static const struct { const char *name; enum colbuf_kind kind; unsigned isz; int mask; } cols[C_N] = {
		{ "ts_ns", COLBUF_INT, 8, 0 }, { "cycles", COLBUF_UINT, 8, 0 }, { "trace", COLBUF_OBJECT, 0, 0 },
		{ "tracefile", COLBUF_OBJECT, 0, 0 }, { "cpu", COLBUF_INT, 4, 0 }, { "tid", COLBUF_INT, 8, 1 },
		{ "facility", COLBUF_OBJECT, 0, 0 }, { "event", COLBUF_OBJECT, 0, 0 }, { "fields", COLBUF_OBJECT, 0, 0 },
	};
	struct pyltt_trace *t = (struct pyltt_trace *)self;
	struct ptrmap types = { 0 }, files = { 0 };
	PyObject **trace_names = NULL, *out = NULL;
	struct colset s = { 0 };
	struct ltt_reader *r;
	struct ltt_event ev;
	int ret;

	(void)noargs;
	r = pyltt_reader(t, 0, 1);
	if (!r)
		return NULL;
	for (unsigned i = 0; i < C_N; i++)
		if (colset_add(&s, cols[i].name, cols[i].kind, cols[i].isz, cols[i].mask) < 0)
			goto out;
	trace_names = calloc(t->ntraces + 1, sizeof(*trace_names));
	if (!trace_names) {
		PyErr_NoMemory();
		goto out;
	}
	for (unsigned i = 0; i < t->ntraces; i++)
		if (!(trace_names[i] = pyltt_str(t->names[i], strlen(t->names[i]))))
			goto out;
	while ((ret = ltt_reader_next(r, &ev)) == 1) {
		struct row_type *ty = ptrmap_get(&types, ev.type);
		PyObject *tf = ptrmap_get(&files, ev.tracefile);
		size_t row = s.rows, len;
		const char *json;
		int64_t tid;

		if (__builtin_expect(!ty, 0)) {
			ty = calloc(1, sizeof(*ty));
			if (!ty || !(ty->facility = pyltt_name(ev.type->facility)) ||
			    !(ty->event = pyltt_name(ev.type->name)) || ptrmap_put(&types, ev.type, ty)) {
				if (ty)
					free_row_type(ty);
				if (!PyErr_Occurred())
					PyErr_NoMemory();
				goto out;
			}
		}
		if (__builtin_expect(!tf, 0)) {
			tf = pyltt_name(ev.tracefile->name);
			if (!tf || ptrmap_put(&files, ev.tracefile, tf)) {
				Py_XDECREF(tf);
				if (!PyErr_Occurred())
					PyErr_NoMemory();
				goto out;
			}
		}
		if (colset_row(&s, 1))
			goto out;
		((int64_t *)s.cols[C_TS].data)[row] = (int64_t)ev.time_ns;
		((uint64_t *)s.cols[C_CYCLES].data)[row] = ev.cycles;
		((int32_t *)s.cols[C_CPU].data)[row] = ev.tracefile->cpu;
		if (sql_event_tid(&ev, &tid)) {
			((int64_t *)s.cols[C_TID].data)[row] = tid;
			s.cols[C_TID].mask[row] = 0;
		}
		colbuf_o(&s.cols[C_TRACE], row, shared(trace_names[ev.trace->index < t->ntraces ? ev.trace->index : 0]));
		colbuf_o(&s.cols[C_TRACEFILE], row, shared(tf));
		colbuf_o(&s.cols[C_FACILITY], row, shared(ty->facility));
		colbuf_o(&s.cols[C_EVENT], row, shared(ty->event));
		json = sql_json_fields(&ev, &ty->plan, &len);
		if (!json) {
			PyErr_Format(PyExc_MemoryError, "%s: offset %llu: the fields of %s.%s do not fit the JSON buffer",
				     ev.tracefile->name, (unsigned long long)ev.offset, ev.type->facility, ev.type->name);
			goto out;
		}
		colbuf_o(&s.cols[C_FIELDS], row, pyltt_str(json, len));
		s.rows++;
		if (__builtin_expect(PyErr_Occurred() != NULL, 0))
			goto out;
	}
	if (ret < 0) {
		pyltt_raise_read(t, ret);
		goto out;
	}
	out = colset_arrays(&s);
out:
	colset_free(&s);
	ptrmap_free(&types, free_row_type);
	ptrmap_free(&files, decref);
	for (unsigned i = 0; trace_names && i < t->ntraces; i++)
		Py_XDECREF(trace_names[i]);
	free(trace_names);
	ltt_reader_close(r);
	return out;
}
