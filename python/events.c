/* SPDX-License-Identifier: MIT */
/* Iterating a Trace: `for ev in trace` yields ltt.Event objects in merged time order, from a reader of
 * its own (pyltt.h). The names of event types, tracefiles and fields are made once per pass. */
#include <stddef.h>

#include "ptrmap.h"
#include "pyltt.h"

#include <structmember.h>

/* ---- ltt.Event ---------------------------------------------------------------------------------- */

struct pyltt_event {
	PyObject_HEAD
	PyObject *ts_ns, *cycles, *trace, *tracefile, *cpu, *facility, *event, *fields, *tid;
};

static void event_dealloc(PyObject *self)
{
	struct pyltt_event *e = (struct pyltt_event *)self;

	Py_XDECREF(e->ts_ns);
	Py_XDECREF(e->cycles);
	Py_XDECREF(e->trace);
	Py_XDECREF(e->tracefile);
	Py_XDECREF(e->cpu);
	Py_XDECREF(e->facility);
	Py_XDECREF(e->event);
	Py_XDECREF(e->fields);
	Py_XDECREF(e->tid);
	pyltt_free(self);
}

static PyObject *event_repr(PyObject *self)
{
	struct pyltt_event *e = (struct pyltt_event *)self;

	return PyUnicode_FromFormat("<ltt.Event %S.%S ts_ns=%S %S tid=%S %R>", e->facility, e->event, e->ts_ns,
				    e->tracefile, e->tid, e->fields);
}

/* ev["field"]: ev.fields["field"] */
static PyObject *event_getitem(PyObject *self, PyObject *key)
{
	return PyObject_GetItem(((struct pyltt_event *)self)->fields, key);
}

#define M(name, doc) { #name, T_OBJECT_EX, offsetof(struct pyltt_event, name), READONLY, doc }
static PyMemberDef event_members[] = {
	M(ts_ns, "real time, nanoseconds since the Epoch"),
	M(cycles, "the cycle count of the event"),
	M(trace, "the trace's path as given (a capture's member for captures)"),
	M(tracefile, "\"cpu/N\" or a control file (\"control/processes\")"),
	M(cpu, "N for cpu/N, None for a control file"),
	M(facility, "the facility's name"),
	M(event, "the event's name"),
	M(fields, "the payload as a dict (nested structs as dicts, arrays and sequences as lists)"),
	M(tid, "the event's top-level integer field tid, or None"),
	{ NULL, 0, 0, 0, NULL },
};
#undef M

PyTypeObject *pyltt_event_type;

static PyType_Slot event_slots[] = {
	{ Py_tp_dealloc, (void *)event_dealloc },
	{ Py_tp_new, (void *)pyltt_no_new },
	{ Py_tp_repr, (void *)event_repr },
	{ Py_mp_subscript, (void *)event_getitem },
	{ Py_tp_members, event_members },
	{ Py_tp_doc, (void *)"One event of a trace (ev.fields, or ev[\"field\"])" },
	{ 0, NULL },
};

static PyType_Spec event_spec = {
	.name = "ltt.Event",
	.basicsize = sizeof(struct pyltt_event),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = event_slots,
};

/* ---- the iterator ------------------------------------------------------------------------------- */

/* What a pass keeps per event type */
struct ev_type {
	PyObject *facility, *event;
	PyObject **keys;	/* top-level field names (a struct body), by index */
	uint32_t nkeys;
};

/* ... and per tracefile */
struct ev_file {
	PyObject *name, *cpu;
};

struct pyltt_iter {
	PyObject_HEAD
	struct pyltt_trace *trace;	/* a reference */
	struct ltt_reader *r;		/* NULL at the end */
	struct ptrmap types, files;
	PyObject **trace_names;		/* by trace index */
	unsigned ntraces;
};

static void free_type(void *p)
{
	struct ev_type *t = p;

	Py_XDECREF(t->facility);
	Py_XDECREF(t->event);
	for (uint32_t i = 0; i < t->nkeys; i++)
		Py_XDECREF(t->keys[i]);
	free(t->keys);
	free(t);
}

static void free_file(void *p)
{
	struct ev_file *f = p;

	Py_XDECREF(f->name);
	Py_XDECREF(f->cpu);
	free(f);
}

static void iter_end(struct pyltt_iter *it)
{
	if (it->r)
		ltt_reader_close(it->r);
	it->r = NULL;
	ptrmap_free(&it->types, free_type);
	ptrmap_free(&it->files, free_file);
	for (unsigned i = 0; it->trace_names && i < it->ntraces; i++)
		Py_XDECREF(it->trace_names[i]);
	free(it->trace_names);
	it->trace_names = NULL;
}

static void iter_dealloc(PyObject *self)
{
	struct pyltt_iter *it = (struct pyltt_iter *)self;

	iter_end(it);
	Py_XDECREF(it->trace);
	pyltt_free(self);
}

static struct ev_type *type_of(struct pyltt_iter *it, const struct ltt_event_type *ty)
{
	struct ev_type *t = ptrmap_get(&it->types, ty);
	const struct ltt_type_desc *b = ty->body;

	if (__builtin_expect(t != NULL, 1))
		return t;
	t = calloc(1, sizeof(*t));
	if (!t)
		return PyErr_NoMemory(), NULL;
	t->facility = pyltt_name(ty->facility);
	t->event = pyltt_name(ty->name);
	if (b && b->kind == LTT_TYPE_STRUCT && b->n_fields) {
		t->keys = calloc(b->n_fields, sizeof(*t->keys));
		if (t->keys) {
			t->nkeys = b->n_fields;
			for (uint32_t i = 0; i < b->n_fields; i++)
				if (!(t->keys[i] = pyltt_name(b->fields[i].name)))
					break;
		}
	}
	if (!t->facility || !t->event || (b && b->kind == LTT_TYPE_STRUCT && b->n_fields &&
					  (!t->keys || !t->keys[b->n_fields - 1])) || ptrmap_put(&it->types, ty, t)) {
		free_type(t);
		if (!PyErr_Occurred())
			PyErr_NoMemory();
		return NULL;
	}
	return t;
}

static struct ev_file *file_of(struct pyltt_iter *it, const struct ltt_tracefile_info *tf)
{
	struct ev_file *f = ptrmap_get(&it->files, tf);

	if (__builtin_expect(f != NULL, 1))
		return f;
	f = calloc(1, sizeof(*f));
	if (!f)
		return PyErr_NoMemory(), NULL;
	f->name = pyltt_name(tf->name);
	f->cpu = tf->cpu >= 0 ? PyLong_FromLong(tf->cpu) : (Py_INCREF(Py_None), Py_None);
	if (!f->name || !f->cpu || ptrmap_put(&it->files, tf, f)) {
		free_file(f);
		if (!PyErr_Occurred())
			PyErr_NoMemory();
		return NULL;
	}
	return f;
}

/* The fields of ev (a dict) and its tid (None when it has none). */
static PyObject *fields_of(const struct ltt_event *ev, struct ev_type *t, PyObject **tid)
{
	struct ltt_value body, c;
	PyObject *d, *o;
	int ret;

	*tid = NULL;
	if (ltt_event_body(ev, &body))
		return PyDict_New();
	if (body.type->kind != LTT_TYPE_STRUCT)
		return pyltt_value(&body);
	d = PyDict_New();
	for (ret = ltt_value_first(&body, &c); d && !ret; ret = ltt_value_next(&body, &c)) {
		o = pyltt_value(&c);
		if (!o || (c.index < t->nkeys ? PyDict_SetItem(d, t->keys[c.index], o) : PyDict_SetItemString(d, c.name, o))) {
			Py_XDECREF(o);
			Py_CLEAR(d);
			break;
		}
		if (!*tid && (c.type->kind == LTT_TYPE_INT || c.type->kind == LTT_TYPE_UINT) && !strcmp(c.name, "tid")) {
			*tid = o;
			Py_INCREF(o);
		}
		Py_DECREF(o);
	}
	return d;
}

static PyObject *iter_next(PyObject *self)
{
	struct pyltt_iter *it = (struct pyltt_iter *)self;
	struct pyltt_event *e;
	struct ltt_event ev;
	struct ev_type *t;
	struct ev_file *f;
	unsigned ti;
	int ret;

	if (!it->r)
		return NULL;
	ret = ltt_reader_next(it->r, &ev);
	if (ret <= 0) {
		iter_end(it);
		if (ret < 0)
			pyltt_raise_read(it->trace, ret);
		return NULL;
	}
	if (!(t = type_of(it, ev.type)) || !(f = file_of(it, ev.tracefile)))
		return NULL;
	e = PyObject_New(struct pyltt_event, pyltt_event_type);
	if (!e)
		return NULL;
	ti = ev.trace->index < it->ntraces ? ev.trace->index : 0;
	e->ts_ns = PyLong_FromUnsignedLongLong(ev.time_ns);
	e->cycles = PyLong_FromUnsignedLongLong(ev.cycles);
	e->trace = it->trace_names[ti];
	Py_INCREF(e->trace);
	e->tracefile = f->name;
	Py_INCREF(e->tracefile);
	e->cpu = f->cpu;
	Py_INCREF(e->cpu);
	e->facility = t->facility;
	Py_INCREF(e->facility);
	e->event = t->event;
	Py_INCREF(e->event);
	e->fields = fields_of(&ev, t, &e->tid);
	if (!e->tid) {
		e->tid = Py_None;
		Py_INCREF(Py_None);
	}
	if (!e->ts_ns || !e->cycles || !e->fields) {
		Py_DECREF(e);
		return NULL;
	}
	return (PyObject *)e;
}

PyTypeObject *pyltt_iter_type;

static PyType_Slot iter_slots[] = {
	{ Py_tp_dealloc, (void *)iter_dealloc },
	{ Py_tp_new, (void *)pyltt_no_new },
	{ Py_tp_iter, (void *)PyObject_SelfIter },
	{ Py_tp_iternext, (void *)iter_next },
	{ 0, NULL },
};

static PyType_Spec iter_spec = {
	.name = "ltt._ltt.EventIterator",
	.basicsize = sizeof(struct pyltt_iter),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = iter_slots,
};

int pyltt_events_init(void)
{
	pyltt_event_type = (PyTypeObject *)PyType_FromSpec(&event_spec);
	pyltt_iter_type = (PyTypeObject *)PyType_FromSpec(&iter_spec);
	return pyltt_event_type && pyltt_iter_type ? 0 : -1;
}

PyObject *pyltt_iter(PyObject *trace)
{
	struct pyltt_trace *t = (struct pyltt_trace *)trace;
	struct pyltt_iter *it = PyObject_New(struct pyltt_iter, pyltt_iter_type);

	if (!it)
		return NULL;
	memset((char *)it + sizeof(PyObject), 0, sizeof(*it) - sizeof(PyObject));
	it->trace = t;
	Py_INCREF(t);
	it->trace_names = calloc(t->ntraces ? t->ntraces : 1, sizeof(*it->trace_names));
	if (!it->trace_names) {
		Py_DECREF(it);
		return PyErr_NoMemory();
	}
	it->ntraces = t->ntraces;
	for (unsigned i = 0; i < t->ntraces; i++)
		if (!(it->trace_names[i] = pyltt_str(t->names[i], strlen(t->names[i])))) {
			Py_DECREF(it);
			return NULL;
		}
	it->r = pyltt_reader(t, 0, 1);
	if (!it->r) {
		Py_DECREF(it);
		return NULL;
	}
	return (PyObject *)it;
}
