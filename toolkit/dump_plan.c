/* SPDX-License-Identifier: MIT */
/* Compiled plans of event bodies (dump_plan.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "common/buf.h"
#include "common/escape_csv.h"
#include "common/escape_json.h"
#include "toolkit/dump_plan.h"
#include "toolkit/json_fields.h"
#include "toolkit/thread_names.h"

/* Labels with a value up to this get a lookup table; larger values are searched. */
#define PLAN_LUT_MAX 256
/* A plan wider than this is left to the walk (dump_out_reserve takes at most DUMP_OUT_SIZE). */
#define PLAN_ROOM_MAX (DUMP_OUT_SIZE / 4)

/* Adds s written for style: raw (text), a JSON string literal, or that literal escaped once more
 * (as a JSON string's inside, or as a quoted CSV field's inside). */
static int buf_add_str(struct ltt_buf *b, const char *s, unsigned style, int json_string)
{
	struct ltt_buf lit = LTT_BUF_INIT;

	if (style == DUMP_PLAN_TEXT || !json_string) {
		ltt_buf_puts(&lit, s);
	} else {
		ltt_json_to_buf(&lit, s, strlen(s));
	}
	if (lit.nomem || !lit.buf) {
		ltt_buf_free(&lit);
		return -ENOMEM;
	}
	if (style == DUMP_PLAN_JSON_QUOTED) {
		char *p = ltt_buf_reserve(b, LTT_JSON_ESC_MAX * lit.len);

		if (p)
			ltt_buf_commit(b, ltt_json_escape(p, lit.buf, lit.len));
	} else if (style == DUMP_PLAN_JSON_CSV) {
		char *p = ltt_buf_reserve(b, 2 * lit.len);

		if (p)
			ltt_buf_commit(b, ltt_csv_escape(p, lit.buf, lit.len));
	} else {
		ltt_buf_add(b, lit.buf, lit.len);
	}
	ltt_buf_free(&lit);
	return b->nomem ? -ENOMEM : 0;
}

/* The op's kind and size, or -1 when the field's type has no flat form. */
static int op_kind(const struct ltt_type_desc *t, enum ltt_arch_size arch, unsigned *bytes)
{
	switch (t->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
		*bytes = ltt_size_bytes(t->size, arch);
		if (*bytes != 1 && *bytes != 2 && *bytes != 4 && *bytes != 8)
			return -1;
		return t->kind == LTT_TYPE_INT ? PLAN_INT : t->kind == LTT_TYPE_UINT ? PLAN_UINT : PLAN_ENUM;
	case LTT_TYPE_STRING:
		*bytes = 0;
		return PLAN_STRING;
	case LTT_TYPE_FLOAT:
		*bytes = ltt_float_bytes(t->size);
		return *bytes == 4 || *bytes == 8 ? PLAN_FLOAT : -1;
	default:
		return -1;
	}
}

/* Offsets into the literal buffer, turned into pointers once it stops moving. */
struct op_lits {
	size_t key;
	size_t *lab;		/* enums: each label's literal */
	uint32_t maxlab;	/* the longest label literal */
};

static void free_lits(struct op_lits *ol, unsigned n)
{
	for (unsigned i = 0; ol && i < n; i++)
		free(ol[i].lab);
	free(ol);
}

/* The enum tables of op (labels at mem + offsets lab). */
static int make_enum(struct dump_plan_op *op, const char *mem, const size_t *lab)
{
	const struct ltt_type_desc *t = op->t;
	uint64_t maxv = 0;

	for (uint32_t k = 0; k < t->n_labels; k++)
		if (t->labels[k].value > maxv)
			maxv = t->labels[k].value;
	op->nlut = t->n_labels ? (uint32_t)(maxv < PLAN_LUT_MAX ? maxv : PLAN_LUT_MAX - 1) + 1 : 0;
	op->scan = maxv >= PLAN_LUT_MAX;
	op->lab = calloc(t->n_labels + 1, sizeof(*op->lab));
	op->lab_len = calloc(t->n_labels + 1, sizeof(*op->lab_len));
	op->lut = calloc(op->nlut + 1, sizeof(*op->lut));
	if (!op->lab || !op->lab_len || !op->lut)
		return -ENOMEM;
	for (uint32_t k = 0; k < t->n_labels; k++) {
		op->lab[k] = mem + lab[k];
		op->lab_len[k] = (uint32_t)(lab[k + 1] - lab[k]);
		/* the first label of a value wins, as in ltt_value_enum_label */
		if (t->labels[k].value < op->nlut && !op->lut[t->labels[k].value])
			op->lut[t->labels[k].value] = k + 1;
	}
	return 0;
}

int dump_plan_make(const struct ltt_event *ev, enum dump_plan_style style, int tid, struct dump_plan **out)
{
	const struct ltt_type_desc *b = ev->type->body;
	enum ltt_arch_size arch = (enum ltt_arch_size)ev->arch;
	struct ltt_buf lits = LTT_BUF_INIT;
	struct op_lits *ol = NULL;
	struct dump_plan *p = NULL;
	size_t close_off, room;
	unsigned n, bytes;

	*out = NULL;
	if (!b || b->kind != LTT_TYPE_STRUCT)
		return 0;
	n = b->n_fields;
	for (unsigned i = 0; i < n; i++)
		if (op_kind(b->fields[i].type, arch, &bytes) < 0)
			return 0;
	p = calloc(1, sizeof(*p) + n * sizeof(p->ops[0]));
	ol = calloc(n + 1, sizeof(*ol));
	if (!p || !ol)
		goto fail;
	p->style = style;
	p->n = n;
	for (unsigned i = 0; i < n; i++) {
		const struct ltt_field_desc *f = &b->fields[i];
		const struct ltt_type_desc *t = f->type;
		struct dump_plan_op *op = &p->ops[i];
		int k = op_kind(t, arch, &bytes);

		op->kind = (uint8_t)k;
		op->bytes = (uint8_t)bytes;
		op->t = t;
		op->tid = style == DUMP_PLAN_TEXT && tid && k == PLAN_UINT && !strcmp(f->name, "tid");
		/* function tracing's addresses: named beside (name+0xOFF, through the memory map) */
		op->sym = style == DUMP_PLAN_TEXT && tid && k == PLAN_UINT && bytes == 8 && !strcmp(f->name, "addr") &&
			  !strcmp(ev->type->facility, "func");
		op->tid |= op->sym;
		op->brk = k == PLAN_STRING || k == PLAN_FLOAT || op->tid;
		if ((ev->big_endian != 0) == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) && !op->tid &&
		    (bytes == 4 || bytes == 8) && (k == PLAN_UINT || k == PLAN_INT))
			op->kind = (uint8_t)(k == PLAN_UINT ? (bytes == 4 ? PLAN_U32 : PLAN_U64)
							    : (bytes == 4 ? PLAN_I32 : PLAN_I64));
		ol[i].key = lits.len;
		if (style == DUMP_PLAN_TEXT) {
			ltt_buf_puts(&lits, i ? ", " : "{ ");
			ltt_buf_puts(&lits, f->name);
			ltt_buf_puts(&lits, " = ");
			if (lits.nomem)
				goto fail;
		} else if (buf_add_str(&lits, i ? "," : "{", style, 0) || buf_add_str(&lits, f->name, style, 1) ||
			   (ltt_buf_putc(&lits, ':'), lits.nomem)) {
			goto fail;
		}
		op->klen = (uint32_t)(lits.len - ol[i].key);
		if (k != PLAN_ENUM)
			continue;
		ol[i].lab = calloc(t->n_labels + 1, sizeof(*ol[i].lab));
		if (!ol[i].lab)
			goto fail;
		for (uint32_t l = 0; l < t->n_labels; l++) {
			ol[i].lab[l] = lits.len;
			if (buf_add_str(&lits, t->labels[l].name, style, 1))
				goto fail;
			if (lits.len - ol[i].lab[l] > ol[i].maxlab)
				ol[i].maxlab = (uint32_t)(lits.len - ol[i].lab[l]);
		}
		ol[i].lab[t->n_labels] = lits.len;
	}
	close_off = lits.len;
	if (buf_add_str(&lits, !n ? "{}" : style == DUMP_PLAN_TEXT ? " }" : "}", style, 0))
		goto fail;
	p->close_len = (uint32_t)(lits.len - close_off);
	{
		static const char pad[DUMP_PAD];	/* dump_put_padded reads this far past a literal */

		ltt_buf_add(&lits, pad, DUMP_PAD);
		if (lits.nomem)
			goto fail;
	}
	p->mem = lits.buf;
	lits.buf = NULL;
	p->close = p->mem + close_off;
	for (unsigned i = 0; i < n; i++) {
		p->ops[i].key = p->mem + ol[i].key;
		if (p->ops[i].kind == PLAN_ENUM && make_enum(&p->ops[i], p->mem, ol[i].lab))
			goto fail;
	}

	/* room, from the end: a brk field needs its key only before its value is written */
	p->tail = p->close_len + DUMP_PLAN_SLACK;
	room = p->tail;
	for (unsigned i = n; i-- > 0; ) {
		struct dump_plan_op *op = &p->ops[i];
		size_t v = op->kind == PLAN_ENUM && ol[i].maxlab > 21 ? ol[i].maxlab : 21;

		room = op->brk ? op->klen + DUMP_PAD : op->klen + v + room;
		if (room > PLAN_ROOM_MAX) {	/* too wide: walked */
			dump_plan_free(p);
			free_lits(ol, n);
			return 0;
		}
		op->room = (uint32_t)room;
	}
	p->room = (uint32_t)room;
	free_lits(ol, n);
	*out = p;
	return 0;
fail:
	ltt_buf_free(&lits);
	free_lits(ol, n);
	dump_plan_free(p);
	return -ENOMEM;
}

void dump_plan_free(struct dump_plan *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->n; i++) {
		free(p->ops[i].lab);
		free(p->ops[i].lab_len);
		free(p->ops[i].lut);
	}
	free(p->mem);
	free(p);
}

/* A string written as the plan's style; -EFBIG or -ENOMEM when a quoted one cannot be. */
static int plan_string(struct dump_out *o, unsigned style, const char *s, size_t n)
{
	static __thread struct dump_out *tmp;

	if (style == DUMP_PLAN_TEXT) {
		dump_out_c_string(o, s, n);
		return 0;
	}
	if (style == DUMP_PLAN_JSON) {
		dump_out_json_string(o, s, n);
		return 0;
	}
	if (!tmp && !(tmp = malloc(sizeof(*tmp))))
		return -ENOMEM;
	tmp->fd = -1;
	tmp->error = 0;
	tmp->len = 0;
	dump_out_json_string(tmp, s, n);
	if (tmp->error || tmp->len >= DUMP_OUT_SIZE)
		return -EFBIG;
	if (style == DUMP_PLAN_JSON_QUOTED) {
		json_quote(o, tmp->buf, tmp->len, 0);
		return 0;
	}
	dump_out_csv_body(o, tmp->buf, tmp->len);	/* CSV: every '"' doubled */
	return 0;
}

char *dump_plan_put(struct dump_out *o, char *w, const struct dump_plan *p, const struct ltt_event *ev,
		    const struct thread_names *tn, int *err)
{
	const unsigned char *q = ev->payload;
	int be = ev->big_endian;

	for (unsigned i = 0; i < p->n; i++) {
		const struct dump_plan_op *op = &p->ops[i];
		uint64_t v;
		size_t n;

		w = dump_put_padded(w, op->key, op->klen);
		switch (op->kind) {
		case PLAN_U32: {
			uint32_t u;

			memcpy(&u, q, 4);
			q += 4;
			w = dump_put_u64(w, u);
			continue;
		}
		case PLAN_U64:
			memcpy(&v, q, 8);
			q += 8;
			w = dump_put_u64(w, v);
			continue;
		case PLAN_I32: {
			int32_t x;

			memcpy(&x, q, 4);
			q += 4;
			if (x < 0)
				*w++ = '-';
			w = dump_put_u64(w, x < 0 ? (uint64_t)0 - (uint64_t)(int64_t)x : (uint64_t)x);
			continue;
		}
		case PLAN_I64: {
			int64_t x;

			memcpy(&x, q, 8);
			q += 8;
			if (x < 0)
				*w++ = '-';
			w = dump_put_u64(w, x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x);
			continue;
		}
		case PLAN_UINT:
			v = dump_load(q, op->bytes, be);
			q += op->bytes;
			w = dump_put_u64(w, v);
			if (__builtin_expect(op->tid, 0)) {
				char sb[512];
				const char *name = !tn ? NULL : op->sym ? thread_names_func(tn, ev->trace->index, v, sb,
											    sizeof(sb))
							  : thread_names_find(tn, ev->trace->index, (uint32_t)v, ev->time_ns);

				dump_out_commit(o, w);
				if (name) {
					dump_out_mem(o, " (", 2);
					dump_out_term(o, name, strlen(name));
					dump_out_char(o, ')');
				}
				w = dump_out_reserve(o, i + 1 < p->n ? p->ops[i + 1].room : p->tail);
			}
			continue;
		case PLAN_INT:
			v = dump_load(q, op->bytes, be);
			q += op->bytes;
			if (op->bytes < 8 && (v >> (op->bytes * 8 - 1)) & 1)
				v |= ~0ull << (op->bytes * 8);
			if ((int64_t)v < 0) {
				*w++ = '-';
				v = (uint64_t)0 - v;
			}
			w = dump_put_u64(w, v);
			continue;
		case PLAN_ENUM: {
			uint32_t k = 0;

			v = dump_load(q, op->bytes, be);
			q += op->bytes;
			if (v < op->nlut)
				k = op->lut[v];
			else if (op->scan)
				for (uint32_t l = 0; l < op->t->n_labels && !k; l++)
					if (op->t->labels[l].value == v)
						k = l + 1;
			if (k) {
				w = dump_put_padded(w, op->lab[k - 1], op->lab_len[k - 1]);
			} else {
				w = dump_put_u64(w, v);
			}
			continue;
		}
		case PLAN_STRING:
			n = strlen((const char *)q);
			dump_out_commit(o, w);
			if (plan_string(o, p->style, (const char *)q, n))
				*err = -EFBIG;
			q += n + 1;
			break;
		default: {	/* PLAN_FLOAT */
			double d;

			v = dump_load(q, op->bytes, be);
			q += op->bytes;
			if (op->bytes == 4) {
				uint32_t u = (uint32_t)v;
				float f;

				memcpy(&f, &u, 4);
				d = f;
			} else {
				memcpy(&d, &v, 8);
			}
			dump_out_commit(o, w);
			if (p->style != DUMP_PLAN_TEXT && (isnan(d) || isinf(d)))
				dump_out_mem(o, "null", 4);	/* JSON has no NaN or infinity */
			else
				dump_out_double(o, d);
			break;
		}
		}
		w = dump_out_reserve(o, i + 1 < p->n ? p->ops[i + 1].room : p->tail);
	}
	return dump_put_padded(w, p->close, p->close_len);
}
