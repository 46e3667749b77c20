/* SPDX-License-Identifier: MIT */
/* ltt gen: the statements that size and encode a value in a generated trace function. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

/* A constant C expression for the encoded size of fixed-size t on the compiling host. */
void gen_fixed_size_expr(const struct ltt_type_desc *t, struct ltt_buf *o)
{
	switch (t->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
		ltt_buf_add(o, gen_size_c[t->size], strlen(gen_size_c[t->size]));
		break;
	case LTT_TYPE_FLOAT:
		ltt_buf_printf(o, "%u", ltt_float_bytes(t->size));
		break;
	case LTT_TYPE_ARRAY:
		ltt_buf_printf(o, "%u * (", t->array_len);
		gen_fixed_size_expr(t->element, o);
		ltt_buf_add(o, ")", 1);
		break;
	case LTT_TYPE_STRUCT:
		if (!t->n_fields)
			ltt_buf_add(o, "0", 1);
		for (uint32_t i = 0; i < t->n_fields; i++) {
			if (i)
				ltt_buf_add(o, " + ", 3);
			gen_fixed_size_expr(t->fields[i].type, o);
		}
		break;
	case LTT_TYPE_UNION: /* fixed: every alternative has the size of the first */
		ltt_buf_printf(o, "%s + ", gen_size_c[t->size]);
		gen_fixed_size_expr(t->fields[0].type, o);
		break;
	default:
		ltt_buf_add(o, "0", 1);
		break;
	}
}

/* How generated code reaches a value: an expression, or for a sequence its count and data. */

static void field_access(struct gen *g, const struct access *parent, const struct ltt_type_desc *pt, uint32_t i,
			 struct access *a)
{
	const struct ltt_field_desc *f = &pt->fields[i];
	const char *n = gen_cname(g, f->name);

	if (pt->kind == LTT_TYPE_UNION) {
		if (f->type->kind == LTT_TYPE_SEQUENCE) {
			a->expr = gen_str(g, "(%s).u.%s.data", parent->expr, n);
			a->len = gen_str(g, "(%s).u.%s.len", parent->expr, n);
		} else {
			a->expr = gen_str(g, "(%s).u.%s", parent->expr, n);
			a->len = "";
		}
	} else {
		a->expr = gen_str(g, "(%s).%s", parent->expr, n);
		a->len = gen_str(g, "(%s).%s_len", parent->expr, n);
	}
}

/* The access of element `idx` of an array or sequence reached by `a`. */
static void element_access(struct gen *g, const struct access *a, const struct ltt_type_desc *elem,
			   const char *idx, struct access *e)
{
	e->len = "";
	if (elem->kind == LTT_TYPE_ARRAY) {
		e->expr = gen_str(g, "%s[%s].v", a->expr, idx);
	} else if (elem->kind == LTT_TYPE_SEQUENCE) {
		e->expr = gen_str(g, "%s[%s].data", a->expr, idx);
		e->len = gen_str(g, "%s[%s].len", a->expr, idx);
	} else {
		e->expr = gen_str(g, "%s[%s]", a->expr, idx);
	}
}

int gen_has_string(const struct ltt_type_desc *t)
{
	switch (t->kind) {
	case LTT_TYPE_STRING:
		return 1;
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		return gen_has_string(t->element);
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		for (uint32_t i = 0; i < t->n_fields; i++)
			if (gen_has_string(t->fields[i].type))
				return 1;
		return 0;
	default:
		return 0;
	}
}

/* Whether t contains a union (whose code the size pass checks). */
static int has_union(const struct ltt_type_desc *t)
{
	switch (t->kind) {
	case LTT_TYPE_UNION:
		return 1;
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		return has_union(t->element);
	case LTT_TYPE_STRUCT:
		for (uint32_t i = 0; i < t->n_fields; i++)
			if (has_union(t->fields[i].type))
				return 1;
		return 0;
	default:
		return 0;
	}
}

/* Emits statements adding t's encoded size to ltt_len_ (one constant for a fixed-size t without
 * unions); `level` is the indentation, `depth` names loop variables. A union whose code is out of range returns from the function: nothing is recorded. */
void gen_size_code(struct gen *g, const struct ltt_type_desc *t, const struct access *a, unsigned level,
		      unsigned depth)
{
	struct ltt_buf *o = &g->o;
	struct access k;
	const char *idx = gen_str(g, "ltt_i%u_", depth);

	if (!t->variable && !has_union(t)) {
		gen_ind(o, level);
		ltt_buf_add(o, "ltt_len_ += ", 12);
		gen_fixed_size_expr(t, o);
		ltt_buf_add(o, ";\n", 2);
		return;
	}
	switch (t->kind) {
	case LTT_TYPE_STRING:
		/* a string inside an array, sequence or struct (the event's own string fields are
		 * measured once, cmd_gen.c): its characters are counted in ltt_sb_ too, the bound of
		 * their copy (ltt_gen_putstrb) */
		gen_ind(o, level);
		ltt_buf_printf(o, "{\n");
		gen_ind(o, level + 1);
		ltt_buf_printf(o, "const size_t ltt_n_ = %s ? ltt_strlen(%s) : 0;\n", a->expr, a->expr);
		gen_ind(o, level + 1);
		ltt_buf_printf(o, "ltt_sb_ += ltt_n_;\n");
		gen_ind(o, level + 1);
		ltt_buf_printf(o, "ltt_len_ += ltt_n_ + 1;\n");
		gen_ind(o, level);
		ltt_buf_printf(o, "}\n");
		break;
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		if (t->kind == LTT_TYPE_SEQUENCE) {
			gen_ind(o, level);
			ltt_buf_printf(o, "ltt_len_ += %s;\n", gen_size_c[t->size]);
			if (!t->element->variable && !has_union(t->element)) {
				gen_ind(o, level);
				ltt_buf_printf(o, "ltt_len_ += ltt_gen_seqlen(%s, %s, %s) * (", a->len, a->expr, gen_size_c[t->size]);
				gen_fixed_size_expr(t->element, o);
				ltt_buf_add(o, ");\n", 3);
				break;
			}
		}
		gen_ind(o, level);
		if (t->kind == LTT_TYPE_ARRAY)
			ltt_buf_printf(o, "for (size_t %s = 0; %s < %u; %s++) {\n", idx, idx, t->array_len, idx);
		else
			ltt_buf_printf(o, "for (size_t %s = 0; %s < ltt_gen_seqlen(%s, %s, %s); %s++) {\n", idx, idx, a->len,
			   a->expr, gen_size_c[t->size], idx);
		element_access(g, a, t->element, idx, &k);
		gen_size_code(g, t->element, &k, level + 1, depth + 1);
		gen_ind(o, level);
		ltt_buf_add(o, "}\n", 2);
		break;
	case LTT_TYPE_STRUCT:
		for (uint32_t i = 0; i < t->n_fields; i++) {
			field_access(g, a, t, i, &k);
			gen_size_code(g, t->fields[i].type, &k, level, depth);
		}
		break;
	case LTT_TYPE_UNION:
		gen_ind(o, level);
		ltt_buf_printf(o, "ltt_len_ += %s;\n", gen_size_c[t->size]);
		gen_ind(o, level);
		ltt_buf_printf(o, "switch ((%s).code) {\n", a->expr);
		for (uint32_t i = 0; i < t->n_fields; i++) {
			gen_ind(o, level);
			ltt_buf_printf(o, "case %u:\n", i);
			field_access(g, a, t, i, &k);
			gen_size_code(g, t->fields[i].type, &k, level + 1, depth);
			gen_ind(o, level + 1);
			ltt_buf_add(o, "break;\n", 7);
		}
		gen_ind(o, level);
		ltt_buf_add(o, "default:\n", 9);
		gen_ind(o, level + 1);
		ltt_buf_add(o, "return;\t/* code out of range: not recorded */\n", 46);
		gen_ind(o, level);
		ltt_buf_add(o, "}\n", 2);
		break;
	default:
		break;
	}
}

/* Whether t's C representation is laid out exactly as its encoding (a scalar, or an array of them),
 * so it can be copied with one memcpy. */
static int c_layout_is_encoding(const struct ltt_type_desc *t)
{
	switch (t->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
	case LTT_TYPE_FLOAT:
		return 1;
	case LTT_TYPE_ARRAY:
		return c_layout_is_encoding(t->element);
	default:
		return 0;
	}
}

/* Emits statements encoding the value reached by `a` at ltt_p_ (advancing it). */
void gen_encode_code(struct gen *g, const struct ltt_type_desc *t, const struct access *a,
			unsigned level, unsigned depth)
{
	struct ltt_buf *o = &g->o;
	struct access k;
	const char *idx = gen_str(g, "ltt_i%u_", depth);

	switch (t->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
	case LTT_TYPE_FLOAT:
		gen_ind(o, level);
		ltt_buf_printf(o, "memcpy(ltt_p_, &%s, sizeof(%s));\n", a->expr, a->expr);
		gen_ind(o, level);
		ltt_buf_printf(o, "ltt_p_ += sizeof(%s);\n", a->expr);
		break;
	case LTT_TYPE_STRING:
		gen_ind(o, level);
		ltt_buf_printf(o, "ltt_p_ = ltt_gen_putstrb(ltt_p_, %s, &ltt_sb_, &ltt_nul_);\n", a->expr);
		break;
	case LTT_TYPE_ARRAY:
		if (c_layout_is_encoding(t)) {
			gen_ind(o, level);
			ltt_buf_add(o, "memcpy(ltt_p_, ", 15);
			ltt_buf_printf(o, "%s, ", a->expr);
			gen_fixed_size_expr(t, o);
			ltt_buf_add(o, ");\n", 3);
			gen_ind(o, level);
			ltt_buf_add(o, "ltt_p_ += ", 10);
			gen_fixed_size_expr(t, o);
			ltt_buf_add(o, ";\n", 2);
			break;
		}
		/* fall through */
	case LTT_TYPE_SEQUENCE:
		gen_ind(o, level);
		ltt_buf_add(o, "{\n", 2);
		gen_ind(o, level + 1);
		if (t->kind == LTT_TYPE_ARRAY) {
			ltt_buf_printf(o, "const size_t ltt_n%u_ = %u;\n", depth, t->array_len);
		} else {
			ltt_buf_printf(o, "const %s ltt_n%u_ = (%s)ltt_gen_seqlen(%s, %s, %s);\n", gen_uint_c[t->size], depth,
			   gen_uint_c[t->size], a->len, a->expr, gen_size_c[t->size]);
			gen_ind(o, level + 1);
			ltt_buf_printf(o, "memcpy(ltt_p_, &ltt_n%u_, sizeof(ltt_n%u_));\n", depth, depth);
			gen_ind(o, level + 1);
			ltt_buf_printf(o, "ltt_p_ += sizeof(ltt_n%u_);\n", depth);
		}
		if (c_layout_is_encoding(t->element)) {
			gen_ind(o, level + 1);
			ltt_buf_printf(o, "if (ltt_n%u_) {\n", depth);
			gen_ind(o, level + 2);
			ltt_buf_printf(o, "memcpy(ltt_p_, %s, (size_t)ltt_n%u_ * sizeof(*%s));\n", a->expr, depth, a->expr);
			gen_ind(o, level + 2);
			ltt_buf_printf(o, "ltt_p_ += (size_t)ltt_n%u_ * sizeof(*%s);\n", depth, a->expr);
			gen_ind(o, level + 1);
			ltt_buf_add(o, "}\n", 2);
		} else {
			gen_ind(o, level + 1);
			ltt_buf_printf(o, "for (size_t %s = 0; %s < ltt_n%u_; %s++) {\n", idx, idx, depth, idx);
			element_access(g, a, t->element, idx, &k);
			gen_encode_code(g, t->element, &k, level + 2, depth + 1);
			gen_ind(o, level + 1);
			ltt_buf_add(o, "}\n", 2);
		}
		gen_ind(o, level);
		ltt_buf_add(o, "}\n", 2);
		break;
	case LTT_TYPE_STRUCT:
		for (uint32_t i = 0; i < t->n_fields; i++) {
			field_access(g, a, t, i, &k);
			gen_encode_code(g, t->fields[i].type, &k, level, depth);
		}
		break;
	case LTT_TYPE_UNION:
		gen_ind(o, level);
		ltt_buf_printf(o, "memcpy(ltt_p_, &(%s).code, sizeof((%s).code));\n", a->expr, a->expr);
		gen_ind(o, level);
		ltt_buf_printf(o, "ltt_p_ += sizeof((%s).code);\n", a->expr);
		gen_ind(o, level);
		ltt_buf_printf(o, "switch ((%s).code) {\n", a->expr);
		for (uint32_t i = 0; i < t->n_fields; i++) {
			gen_ind(o, level);
			ltt_buf_printf(o, "case %u:\n", i);
			field_access(g, a, t, i, &k);
			gen_encode_code(g, t->fields[i].type, &k, level + 1, depth);
			gen_ind(o, level + 1);
			ltt_buf_add(o, "break;\n", 7);
		}
		gen_ind(o, level);
		ltt_buf_add(o, "default:\n", 9);
		gen_ind(o, level + 1);
		ltt_buf_add(o, "break;\n", 7);
		gen_ind(o, level);
		ltt_buf_add(o, "}\n", 2);
		break;
	default:
		break;
	}
}
