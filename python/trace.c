/* SPDX-License-Identifier: MIT */
/* ltt.open() and the Trace object: the catalog, the filters, the problems (pyltt.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/cmd.h"
#include "pyltt.h"

PyObject *pyltt_error;

/* ---- messages of the toolkit ------------------------------------------------------------------- */

/* The toolkit reports on one line per message (ltt_tool_error): what opening a capture read, a trace
 * that could not be opened. The module takes them (ltt_tool_error_sink), collects them here while
 * they can be turned into an exception's text or Trace.notes (the GIL is held whenever the toolkit
 * runs), and prints the others on stderr as a command would. */
static PyObject *messages;

static void collect_message(const char *cmd, const char *msg)
{
	PyObject *s;

	if (!messages) {	/* outside the calls that turn them into exceptions or notes: as a command */
		fprintf(stderr, "ltt %s: %s\n", cmd, msg);
		return;
	}
	s = pyltt_str(msg, strlen(msg));
	if (s) {
		PyList_Append(messages, s);
		Py_DECREF(s);
	}
	PyErr_Clear();
}

void pyltt_collect(void)
{
	ltt_tool_error_sink = collect_message;
	Py_XDECREF(messages);
	messages = PyList_New(0);
}

PyObject *pyltt_collected(void)
{
	PyObject *sep, *s = NULL;

	if (!messages)
		return NULL;
	sep = PyUnicode_FromString("\n");
	if (sep && PyList_Size(messages))
		s = PyUnicode_Join(sep, messages);
	Py_XDECREF(sep);
	Py_CLEAR(messages);
	PyErr_Clear();
	return s;
}

const char *pyltt_utf8(PyObject *s, PyObject **keep)
{
	*keep = PyUnicode_AsUTF8String(s);
	return *keep ? PyBytes_AsString(*keep) : NULL;
}

void pyltt_free(PyObject *self)
{
	PyTypeObject *type = Py_TYPE(self);
	freefunc f = (freefunc)PyType_GetSlot(type, Py_tp_free);

	f(self);
	Py_DECREF(type);	/* a heap type: every instance holds a reference */
}

PyObject *pyltt_no_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
	(void)args;
	(void)kw;
	PyErr_Format(PyExc_TypeError, "cannot create %R instances (ltt.open makes them)", (PyObject *)type);
	return NULL;
}

PyObject *pyltt_raise_str(int ret, PyObject *msg)
{
	PyObject *keep = NULL;
	const char *m = msg ? pyltt_utf8(msg, &keep) : NULL;
	PyObject *r;

	PyErr_Clear();
	r = pyltt_raise(ret, m);
	Py_XDECREF(keep);
	return r;
}

PyObject *pyltt_raise(int ret, const char *msg)
{
	int e = ret < 0 ? -ret : ret;
	PyObject *args = Py_BuildValue("(is)", e, msg && *msg ? msg : strerror(e));

	if (args) {
		PyErr_SetObject(pyltt_error, args);
		Py_DECREF(args);
	}
	return NULL;
}

PyObject *pyltt_raise_read(struct pyltt_trace *t, int ret)
{
	Py_ssize_t n = PyList_Size(t->problems);
	PyObject *last = n > 0 ? PyTuple_GetItem(PyList_GetItem(t->problems, n - 1), 5) : NULL;

	/* the reader reported the error with its file and offset before returning it */
	return pyltt_raise_str(ret, last);
}

/* ---- problems ------------------------------------------------------------------------------------ */

static PyObject *opt_str(const char *s)
{
	if (!s)
		Py_RETURN_NONE;
	return pyltt_str(s, strlen(s));
}

void pyltt_problem(void *arg, const struct ltt_problem *p)
{
	struct pyltt_trace *t = arg;
	struct ltt_problem q = *p;
	PyObject *text, *tup;
	char buf[1024];
	int seen;

	/* passes read the catalog's directories: name the trace as the user gave it */
	if (q.trace_index < t->ntraces)
		q.trace = t->names[q.trace_index];
	ltt_problem_format(&q, buf, sizeof(buf));
	text = pyltt_str(buf, strlen(buf));
	if (!text || (seen = PySet_Contains(t->seen, text)) != 0 || PySet_Add(t->seen, text)) {
		Py_XDECREF(text);
		PyErr_Clear();
		return;
	}
	tup = Py_BuildValue("(NNLiNN)", opt_str(q.trace), opt_str(q.file), (long long)q.offset, q.line,
			    opt_str(q.what), text);
	if (tup) {
		PyList_Append(t->problems, tup);
		Py_DECREF(tup);
	}
	PyErr_Clear();
}

/* ---- readers ------------------------------------------------------------------------------------- */

struct ltt_reader *pyltt_reader(struct pyltt_trace *t, unsigned flags, int filtered)
{
	struct ltt_reader_options opt = { .flags = flags, .problem = pyltt_problem, .problem_arg = t };
	struct ltt_reader *r;
	PyObject *m;
	char err[1024];
	int ret;

	if (filtered && t->filter.all)
		opt.flags |= LTT_READ_BUILTIN;
	err[0] = 0;
	ret = ltt_reader_open(&r, t->dirs, t->ntraces, &opt, err, sizeof(err));
	if (ret)
		return pyltt_raise(ret, err), NULL;
	if (filtered) {
		pyltt_collect();
		ret = reader_filter_apply(r, &t->filter, "python", NULL, NULL);
		m = pyltt_collected();
		if (ret) {
			pyltt_raise_str(ret, m);
			ltt_reader_close(r);
			r = NULL;
		}
		Py_XDECREF(m);
	}
	return r;
}

/* ---- open ---------------------------------------------------------------------------------------- */

/* A copy of s kept by the Trace; NULL with MemoryError. */
static const char *keep(struct pyltt_trace *t, const char *s)
{
	char **v = realloc(t->strings, (t->nstrings + 1) * sizeof(*v));

	if (!v)
		return PyErr_NoMemory(), NULL;
	t->strings = v;
	if (!(v[t->nstrings] = strdup(s)))
		return PyErr_NoMemory(), NULL;
	return v[t->nstrings++];
}

/* A filter's value: None, a str, or a sequence of them (cpu: of ints). 0 or -1 (exception set). */
static int filter_list(struct pyltt_trace *t, PyObject *v, const char *name)
{
	struct reader_filter *f = &t->filter;
	PyObject *seq;
	int ret = 0;

	if (!v || v == Py_None)
		return 0;
	if (PyUnicode_Check(v) || PyLong_Check(v))
		seq = PyTuple_Pack(1, v);
	else
		seq = PySequence_Check(v) ? PySequence_Tuple(v) : NULL;
	if (!seq && !PyErr_Occurred())
		PyErr_SetString(PyExc_TypeError, "ltt.open: a filter is a value or a list of values");
	if (!seq)
		return -1;
	for (Py_ssize_t i = 0; i < PyTuple_Size(seq) && !ret; i++) {
		PyObject *o = PyTuple_GetItem(seq, i), *utf8 = NULL;
		const char *s = NULL;
		PyObject *m;
		char num[32];
		int c;

		if (!strcmp(name, "cpu")) {
			long n = PyLong_Check(o) ? PyLong_AsLong(o) : -1;

			if (n < 0 || n > 1 << 20) {
				PyErr_Clear();
				PyErr_Format(PyExc_ValueError, "ltt.open: cpu=%R: expected a CPU number", o);
				ret = -1;
				break;
			}
			snprintf(num, sizeof(num), "%ld", n);
			s = num;
			c = 'c';
		} else {
			if (!PyUnicode_Check(o)) {
				PyErr_Format(PyExc_TypeError, "ltt.open: %s=%R: expected a str or a list of str", name, o);
				ret = -1;
				break;
			}
			s = pyltt_utf8(o, &utf8);
			c = name[0] == 'f' ? 'f' : 'e';
		}
		s = s ? keep(t, s) : NULL;
		Py_XDECREF(utf8);
		if (!s) {
			ret = -1;
			break;
		}
		pyltt_collect();
		c = reader_filter_option(f, "python", c, s);
		m = pyltt_collected();
		if (c <= 0) {
			if (m)
				PyErr_Format(PyExc_ValueError, "ltt.open: %U", m);
			else
				PyErr_Format(PyExc_ValueError, "ltt.open: %s", name);
			ret = -1;
		}
		Py_XDECREF(m);
	}
	Py_DECREF(seq);
	return ret;
}

/* from_ / to: a str as `ltt dump --from` takes it, or a number of seconds since the Epoch. */
static int filter_time(struct pyltt_trace *t, PyObject *v, const char **out, const char *name)
{
	char buf[64];

	if (!v || v == Py_None)
		return 0;
	if (PyUnicode_Check(v)) {
		PyObject *utf8;
		const char *s = pyltt_utf8(v, &utf8);

		*out = s ? keep(t, s) : NULL;
		Py_XDECREF(utf8);
	} else if (PyLong_Check(v)) {
		unsigned long long s = PyLong_AsUnsignedLongLong(v);

		if (PyErr_Occurred())
			return -1;
		snprintf(buf, sizeof(buf), "%llu", s);
		*out = keep(t, buf);
	} else if (PyFloat_Check(v)) {
		double d = PyFloat_AsDouble(v);

		if (!(d >= 0 && d < 1.8e10)) {
			PyErr_Format(PyExc_ValueError, "ltt.open: %s=%R: expected seconds since the Epoch", name, v);
			return -1;
		}
		snprintf(buf, sizeof(buf), "%.9f", d);
		*out = keep(t, buf);
	} else {
		PyErr_Format(PyExc_TypeError, "ltt.open: %s=%R: expected a str (as ltt dump --%s takes it) or "
			     "seconds since the Epoch", name, v, name[0] == 'f' ? "from" : "to");
		return -1;
	}
	return *out ? 0 : -1;
}

static void trace_dealloc(PyObject *self)
{
	struct pyltt_trace *t = (struct pyltt_trace *)self;

	pyltt_sql_free(t);
	if (t->catalog)
		ltt_reader_close(t->catalog);
	for (unsigned i = 0; t->names && i < t->ntraces; i++)
		free(t->names[i]);
	free(t->names);
	free(t->dirs);
	for (unsigned i = 0; i < t->nstrings; i++)
		free(t->strings[i]);
	free(t->strings);
	Py_XDECREF(t->problems);
	Py_XDECREF(t->seen);
	pyltt_free(self);
}

PyObject *pyltt_open(PyObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "paths", "facility", "event", "cpu", "from_", "to", "all", "all_snapshots", NULL };
	PyObject *paths, *fac = NULL, *evt = NULL, *cpu = NULL, *from = NULL, *to = NULL, *seq = NULL, *notes = NULL;
	struct reader_tool tool = { .cmd = "python" };
	struct ltt_reader_options ropt;
	struct pyltt_trace *t;
	char **argv = NULL;
	Py_ssize_t n = 0;
	int all = 0, all_snapshots = 0, ret;

	(void)self;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOOOOpp:open", kwlist, &paths, &fac, &evt, &cpu, &from, &to,
					 &all, &all_snapshots))
		return NULL;
	t = PyObject_New(struct pyltt_trace, pyltt_trace_type);
	if (!t)
		return NULL;
	memset((char *)t + sizeof(PyObject), 0, sizeof(*t) - sizeof(PyObject));
	t->problems = PyList_New(0);
	t->seen = PySet_New(NULL);
	if (!t->problems || !t->seen)
		goto fail;
	t->filter.all = all;
	if (filter_list(t, fac, "facility") || filter_list(t, evt, "event") || filter_list(t, cpu, "cpu") ||
	    filter_time(t, from, &t->filter.from, "from") || filter_time(t, to, &t->filter.to, "to"))
		goto fail;
	seq = PySequence_Check(paths) ? PySequence_Tuple(paths) : NULL;
	if (!seq) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_TypeError, "ltt.open: expected paths");
		goto fail;
	}
	n = PyTuple_Size(seq);
	if (n < 1) {
		PyErr_SetString(PyExc_TypeError, "ltt.open: no trace given");
		goto fail;
	}
	argv = calloc((size_t)n, sizeof(*argv));
	if (!argv) {
		PyErr_NoMemory();
		goto fail;
	}
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *b = NULL;

		if (!PyUnicode_FSConverter(PyTuple_GetItem(seq, i), &b))
			goto fail;
		argv[i] = strdup(PyBytes_AsString(b));
		Py_DECREF(b);
		if (!argv[i]) {
			PyErr_NoMemory();
			goto fail;
		}
	}
	/* the catalog: opened as ltt dump opens its traces (captures expanded, archives unpacked) */
	memset(&ropt, 0, sizeof(ropt));
	ropt.problem = pyltt_problem;
	ropt.problem_arg = t;
	tool.capture_flags = all_snapshots ? LTT_CAPTURE_ALL_SNAPSHOTS : 0;
	pyltt_collect();
	if (!messages)
		goto fail;
	t->ntraces = 0;		/* problems of the catalog: named by the reader */
	ret = reader_tool_open(&tool, &t->catalog, argv, (unsigned)n, &ropt);
	if (ret || tool.skipped) {
		PyObject *msg = pyltt_collected();

		pyltt_raise_str(ret ? ret : -ENOENT, msg);
		Py_XDECREF(msg);
		goto fail;
	}
	notes = messages;
	messages = NULL;
	t->ntraces = ltt_reader_ntraces(t->catalog);
	t->dirs = calloc(t->ntraces + 1, sizeof(*t->dirs));
	t->names = calloc(t->ntraces + 1, sizeof(*t->names));
	if (!t->dirs || !t->names) {
		PyErr_NoMemory();
		goto fail;
	}
	for (unsigned i = 0; i < t->ntraces; i++) {
		const struct ltt_trace_info *ti = ltt_reader_trace(t->catalog, i);

		t->dirs[i] = ti->dir;
		if (!(t->names[i] = strdup(ti->path))) {
			PyErr_NoMemory();
			goto fail;
		}
	}
	for (Py_ssize_t i = 0; i < n; i++)
		free(argv[i]);
	free(argv);
	Py_DECREF(seq);
	/* a bad --from/--to is found here, before the first pass */
	{
		struct ltt_reader *r = pyltt_reader(t, 0, 1);

		if (!r) {
			Py_DECREF(notes);
			Py_DECREF(t);
			return NULL;
		}
		ltt_reader_close(r);
	}
	return Py_BuildValue("(NN)", (PyObject *)t, notes);
fail:
	Py_CLEAR(messages);
	Py_XDECREF(notes);
	for (Py_ssize_t i = 0; argv && i < n; i++)
		free(argv[i]);
	free(argv);
	Py_XDECREF(seq);
	Py_DECREF(t);
	return NULL;
}

/* ---- metadata ------------------------------------------------------------------------------------ */

static const char *const known_attrs[] = {
	"node_name", "domainname", "cpu", "arch_size", "endian", "kernel_name", "kernel_release",
	"kernel_version", "machine", "processor", "hardware_platform", "operating_system",
	"ltt_major_version", "ltt_minor_version", "ltt_block_size", "ltt_writer", "ltt_clock",
	"ltt_cycles_per_second", "ltt_start_cycles", "ltt_start_time", "ltt_mode", "ltt_program",
	"ltt_pid", "ltt_snapshot", "ltt_trigger", "ltt_trigger_time", "ltt_recovered", "ltt_chunk",
};

/* A type as (kind, size, detail): kind "int", "uint", "float", "string", "enum" (detail: the
 * labels as (name, value)), "array" (detail: (length, element)), "sequence" (detail: element),
 * "struct" and "union" (detail: the fields as (name, type)). size: the size keyword or None. */
static PyObject *type_tuple(const struct ltt_type_desc *d)
{
	static const char *const kinds[] = { "int", "uint", "float", "string", "enum", "array", "sequence",
					     "struct", "union" };
	PyObject *detail = NULL, *size;

	if (!d)
		Py_RETURN_NONE;
	switch (d->kind) {
	case LTT_TYPE_ENUM:
		detail = PyList_New(d->n_labels);
		for (uint32_t i = 0; detail && i < d->n_labels; i++)
			PyList_SetItem(detail, i, Py_BuildValue("(sK)", d->labels[i].name,
								 (unsigned long long)d->labels[i].value));
		break;
	case LTT_TYPE_ARRAY:
		detail = Py_BuildValue("(IN)", (unsigned)d->array_len, type_tuple(d->element));
		break;
	case LTT_TYPE_SEQUENCE:
		detail = type_tuple(d->element);
		break;
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		detail = PyList_New(d->n_fields);
		for (uint32_t i = 0; detail && i < d->n_fields; i++)
			PyList_SetItem(detail, i, Py_BuildValue("(sN)", d->fields[i].name,
								 type_tuple(d->fields[i].type)));
		break;
	default:
		detail = Py_None;
		Py_INCREF(detail);
	}
	if (!detail || PyErr_Occurred()) {
		Py_XDECREF(detail);
		return NULL;
	}
	size = d->kind <= LTT_TYPE_FLOAT || d->kind == LTT_TYPE_ENUM || d->kind == LTT_TYPE_SEQUENCE ||
	       d->kind == LTT_TYPE_UNION ? PyUnicode_FromString(ltt_size_name(d->size)) : (Py_INCREF(Py_None), Py_None);
	return Py_BuildValue("(sNN)", kinds[d->kind < LTT_TYPE_KIND_COUNT ? d->kind : 0], size, detail);
}

/* Trace._info(): a list, one dict per trace: path, dir, the system attributes, block_size, ...,
 * event_types [(facility, name, id, builtin, checksum, body type)], tracefiles [names]. */
static PyObject *trace_info(PyObject *self, PyObject *noargs)
{
	struct pyltt_trace *t = (struct pyltt_trace *)self;
	PyObject *list = PyList_New(t->ntraces);

	(void)noargs;
	for (unsigned i = 0; list && i < t->ntraces; i++) {
		const struct ltt_trace_info *ti = ltt_reader_trace(t->catalog, i);
		PyObject *attrs = PyDict_New(), *types = PyList_New(ti->nevent_types), *tfs = PyList_New(ti->ntracefiles);
		PyObject *d;

		for (size_t k = 0; attrs && k < sizeof(known_attrs) / sizeof(*known_attrs); k++) {
			const char *v = ltt_trace_attr(ti, known_attrs[k]);
			PyObject *s, *key;

			if (!v)
				continue;
			s = pyltt_str(v, strlen(v));
			key = PyUnicode_FromString(known_attrs[k]);
			if (!s || !key || PyDict_SetItem(attrs, key, s)) {
				Py_XDECREF(s);
				Py_XDECREF(key);
				Py_CLEAR(attrs);
				break;
			}
			Py_DECREF(s);
			Py_DECREF(key);
		}
		for (unsigned k = 0; types && k < ti->nevent_types; k++) {
			const struct ltt_event_type *et = ti->event_types[k];
			PyObject *e = Py_BuildValue("(ssIikN)", et->facility, et->name, (unsigned)et->id, (int)et->builtin,
						    (unsigned long)et->checksum, type_tuple(et->body));

			if (!e) {
				Py_CLEAR(types);
				break;
			}
			PyList_SetItem(types, k, e);
		}
		for (unsigned k = 0; tfs && k < ti->ntracefiles; k++) {
			PyObject *s = PyUnicode_FromString(ti->tracefiles[k]->name);

			if (!s) {
				Py_CLEAR(tfs);
				break;
			}
			PyList_SetItem(tfs, k, s);
		}
		if (!attrs || !types || !tfs) {
			Py_XDECREF(attrs);
			Py_XDECREF(types);
			Py_XDECREF(tfs);
			Py_CLEAR(list);
			break;
		}
		d = Py_BuildValue("{s:s,s:s,s:N,s:I,s:s,s:s,s:I,s:I,s:K,s:N,s:N}", "path", t->names[i], "dir", ti->dir,
				  "attrs", attrs, "minor_version", ti->minor_version,
				  "endian", ti->big_endian ? "big" : "little", "arch_size",
				  ltt_arch_size_name(ti->arch_size), "block_size", (unsigned)ti->block_size,
				  "ncpus", ti->ncpus, "cycles_per_second", (unsigned long long)ti->cycles_per_second,
				  "event_types", types, "tracefiles", tfs);
		if (!d) {
			Py_CLEAR(list);
			break;
		}
		PyList_SetItem(list, i, d);
	}
	return list;
}

/* Trace._counts(): per trace (events, builtin_records, lost, overwritten, overwritten_blocks), as ltt stats
 * counts them: every tracefile read through (the filters do not apply). */
static PyObject *trace_counts(PyObject *self, PyObject *noargs)
{
	struct pyltt_trace *t = (struct pyltt_trace *)self;
	struct ltt_reader *r = pyltt_reader(t, LTT_READ_UNORDERED, 0);
	struct ltt_event ev;
	PyObject *list;
	int ret;

	(void)noargs;
	if (!r)
		return NULL;
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *ti = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < ti->nevent_types; k++)
			ltt_reader_hide_event_type(r, ti->event_types[k], 1);
	}
	while ((ret = ltt_reader_next(r, &ev)) == 1)
		;
	if (ret < 0) {
		ltt_reader_close(r);
		return pyltt_raise_read(t, ret);
	}
	list = PyList_New(ltt_reader_ntraces(r));
	for (unsigned i = 0; list && i < ltt_reader_ntraces(r); i++) {
		struct ltt_counts c;
		PyObject *d;

		ltt_trace_counts(ltt_reader_trace(r, i), &c);
		d = Py_BuildValue("{s:K,s:K,s:K,s:K,s:K}", "events", (unsigned long long)c.events, "builtin_records",
				  (unsigned long long)c.builtin_records, "lost", (unsigned long long)c.lost,
				  "overwritten", (unsigned long long)c.overwritten, "overwritten_blocks",
				  (unsigned long long)c.overwritten_blocks);
		if (!d) {
			Py_CLEAR(list);
			break;
		}
		PyList_SetItem(list, i, d);
	}
	ltt_reader_close(r);
	return list;
}

static PyObject *trace_problems(PyObject *self, PyObject *noargs)
{
	(void)noargs;
	return PyList_GetSlice(((struct pyltt_trace *)self)->problems, 0, PY_SSIZE_T_MAX);
}

static PyMethodDef trace_methods[] = {
	{ "_info", trace_info, METH_NOARGS, "the traces' metadata" },
	{ "_counts", trace_counts, METH_NOARGS, "the counts of every trace, as ltt stats" },
	{ "_problems", trace_problems, METH_NOARGS, "the problems found so far" },
	{ "_columns", pyltt_columns, METH_VARARGS, "the columns of one event type" },
	{ "_events", pyltt_events, METH_NOARGS, "the columns of every event" },
	{ "_sql", pyltt_sql, METH_VARARGS, "the rows of a query" },
	{ NULL, NULL, 0, NULL },
};

PyTypeObject *pyltt_trace_type;

static PyType_Slot trace_slots[] = {
	{ Py_tp_dealloc, (void *)trace_dealloc },
	{ Py_tp_new, (void *)pyltt_no_new },
	{ Py_tp_iter, (void *)pyltt_iter },
	{ Py_tp_methods, trace_methods },
	{ Py_tp_doc, (void *)"An open trace set (ltt._ltt.open)" },
	{ 0, NULL },
};

static PyType_Spec trace_spec = {
	.name = "ltt._ltt.Trace",
	.basicsize = sizeof(struct pyltt_trace),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = trace_slots,
};

int pyltt_trace_init(void)
{
	pyltt_trace_type = (PyTypeObject *)PyType_FromSpec(&trace_spec);
	return pyltt_trace_type ? 0 : -1;
}
