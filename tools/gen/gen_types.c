/* SPDX-License-Identifier: MIT */
/* ltt gen: C types of facility types, and the generated structs and enum constants. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

const char *const gen_int_c[LTT_SIZE_COUNT] = {
	"int8_t", "int16_t", "int32_t", "int64_t", "short", "int", "long",
};
const char *const gen_uint_c[LTT_SIZE_COUNT] = {
	"uint8_t", "uint16_t", "uint32_t", "uint64_t", "unsigned short", "unsigned int", "unsigned long",
};
/* The encoded size of a size keyword on the host that compiles the header. */
const char *const gen_size_c[LTT_SIZE_COUNT] = {
	"1", "2", "4", "8", "sizeof(short)", "sizeof(int)", "sizeof(long)",
};

/* A struct-like C name for type t reached at `path`: its named type, else the path. */
const char *gen_type_cname(struct gen *g, const struct ltt_type_desc *t, const char *path)
{
	return t->name ? gen_str(g, "%s%s", g->prefix, t->name) : path;
}

/* The C type of a value of t as an element of an array or sequence (or any single value). */
const char *gen_value_ctype(struct gen *g, const struct ltt_type_desc *t, const char *path)
{
	switch (t->kind) {
	case LTT_TYPE_INT:
		return gen_int_c[t->size];
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
		return gen_uint_c[t->size];
	case LTT_TYPE_FLOAT:
		return ltt_float_bytes(t->size) == 4 ? "float" : "double";
	case LTT_TYPE_STRING:
		return "const char *";
	default:
		return gen_str(g, "struct %s", gen_type_cname(g, t, path));
	}
}

/* "const T *" for a pointer to constant values of C type T. */
const char *gen_ptr_to_const(struct gen *g, const char *ctype)
{
	size_t n = strlen(ctype);

	return n && ctype[n - 1] == '*' ? gen_str(g, "%sconst *", ctype) : gen_str(g, "const %s *", ctype);
}

/* "T name" with the space only where C needs one. */
const char *gen_decl(struct gen *g, const char *ctype, const char *name)
{
	size_t n = strlen(ctype);

	return gen_str(g, "%s%s%s", ctype, n && ctype[n - 1] == '*' ? "" : " ", name);
}

static int is_done(struct gen *g, const struct ltt_type_desc *t)
{
	return gen_hset_has(&g->done, t, 0) == 1;
}

static int mark_done(struct gen *g, const struct ltt_type_desc *t)
{
	return gen_hset_has(&g->done, t, 1) < 0 ? -ENOMEM : 0;
}

/* The path naming the element type of array or sequence t reached at `path`: the array's own name
 * when it is a field (it has no C struct of its own), NAME_elem when it is itself an element (it is
 * then a generated struct NAME). */
const char *gen_elem_path(struct gen *g, const struct ltt_type_desc *t, const char *path,
			     int as_element)
{
	const char *name = gen_type_cname(g, t, path);

	return as_element ? gen_str(g, "%s_elem", name) : name;
}

const char *gen_join(struct gen *g, const char *a, const char *b)
{
	return gen_str(g, "%s_%s", a, b);
}

/* The member declarations of field f (of type t, C path `path`) inside a generated struct; in_union
 * wraps a sequence's two members in a struct so the alternative stays one member. */
static void member_decl(struct gen *g, const struct ltt_type_desc *t, const char *name, const char *path,
			unsigned level, int in_union)
{
	const char *ct, *pc;

	switch (t->kind) {
	case LTT_TYPE_ARRAY:
		ct = gen_value_ctype(g, t->element, gen_elem_path(g, t, path, 0));
		gen_ind(&g->o, level);
		ltt_buf_printf(&g->o, "%s[%u];\n", gen_decl(g, ct, name), t->array_len);
		break;
	case LTT_TYPE_SEQUENCE:
		ct = gen_value_ctype(g, t->element, gen_elem_path(g, t, path, 0));
		pc = gen_ptr_to_const(g, ct);
		gen_ind(&g->o, level);
		if (in_union)
			ltt_buf_printf(&g->o, "struct { size_t len; %sdata; } %s;\n", pc, name);
		else
			ltt_buf_printf(&g->o, "size_t %s_len;\n", name), gen_ind(&g->o, level), ltt_buf_printf(&g->o, "%s%s;\n", pc, name);
		break;
	default:
		gen_ind(&g->o, level);
		ltt_buf_printf(&g->o, "%s;\n", gen_decl(g, gen_value_ctype(g, t, path), name));
		break;
	}
}

static int emit_enum(struct gen *g, const struct ltt_type_desc *t, const char *path)
{
	char *prefix = (char *)gen_str(g, "%s", gen_type_cname(g, t, path));
	const char *name;
	int r;

	for (char *p = prefix; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	for (uint32_t i = 0; i < t->n_labels; i++) {
		const struct ltt_enum_label *l = &t->labels[i];

		if (!gen_is_ident(l->name))
			return gen_fail(g, t->line, "enum label '%s' is not a C identifier", l->name);
		name = gen_join(g, prefix, l->name);
		if ((r = gen_claim_name(g, name, t->line)))
			return r;
		ltt_buf_printf(&g->o, "#define %s %llu%s\n", name, (unsigned long long)l->value,
		   l->value > 0xffffffffu ? "ull" : "u");
	}
	if (t->n_labels)
		ltt_buf_add(&g->o, "\n", 1);
	return 0;
}

/* Defines, children first, every C struct and enum constant t needs. */
int gen_emit_types(struct gen *g, const struct ltt_type_desc *t, const char *path, int as_element)
{
	const char *name, *child;
	int r;

	if (is_done(g, t))
		return 0;
	name = gen_type_cname(g, t, path);
	switch (t->kind) {
	case LTT_TYPE_ENUM:
		if ((r = mark_done(g, t)))
			return r;
		return emit_enum(g, t, path);
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		child = gen_elem_path(g, t, path, as_element);
		if ((r = gen_emit_types(g, t->element, child, 1)))
			return r;
		if (!as_element)
			return 0;	/* a field: no C struct of its own */
		break;
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		for (uint32_t i = 0; i < t->n_fields; i++) {
			if (!gen_is_ident(t->fields[i].name))
				return gen_fail(g, t->fields[i].line, "field name '%s' is not a C identifier",
						t->fields[i].name);
			child = gen_join(g, name, t->fields[i].name);
			if ((r = gen_emit_types(g, t->fields[i].type, child, 0)))
				return r;
		}
		break;
	default:
		return 0;
	}
	if ((r = mark_done(g, t)) || (r = gen_claim_name(g, name, t->line)))
		return r;
	ltt_buf_printf(&g->o, "struct %s {\n", name);
	switch (t->kind) {
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE: {
		const char *ct = gen_value_ctype(g, t->element, gen_elem_path(g, t, path, 1));

		if (t->kind == LTT_TYPE_ARRAY)
			ltt_buf_printf(&g->o, "\t%s[%u];\n", gen_decl(g, ct, "v"), t->array_len);
		else
			ltt_buf_printf(&g->o, "\tsize_t len;\n\t%sdata;\n", gen_ptr_to_const(g, ct));
		break;
	}
	case LTT_TYPE_STRUCT:
		for (uint32_t i = 0; i < t->n_fields; i++)
			member_decl(g, t->fields[i].type, gen_cname(g, t->fields[i].name),
				    gen_join(g, name, t->fields[i].name), 1, 0);
		if (!t->n_fields)
			ltt_buf_add(&g->o, "\tchar ltt_empty_[1];\t/* no fields: nothing is encoded */\n", 56);
		break;
	default: /* union */
		ltt_buf_printf(&g->o, "\t%s code;\t/* which alternative: 0 .. %u */\n\tunion {\n", gen_uint_c[t->size],
		   t->n_fields - 1);
		for (uint32_t i = 0; i < t->n_fields; i++)
			member_decl(g, t->fields[i].type, gen_cname(g, t->fields[i].name),
				    gen_join(g, name, t->fields[i].name), 2, 1);
		ltt_buf_add(&g->o, "\t} u;\n", 6);
		break;
	}
	ltt_buf_add(&g->o, "};\n\n", 4);
	return 0;
}
