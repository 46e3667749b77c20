/* SPDX-License-Identifier: MIT */
/* Trace.to_numpy("facility.event"): one column per field of an event type, filled in C (pyltt.h).
 *
 * The columns are those of `ltt sql`'s table of the type: nested structs flattened (`a_b`), a field
 * named like ts_ns gets a `_`; integers as the NumPy integer of their size (short, medium and long:
 * 64 bits), floats as float32/float64, enums as their label (an object array holding one str per
 * label, the number when no label has the value), strings, arrays, sequences and unions as object
 * arrays of Python values. When the traces of a set describe the type differently, the columns are
 * the union of theirs, by name (rows without the column: 0, NaN or None). A body of fixed size whose
 * leaves are all numbers is read at offsets computed once per type, without walking it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "colbuf.h"
#include "toolkit/colname.h"
#include "ptrmap.h"

/* One leaf of a type's flattening, in body order */
struct leaf {
	int col;			/* column index */
	const struct ltt_type_desc *type;
	uint32_t off;			/* fixed plans: the leaf's offset in the payload */
	uint8_t bytes;			/* its encoded size */
	uint8_t raw;			/* its bits go to the column as they are (same kind and size) */
};

struct plan {
	struct leaf *leaves;
	unsigned n, cap;
	int fixed;			/* every leaf a number at a constant offset */
	int full;			/* every column but ts_ns is one of its leaves */
	uint32_t need;			/* payload bytes a fixed plan reads */
	enum ltt_arch_size arch;
};

static void free_plan(void *p)
{
	struct plan *pl = p;

	free(pl->leaves);
	free(pl);
}

static enum colbuf_kind kind_of(const struct ltt_type_desc *t, unsigned *isz)
{
	static const unsigned fixed_bytes[] = { 1, 2, 4, 8 };

	*isz = t->size < 4 ? fixed_bytes[t->size] : 8;
	switch (t->kind) {
	case LTT_TYPE_INT: return COLBUF_INT;
	case LTT_TYPE_UINT: return COLBUF_UINT;
	case LTT_TYPE_FLOAT:
		*isz = ltt_float_bytes(t->size);
		return COLBUF_FLOAT;
	default: return COLBUF_OBJECT;
	}
}

static const char *const lead[] = { "ts_ns" };

struct leaf_taken {
	const struct colset *s;
	const struct plan *p;
	enum colbuf_kind kind;
	unsigned isz;
};

/* Whether name is the column of an earlier leaf of this plan, or a column (of another trace's layout)
 * holding values of another kind or size: one field never lands in another's narrower column. */
static int leaf_taken(void *arg, const char *name)
{
	const struct leaf_taken *a = arg;
	int col = colset_find(a->s, name);
	const struct colbuf *c;
	unsigned isz;

	if (col < 0)
		return 0;
	for (unsigned i = 0; i < a->p->n; i++)
		if (a->p->leaves[i].col == col)
			return 1;
	c = &a->s->cols[col];
	isz = a->kind == COLBUF_FLOAT ? (a->isz == 4 ? 4 : 8) : a->kind == COLBUF_OBJECT ? a->isz
	      : (a->isz == 1 || a->isz == 2 || a->isz == 4 ? a->isz : 8);
	return c->kind != a->kind || c->isz != isz;
}

static int add_leaf(struct colset *s, struct plan *p, const char *name, const struct ltt_type_desc *t, uint32_t off)
{
	char buf[512];
	unsigned isz;
	enum colbuf_kind k = kind_of(t, &isz);
	int col;

	if (LTT_GROW(p->leaves, p->n + 1, p->cap))
		return PyErr_NoMemory(), -1;
	/* unique within the type, and never a column of another kind or size (toolkit/colname.h) */
	if (colname_make(buf, sizeof(buf), name, lead, 1, leaf_taken,
			 &(struct leaf_taken){ s, p, k, k == COLBUF_OBJECT ? sizeof(PyObject *) : isz })) {
		PyErr_Format(PyExc_ValueError, "field %s: its column name is too long", name);
		return -1;
	}
	col = colset_find(s, buf);
	if (col < 0 && (col = colset_add(s, buf, k, isz, 0)) < 0)
		return -1;
	p->leaves[p->n].col = col;
	p->leaves[p->n].type = t;
	p->leaves[p->n].off = off;
	p->leaves[p->n].bytes = (uint8_t)(t->kind == LTT_TYPE_FLOAT ? ltt_float_bytes(t->size) :
					  ltt_size_bytes(t->size, p->arch));
	p->n++;
	if (t->kind > LTT_TYPE_FLOAT && t->kind != LTT_TYPE_ENUM)
		p->fixed = 0;
	return 0;
}

/* Flattens a struct into leaves named prefix_field, offsets from off. */
static int flatten(struct colset *s, struct plan *p, const char *prefix, const struct ltt_type_desc *t, uint32_t off)
{
	for (uint32_t i = 0; i < t->n_fields; i++) {
		const struct ltt_field_desc *f = &t->fields[i];
		char name[512];
		int rc;

		snprintf(name, sizeof(name), "%s%s%s", prefix, *prefix ? "_" : "", f->name);
		if (f->type->kind == LTT_TYPE_STRUCT)
			rc = flatten(s, p, name, f->type, off);
		else
			rc = add_leaf(s, p, name, f->type, off);
		if (rc)
			return rc;
		off += f->type->fixed_size[p->arch];
	}
	return 0;
}

static struct plan *make_plan(struct colset *s, const struct ltt_trace_info *ti, const struct ltt_event_type *et)
{
	struct plan *p = calloc(1, sizeof(*p));

	if (!p)
		return PyErr_NoMemory(), NULL;
	p->arch = ti->arch_size;
	p->fixed = et->body && !et->body->variable;
	p->need = et->body ? et->body->fixed_size[p->arch] : 0;
	if (et->body && et->body->kind == LTT_TYPE_STRUCT && flatten(s, p, "", et->body, 0)) {
		free_plan(p);
		return NULL;
	}
	return p;
}

/* ---- filling ------------------------------------------------------------------------------------- */

struct fill {
	struct colset *s;
	PyObject ***labels;		/* by column: the enum's label strs (by label index), or NULL */
	uint32_t *nlabels;		/* by column: their number */
	unsigned nlabels_cols;
};

static PyObject *label_of(struct fill *f, int col, const struct ltt_value *v)
{
	const struct ltt_type_desc *t = v->type;
	const char *l = ltt_value_enum_label(v);
	PyObject **tab;

	if (!l)
		return PyLong_FromUnsignedLongLong(ltt_value_uint(v));
	tab = (unsigned)col < f->nlabels_cols ? f->labels[col] : NULL;
	for (uint32_t i = 0; tab && i < t->n_labels && i < f->nlabels[col]; i++)
		if (t->labels[i].name == l) {
			if (!tab[i] && !(tab[i] = pyltt_name(l)))
				return NULL;
			if (PyUnicode_CompareWithASCIIString(tab[i], l))	/* another trace's labels */
				break;
			Py_INCREF(tab[i]);
			return tab[i];
		}
	return PyUnicode_FromString(l);
}

static void store_value(struct fill *f, int col, const struct ltt_value *v)
{
	struct colbuf *c = &f->s->cols[col];
	size_t row = f->s->rows;

	switch (v->type->kind) {
	case LTT_TYPE_INT:
		colbuf_i(c, row, ltt_value_int(v));
		return;
	case LTT_TYPE_UINT:
		colbuf_u(c, row, ltt_value_uint(v));
		return;
	case LTT_TYPE_FLOAT:
		colbuf_f(c, row, ltt_value_float(v));
		return;
	case LTT_TYPE_ENUM:
		colbuf_o(c, row, label_of(f, col, v));
		return;
	default:
		colbuf_o(c, row, pyltt_value(v));
	}
}

struct walk {
	struct fill *f;
	const struct plan *p;
	unsigned leaf;
};

static void walk_struct(struct walk *w, const struct ltt_value *v)
{
	struct ltt_value ch;

	for (int rc = ltt_value_first(v, &ch); !rc; rc = ltt_value_next(v, &ch)) {
		if (ch.type->kind == LTT_TYPE_STRUCT) {
			walk_struct(w, &ch);
			continue;
		}
		if (w->leaf < w->p->n)
			store_value(w->f, w->p->leaves[w->leaf].col, &ch);
		w->leaf++;
	}
}

static inline uint64_t read_u(const unsigned char *p, unsigned b, int swap)
{
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	switch (b) {
	case 1:
		return *p;
	case 2:
		memcpy(&v2, p, 2);
		return swap ? __builtin_bswap16(v2) : v2;
	case 4:
		memcpy(&v4, p, 4);
		return swap ? __builtin_bswap32(v4) : v4;
	default:
		memcpy(&v8, p, 8);
		return swap ? __builtin_bswap64(v8) : v8;
	}
}

/* The fixed plan: every leaf read at its offset. */
static void fill_fixed(struct fill *f, const struct plan *p, const struct ltt_event *ev)
{
	int swap = ev->big_endian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	size_t row = f->s->rows;

	for (unsigned i = 0; i < p->n; i++) {
		const struct leaf *l = &p->leaves[i];
		struct colbuf *c = &f->s->cols[l->col];
		uint64_t u = read_u(ev->payload + l->off, l->bytes, swap);

		if (__builtin_expect(l->raw, 1)) {
			switch (l->bytes) {
			case 1: ((uint8_t *)c->data)[row] = (uint8_t)u; break;
			case 2: ((uint16_t *)c->data)[row] = (uint16_t)u; break;
			case 4: ((uint32_t *)c->data)[row] = (uint32_t)u; break;
			default: ((uint64_t *)c->data)[row] = u; break;
			}
			continue;
		}
		switch (l->type->kind) {
		case LTT_TYPE_UINT:
			colbuf_u(c, row, u);
			break;
		case LTT_TYPE_INT: {
			unsigned sh = 64 - 8 * l->bytes;

			colbuf_i(c, row, (int64_t)(u << sh) >> sh);
			break;
		}
		case LTT_TYPE_FLOAT:
			if (l->bytes == 4) {
				uint32_t u4 = (uint32_t)u;
				float fl;

				memcpy(&fl, &u4, 4);
				colbuf_f(c, row, fl);
			} else {
				double d;

				memcpy(&d, &u, 8);
				colbuf_f(c, row, d);
			}
			break;
		default: {	/* enum */
			struct ltt_value v = { .type = l->type, .data = ev->payload + l->off, .size = l->bytes,
					       .big_endian = ev->big_endian, .arch = ev->arch };

			store_value(f, l->col, &v);
		}
		}
	}
}

/* After every plan is made (the columns known): which leaves are stored raw, which plans fill every
 * column. */
static void finish_plan(struct plan *p, const struct colset *s)
{
	unsigned char *seen = calloc(s->ncols, 1);
	unsigned covered = 0;

	for (unsigned i = 0; i < p->n; i++) {
		struct leaf *l = &p->leaves[i];
		const struct colbuf *c = &s->cols[l->col];
		enum colbuf_kind want = l->type->kind == LTT_TYPE_INT ? COLBUF_INT : l->type->kind == LTT_TYPE_UINT ?
					COLBUF_UINT : l->type->kind == LTT_TYPE_FLOAT ? COLBUF_FLOAT : COLBUF_OBJECT;

		l->raw = want != COLBUF_OBJECT && c->kind == want && c->isz == l->bytes;
		if (seen && !seen[l->col]) {
			seen[l->col] = 1;
			covered++;
		}
	}
	p->full = seen && covered + 1 == s->ncols;
	free(seen);
}

/* Splits "facility.event" at its first dot: 0, or -1 with ValueError. */
static int split_name(const char *full, char *fac, size_t size, const char **ev)
{
	const char *dot = strchr(full, '.');

	if (!dot || dot == full || !dot[1] || (size_t)(dot - full) >= size) {
		PyErr_Format(PyExc_ValueError, "to_numpy('%s'): expected \"facility.event\"", full);
		return -1;
	}
	memcpy(fac, full, (size_t)(dot - full));
	fac[dot - full] = 0;
	*ev = dot + 1;
	return 0;
}

PyObject *pyltt_columns(PyObject *self, PyObject *args)
{
	struct pyltt_trace *t = (struct pyltt_trace *)self;
	struct colset s = { 0 };
	struct ptrmap plans = { 0 };
	struct fill f = { .s = &s };
	struct ltt_reader *r;
	struct ltt_event ev;
	const char *full, *evname;
	char fac[256];
	int ret, found = 0, ts;
	uint32_t min_need = UINT32_MAX;
	PyObject *out = NULL;

	if (!PyArg_ParseTuple(args, "s", &full) || split_name(full, fac, sizeof(fac), &evname))
		return NULL;
	r = pyltt_reader(t, 0, 1);
	if (!r)
		return NULL;
	ts = colset_add(&s, "ts_ns", COLBUF_INT, 8, 0);
	if (ts < 0)
		goto out;
	/* the plans of every trace's types of that name; the other types hidden */
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *ti = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < ti->nevent_types; k++) {
			const struct ltt_event_type *et = ti->event_types[k];
			struct plan *p;

			if (strcmp(et->facility, fac) || strcmp(et->name, evname)) {
				ltt_reader_hide_event_type(r, et, 1);
				continue;
			}
			found = 1;
			if (!(p = make_plan(&s, ti, et)))
				goto out;
			if (p->need < min_need)
				min_need = p->need;
			if (ptrmap_put(&plans, et, p)) {
				free_plan(p);
				PyErr_NoMemory();
				goto out;
			}
		}
	}
	if (!found) {
		PyErr_Format(PyExc_KeyError, "%s: no such event type in the trace (see Trace.event_types)", full);
		goto out;
	}
	for (size_t i = 0; i < plans.size; i++)
		if (plans.keys[i])
			finish_plan(plans.vals[i], &s);
	f.nlabels_cols = s.ncols;
	f.labels = calloc(s.ncols, sizeof(*f.labels));
	f.nlabels = calloc(s.ncols, sizeof(*f.nlabels));
	if (!f.labels || !f.nlabels) {
		PyErr_NoMemory();
		goto out;
	}
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *ti = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < ti->nevent_types; k++) {
			const struct plan *p = ptrmap_get(&plans, ti->event_types[k]);

			for (unsigned l = 0; p && l < p->n; l++)
				if (p->leaves[l].type->kind == LTT_TYPE_ENUM && !f.labels[p->leaves[l].col] &&
				    !(f.labels[p->leaves[l].col] = calloc(p->leaves[l].type->n_labels + 1, sizeof(PyObject *)))) {
					PyErr_NoMemory();
					goto out;
				} else if (p->leaves[l].type->kind == LTT_TYPE_ENUM && !f.nlabels[p->leaves[l].col]) {
					f.nlabels[p->leaves[l].col] = p->leaves[l].type->n_labels;
				}
		}
	}
	/* room for as many rows as the tracefiles read could hold events of the type (at most 2^24 at
	 * first): no copy while the columns grow for most traces; what is not written is never mapped */
	{
		uint64_t bytes = 0, bound;

		for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
			const struct ltt_trace_info *ti = ltt_reader_trace(r, i);

			for (unsigned k = 0; k < ti->ntracefiles; k++)
				if (!ltt_reader_skips_tracefile(r, ti->tracefiles[k]))
					bytes += ti->tracefiles[k]->file_size;
		}
		bound = bytes / (6 + min_need);
		if (colset_reserve(&s, bound < (1u << 24) ? (size_t)bound : (size_t)1 << 24))
			goto out;
	}
	while ((ret = ltt_reader_next(r, &ev)) == 1) {
		const struct plan *p = ptrmap_get(&plans, ev.type);

		int fast = p && p->fixed && ev.size >= p->need;

		/* a row the plan fills whole needs no default values */
		if (__builtin_expect(colset_row(&s, !fast || !p->full), 0))
			goto out;
		((int64_t *)s.cols[ts].data)[s.rows] = (int64_t)ev.time_ns;
		if (fast) {
			fill_fixed(&f, p, &ev);
		} else if (p) {
			struct ltt_value body;
			struct walk w = { &f, p, 0 };

			if (!ltt_event_body(&ev, &body))
				walk_struct(&w, &body);
		}
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
	for (unsigned i = 0; f.labels && f.nlabels && i < f.nlabels_cols; i++) {
		for (size_t k = 0; f.labels[i] && k < f.nlabels[i]; k++)
			Py_XDECREF(f.labels[i][k]);
		free(f.labels[i]);
	}
	free(f.labels);
	free(f.nlabels);
	ptrmap_free(&plans, free_plan);
	colset_free(&s);
	ltt_reader_close(r);
	return out;
}
