/* SPDX-License-Identifier: MIT */
/* Columns filled in C, one value per row, handed over at the end as ltt._ltt.Column objects that NumPy
 * wraps without a copy (numbers, and object columns of str, list, dict): colbuf.c. */
#ifndef LTT_PYTHON_COLBUF_H
#define LTT_PYTHON_COLBUF_H

#include "pyltt.h"

enum colbuf_kind { COLBUF_INT, COLBUF_UINT, COLBUF_FLOAT, COLBUF_OBJECT };

struct colbuf {
	char *name;
	enum colbuf_kind kind;
	unsigned isz;			/* bytes per value: 1, 2, 4, 8 (COLBUF_OBJECT: a pointer) */
	const char *typestr;		/* NumPy's name of the type (the array interface's typestr) */
	char *data;			/* cap values */
	unsigned char *mask;		/* with_mask: 1 where the row has no value (else NULL) */
};

struct colset {
	struct colbuf *cols;
	unsigned ncols;
	size_t rows, cap;		/* rows filled; room for cap */
	unsigned nobjects;		/* object columns */
};

/* Adds a column (name copied); its index, or -1 with MemoryError. */
int colset_add(struct colset *s, const char *name, enum colbuf_kind kind, unsigned isz, int with_mask);
/* The index of the column called name, or -1. */
int colset_find(const struct colset *s, const char *name);
/* Makes room for row s->rows, with every column's default value written when defaults is set (0, NaN,
 * masked; object columns are always None until filled). 0 or -1 with MemoryError. The caller
 * fills the row, then s->rows++. */
int colset_grow(struct colset *s);
/* Room for rows rows at least (0 or -1 with MemoryError); pages not written stay unmapped. */
int colset_reserve(struct colset *s, size_t rows);
void colset_defaults(struct colset *s);
void colset_clear_objects(struct colset *s);

static inline int colset_row(struct colset *s, int defaults)
{
	if (__builtin_expect(s->rows == s->cap, 0) && colset_grow(s))
		return -1;
	if (s->nobjects)	/* the slots of a new row are never left undefined */
		colset_clear_objects(s);
	if (defaults)
		colset_defaults(s);
	return 0;
}

static inline void colbuf_i(struct colbuf *c, size_t row, int64_t v)
{
	switch (c->kind) {
	case COLBUF_FLOAT:
		if (c->isz == 4)
			((float *)c->data)[row] = (float)v;
		else
			((double *)c->data)[row] = (double)v;
		return;
	case COLBUF_OBJECT: {
		PyObject **o = &((PyObject **)c->data)[row], *n = PyLong_FromLongLong(v);

		if (n) {
			Py_XDECREF(*o);
			*o = n;
		}
		return;
	}
	default:
		switch (c->isz) {
		case 1: ((int8_t *)c->data)[row] = (int8_t)v; return;
		case 2: ((int16_t *)c->data)[row] = (int16_t)v; return;
		case 4: ((int32_t *)c->data)[row] = (int32_t)v; return;
		default: ((int64_t *)c->data)[row] = v; return;
		}
	}
}

static inline void colbuf_u(struct colbuf *c, size_t row, uint64_t v)
{
	if (c->kind == COLBUF_FLOAT) {
		if (c->isz == 4)
			((float *)c->data)[row] = (float)v;
		else
			((double *)c->data)[row] = (double)v;
	} else if (c->kind == COLBUF_OBJECT) {
		PyObject **o = &((PyObject **)c->data)[row], *n = PyLong_FromUnsignedLongLong(v);

		if (n) {
			Py_XDECREF(*o);
			*o = n;
		}
	} else {
		colbuf_i(c, row, (int64_t)v);
	}
}

static inline void colbuf_f(struct colbuf *c, size_t row, double v)
{
	if (c->kind == COLBUF_FLOAT) {
		if (c->isz == 4)
			((float *)c->data)[row] = (float)v;
		else
			((double *)c->data)[row] = v;
	} else if (c->kind == COLBUF_OBJECT) {
		PyObject **o = &((PyObject **)c->data)[row], *n = PyFloat_FromDouble(v);

		if (n) {
			Py_XDECREF(*o);
			*o = n;
		}
	} else {
		colbuf_i(c, row, (int64_t)v);
	}
}

/* Stores a new reference (stolen) into an object column; another column gets its number (or 0). */
void colbuf_o(struct colbuf *c, size_t row, PyObject *v);

/* (names, columns): the columns as Column objects (masked ones as (values, mask) tuples); s is emptied.
 * NULL with an exception. */
PyObject *colset_arrays(struct colset *s);
void colset_free(struct colset *s);

#endif
