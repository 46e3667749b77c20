/* SPDX-License-Identifier: MIT */
/* Columns filled in C (colbuf.h), handed over as ltt._ltt.Column objects.
 *
 * A Column owns the column's memory (malloc'd, filled in place) and describes it by NumPy's array
 * interface (__array_interface__, version 3: shape, typestr, data address): numpy.asarray(column) makes
 * an ndarray over that memory without a copy, its base the Column, with the user's own NumPy of any
 * version, and nothing of NumPy is needed to build or import the module. The buffer protocol would do
 * the same but is in the limited API only from 3.11, and this module is built for 3.8 on (pyltt.h).
 * An object column holds one reference per row (None where no value): NumPy's object arrays over it
 * decrement what they replace and increment what they store, as the Column does when freed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "colbuf.h"

/* NumPy's typestr of a column: byte order, kind, bytes (native order) */
static const char *typestr_of(enum colbuf_kind k, unsigned isz)
{
	static const char *const ints[] = { "|i1", "=i2", "=i4", "=i8" }, *const uints[] = { "|u1", "=u2", "=u4", "=u8" };
	unsigned i = isz == 1 ? 0 : isz == 2 ? 1 : isz == 4 ? 2 : 3;

	switch (k) {
	case COLBUF_INT:
		return ints[i];
	case COLBUF_UINT:
		return uints[i];
	case COLBUF_FLOAT:
		return isz == 4 ? "=f4" : "=f8";
	default:
		return "|O";
	}
}

/* ---- ltt._ltt.Column ---------------------------------------------------------------------------- */

struct pyltt_column {
	PyObject_HEAD
	char *data;			/* owned; never NULL (one byte at least: NumPy takes no NULL address) */
	Py_ssize_t rows;
	const char *typestr;
	int objects;			/* data holds rows references */
};

PyTypeObject *pyltt_column_type;

static void column_dealloc(PyObject *self)
{
	struct pyltt_column *c = (struct pyltt_column *)self;

	if (c->objects)
		for (Py_ssize_t i = 0; i < c->rows; i++)
			Py_XDECREF(((PyObject **)c->data)[i]);
	free(c->data);
	pyltt_free(self);
}

static PyObject *column_interface(PyObject *self, void *closure)
{
	struct pyltt_column *c = (struct pyltt_column *)self;

	(void)closure;
	return Py_BuildValue("{s:(n),s:s,s:(NO),s:i}", "shape", c->rows, "typestr", c->typestr, "data",
			     PyLong_FromVoidPtr(c->data), Py_False, "version", 3);
}

static Py_ssize_t column_len(PyObject *self)
{
	return ((struct pyltt_column *)self)->rows;
}

static PyObject *column_typestr(PyObject *self, void *closure)
{
	(void)closure;
	return PyUnicode_FromString(((struct pyltt_column *)self)->typestr);
}

static PyGetSetDef column_getset[] = {
	{ "__array_interface__", column_interface, NULL, "NumPy's array interface of the column (numpy.asarray)", NULL },
	{ "typestr", column_typestr, NULL, "the values' type as NumPy names it (\"=i8\", \"|O\", ...)", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyType_Slot column_slots[] = {
	{ Py_tp_dealloc, (void *)column_dealloc },
	{ Py_tp_new, (void *)pyltt_no_new },
	{ Py_tp_getset, column_getset },
	{ Py_sq_length, (void *)column_len },
	{ Py_tp_doc, (void *)"A column of a trace's events filled in C: numpy.asarray(column) wraps it without a copy" },
	{ 0, NULL },
};

static PyType_Spec column_spec = {
	.name = "ltt._ltt.Column",
	.basicsize = sizeof(struct pyltt_column),
	.flags = Py_TPFLAGS_DEFAULT,
	.slots = column_slots,
};

int pyltt_column_init(void)
{
	pyltt_column_type = (PyTypeObject *)PyType_FromSpec(&column_spec);
	return pyltt_column_type ? 0 : -1;
}

/* A Column over data (rows values of typestr; objects: references), which it takes (freed on failure). */
static PyObject *column_new(char *data, size_t rows, const char *typestr, int objects)
{
	struct pyltt_column *c = PyObject_New(struct pyltt_column, pyltt_column_type);

	if (!c) {
		if (objects)
			for (size_t i = 0; i < rows; i++)
				Py_XDECREF(((PyObject **)data)[i]);
		free(data);
		return NULL;
	}
	c->data = data;
	c->rows = (Py_ssize_t)rows;
	c->typestr = typestr;
	c->objects = objects;
	return (PyObject *)c;
}

int colset_add(struct colset *s, const char *name, enum colbuf_kind kind, unsigned isz, int with_mask)
{
	struct colbuf *n = realloc(s->cols, (s->ncols + 1) * sizeof(*n)), *c;

	if (!n)
		return PyErr_NoMemory(), -1;
	s->cols = n;
	c = &n[s->ncols];
	memset(c, 0, sizeof(*c));
	if (kind == COLBUF_OBJECT)
		isz = sizeof(PyObject *);
	else if (kind == COLBUF_FLOAT)
		isz = isz == 4 ? 4 : 8;
	else if (isz != 1 && isz != 2 && isz != 4)
		isz = 8;
	c->kind = kind;
	c->isz = isz;
	s->nobjects += kind == COLBUF_OBJECT;
	c->typestr = typestr_of(kind, isz);
	c->name = strdup(name);
	if (!c->name)
		return PyErr_NoMemory(), -1;
	if (s->cap) {
		c->data = calloc(s->cap, isz);
		if (with_mask)
			c->mask = calloc(s->cap, 1);
		if (!c->data || (with_mask && !c->mask)) {
			free(c->name);
			free(c->data);
			free(c->mask);
			return PyErr_NoMemory(), -1;
		}
		if (kind == COLBUF_FLOAT)	/* the rows before: no value */
			for (size_t r = 0; r < s->rows; r++)
				colbuf_f(c, r, NAN);
		if (c->mask)
			memset(c->mask, 1, s->rows);
	} else if (with_mask) {
		c->mask = malloc(1);	/* marks it; grown with the rows */
		if (!c->mask) {
			free(c->name);
			return PyErr_NoMemory(), -1;
		}
	}
	return (int)s->ncols++;
}

int colset_find(const struct colset *s, const char *name)
{
	for (unsigned i = 0; i < s->ncols; i++)
		if (!strcasecmp(s->cols[i].name, name))	/* as ltt sql's names (toolkit/colname.h) */
			return (int)i;
	return -1;
}

int colset_reserve(struct colset *s, size_t rows)
{
	{
		size_t ncap = rows > s->cap ? rows : s->cap;

		for (unsigned i = 0; i < s->ncols; i++) {
			struct colbuf *c = &s->cols[i];
			char *d = realloc(c->data, ncap * c->isz);

			if (!d)
				return PyErr_NoMemory(), -1;
			c->data = d;
			if (c->mask) {
				unsigned char *m = realloc(c->mask, ncap);

				if (!m)
					return PyErr_NoMemory(), -1;
				c->mask = m;
			}
		}
		s->cap = ncap;
	}
	return 0;
}

int colset_grow(struct colset *s)
{
	return colset_reserve(s, s->cap ? s->cap * 2 : 4096);
}

void colset_clear_objects(struct colset *s)
{
	for (unsigned i = 0; i < s->ncols; i++)
		if (s->cols[i].kind == COLBUF_OBJECT)
			((PyObject **)s->cols[i].data)[s->rows] = NULL;
}

void colset_defaults(struct colset *s)
{
	size_t row = s->rows;

	for (unsigned i = 0; i < s->ncols; i++) {
		struct colbuf *c = &s->cols[i];

		switch (c->kind) {
		case COLBUF_FLOAT:
			colbuf_f(c, row, NAN);
			break;
		case COLBUF_OBJECT:
			break;	/* NULL (colset_row): None when handed over */
		default:
			memset(c->data + row * c->isz, 0, c->isz);
		}
		if (c->mask)
			c->mask[row] = 1;
	}
}

void colbuf_o(struct colbuf *c, size_t row, PyObject *v)
{
	PyObject **o;

	if (!v)
		return;
	if (c->kind != COLBUF_OBJECT) {
		if (PyFloat_Check(v))
			colbuf_f(c, row, PyFloat_AsDouble(v));
		else if (PyLong_Check(v))
			colbuf_i(c, row, PyLong_AsLongLong(v));
		PyErr_Clear();
		Py_DECREF(v);
		return;
	}
	o = &((PyObject **)c->data)[row];
	Py_XDECREF(*o);
	*o = v;
}

/* The column as a Column of rows values; takes its data. */
static PyObject *to_column(struct colbuf *c, size_t rows)
{
	char *d;

	if (c->kind == COLBUF_OBJECT) {
		PyObject **v = (PyObject **)c->data;

		for (size_t i = 0; v && i < rows; i++)
			if (!v[i]) {
				Py_INCREF(Py_None);
				v[i] = Py_None;
			}
	}
	d = realloc(c->data, rows ? rows * c->isz : 1);	/* the room not filled given back */
	if (!d && !rows)
		return PyErr_NoMemory();
	if (d)
		c->data = d;
	d = c->data;
	c->data = NULL;
	return column_new(d, rows, c->typestr, c->kind == COLBUF_OBJECT);
}

PyObject *colset_arrays(struct colset *s)
{
	PyObject *names = PyList_New(s->ncols), *arrays = PyList_New(s->ncols);

	for (unsigned i = 0; names && arrays && i < s->ncols; i++) {
		struct colbuf *c = &s->cols[i];
		PyObject *a = to_column(c, s->rows), *m, *name;

		if (a && c->mask) {
			m = column_new((char *)c->mask, s->rows, "|b1", 0);
			c->mask = NULL;
			a = m ? Py_BuildValue("(NN)", a, m) : (Py_DECREF(a), NULL);
		}
		name = PyUnicode_FromString(c->name);
		if (!a || !name) {
			Py_XDECREF(a);
			Py_XDECREF(name);
			Py_CLEAR(names);
			break;
		}
		PyList_SetItem(names, i, name);
		PyList_SetItem(arrays, i, a);
	}
	colset_free(s);
	if (!names || !arrays) {
		Py_XDECREF(names);
		Py_XDECREF(arrays);
		return NULL;
	}
	return Py_BuildValue("(NN)", names, arrays);
}

void colset_free(struct colset *s)
{
	for (unsigned i = 0; i < s->ncols; i++) {
		struct colbuf *c = &s->cols[i];

		if (c->kind == COLBUF_OBJECT && c->data)
			for (size_t r = 0; r < s->rows; r++)
				Py_XDECREF(((PyObject **)c->data)[r]);
		free(c->data);
		free(c->mask);
		free(c->name);
	}
	free(s->cols);
	memset(s, 0, sizeof(*s));
}
