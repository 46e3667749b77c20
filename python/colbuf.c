/* SPDX-License-Identifier: MIT */
/* Columns filled in C (colbuf.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL pyltt_ARRAY_API
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include "colbuf.h"

static int npy_of(enum colbuf_kind k, unsigned isz)
{
	switch (k) {
	case COLBUF_INT:
		return isz == 1 ? NPY_INT8 : isz == 2 ? NPY_INT16 : isz == 4 ? NPY_INT32 : NPY_INT64;
	case COLBUF_UINT:
		return isz == 1 ? NPY_UINT8 : isz == 2 ? NPY_UINT16 : isz == 4 ? NPY_UINT32 : NPY_UINT64;
	case COLBUF_FLOAT:
		return isz == 4 ? NPY_FLOAT32 : NPY_FLOAT64;
	default:
		return NPY_OBJECT;
	}
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
	c->npy = npy_of(kind, isz);
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
			colbuf_f(c, row, PyFloat_AS_DOUBLE(v));
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

static void free_data(PyObject *cap)
{
	free(PyCapsule_GetPointer(cap, "ltt.colbuf"));
}

/* The column as an ndarray of s->rows values; takes its data. */
static PyObject *to_array(struct colbuf *c, size_t rows)
{
	npy_intp n = (npy_intp)rows;
	PyObject *a, *cap;

	if (c->kind == COLBUF_OBJECT) {
		PyObject **v = (PyObject **)c->data;

		a = PyArray_SimpleNew(1, &n, NPY_OBJECT);
		if (!a)
			return NULL;
		for (size_t i = 0; i < rows; i++) {
			PyObject **slot = (PyObject **)PyArray_GETPTR1((PyArrayObject *)a, (npy_intp)i);
			PyObject *o = v && v[i] ? v[i] : (Py_INCREF(Py_None), Py_None);

			Py_XDECREF(*slot);
			*slot = o;	/* the reference moves */
			if (v)
				v[i] = NULL;
		}
		return a;
	}
	if (!c->data || !rows) {
		free(c->data);
		c->data = NULL;
		return PyArray_SimpleNew(1, &n, c->npy);
	}
	{
		char *d = realloc(c->data, rows * c->isz);

		if (d)
			c->data = d;
	}
	a = PyArray_SimpleNewFromData(1, &n, c->npy, c->data);
	if (!a)
		return NULL;
	cap = PyCapsule_New(c->data, "ltt.colbuf", free_data);
	if (!cap || PyArray_SetBaseObject((PyArrayObject *)a, cap)) {
		Py_XDECREF(cap);
		Py_DECREF(a);
		return NULL;
	}
	c->data = NULL;
	return a;
}

PyObject *colset_arrays(struct colset *s)
{
	PyObject *names = PyList_New(s->ncols), *arrays = PyList_New(s->ncols);

	for (unsigned i = 0; names && arrays && i < s->ncols; i++) {
		struct colbuf *c = &s->cols[i];
		PyObject *a = to_array(c, s->rows), *m = NULL;

		if (a && c->mask) {
			npy_intp n = (npy_intp)s->rows;

			m = PyArray_SimpleNew(1, &n, NPY_BOOL);
			if (m) {
				if (s->rows)
					memcpy(PyArray_DATA((PyArrayObject *)m), c->mask, s->rows);
				a = Py_BuildValue("(NN)", a, m);
			} else {
				Py_CLEAR(a);
			}
		}
		if (!a) {
			Py_CLEAR(names);
			break;
		}
		PyList_SET_ITEM(names, i, PyUnicode_FromString(c->name));
		PyList_SET_ITEM(arrays, i, a);
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
