/* ltt gen: one C header per facility, with typed trace_<facility>_<event>() functions that encode
 * straight into the recorder's reserved slot (doc/eventdefs.md, "Generated API").
 *
 * The output depends only on the facility description: no dates, no paths. A header is rewritten only
 * when its text changes, so regenerating does not force recompilation.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ltt/eventdefs.h>

#include "cmd.h"

/* ---- output buffer ---------------------------------------------------------------------------- */

struct out {
	char *buf;
	size_t len, cap;
	int nomem;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->nomem)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 8192;
		char *p;

		while (o->len + n + 1 > cap)
			cap *= 2;
		p = realloc(o->buf, cap);
		if (!p) {
			o->nomem = 1;
			return;
		}
		o->buf = p;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static void pr(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void pr(struct out *o, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		o->nomem = 1;
		return;
	}
	put(o, s, (size_t)n);
	free(s);
}

/* Indentation: one tab per level. */
static void ind(struct out *o, unsigned level)
{
	for (unsigned i = 0; i < level; i++)
		put(o, "\t", 1);
}

/* ---- generation context ----------------------------------------------------------------------- */

struct hset {
	const void **keys;
	size_t cap, n;
	int strings;
};

struct gen {
	const struct ltt_facility_desc *fac;
	struct out o;
	char err[512];
	/* struct types already defined, and every global name, to refuse collisions */
	struct hset done;
	struct hset names;
	char **strs;			/* strings made by gstr(), freed with the context */
	size_t n_strs, cap_strs;
};

/* A formatted string owned by g (freed by gen_free); "" when out of memory (g->o.nomem set). */
static const char *gstr(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *gstr(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	if (g->n_strs == g->cap_strs) {
		size_t cap = g->cap_strs ? 2 * g->cap_strs : 256;
		char **p = realloc(g->strs, cap * sizeof(*p));

		if (!p) {
			g->o.nomem = 1;
			return "";
		}
		g->strs = p;
		g->cap_strs = cap;
	}
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		g->o.nomem = 1;
		return "";
	}
	g->strs[g->n_strs++] = s;
	return s;
}

static int gen_fail(struct gen *g, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int gen_fail(struct gen *g, unsigned line, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (g->err[0])
		return -EINVAL;
	n = snprintf(g->err, sizeof(g->err), "%s:%u: ", g->fac->file, line);
	if (n < 0 || (size_t)n >= sizeof(g->err))
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(g->err + n, sizeof(g->err) - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static const char *const keywords[] = {
	/* C11 */
	"auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum",
	"extern", "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return",
	"short", "signed", "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void",
	"volatile", "while",
	/* C++ */
	"alignas", "alignof", "and", "and_eq", "asm", "bitand", "bitor", "bool", "catch", "char16_t",
	"char32_t", "char8_t", "class", "compl", "concept", "consteval", "constexpr", "constinit",
	"const_cast", "co_await", "co_return", "co_yield", "decltype", "delete", "dynamic_cast",
	"explicit", "export", "false", "friend", "mutable", "namespace", "new", "noexcept", "not",
	"not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public",
	"reinterpret_cast", "requires", "static_assert", "static_cast", "template", "this",
	"thread_local", "throw", "true", "try", "typeid", "typename", "using", "virtual", "wchar_t",
	"xor", "xor_eq",
	NULL,
};

static int is_ident(const char *s)
{
	if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
		return 0;
	for (s++; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_'))
			return 0;
	return 1;
}

/* A field name as a C identifier: keywords get a trailing underscore. */
static const char *cname(struct gen *g, const char *name)
{
	for (const char *const *k = keywords; *k; k++)
		if (!strcmp(name, *k))
			return gstr(g, "%s_", name);
	return name;
}

/* A growing hash set of strings (strings != 0) or pointers: what was generated already. */
static uint64_t hkey(const struct hset *h, const void *k)
{
	uint64_t v = 0xcbf29ce484222325ull;

	if (!h->strings)
		return ((uint64_t)(uintptr_t)k >> 4) * 0x9e3779b97f4a7c15ull;
	for (const unsigned char *c = k; *c; c++)
		v = (v ^ *c) * 0x100000001b3ull;
	return v;
}

static int heq(const struct hset *h, const void *a, const void *b)
{
	return h->strings ? !strcmp(a, b) : a == b;
}

/* 1 if k is in the set; else adds it when add is set (0, or -ENOMEM). */
static int hset_has(struct hset *h, const void *k, int add)
{
	size_t i;

	if (add && 2 * (h->n + 1) > h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 256;
		const void **keys = calloc(cap, sizeof(*keys));

		if (!keys)
			return -ENOMEM;
		for (size_t o = 0; o < h->cap; o++) {
			if (!h->keys[o])
				continue;
			for (i = hkey(h, h->keys[o]) & (cap - 1); keys[i]; i = (i + 1) & (cap - 1))
				;
			keys[i] = h->keys[o];
		}
		free(h->keys);
		h->keys = keys;
		h->cap = cap;
	}
	if (!h->cap)
		return 0;
	for (i = hkey(h, k) & (h->cap - 1); h->keys[i]; i = (i + 1) & (h->cap - 1))
		if (heq(h, h->keys[i], k))
			return 1;
	if (add) {
		h->keys[i] = k;
		h->n++;
	}
	return 0;
}

/* Records a global name of the header; two definitions of one name are an error. */
static int claim_name(struct gen *g, const char *name, unsigned line)
{
	int r = hset_has(&g->names, gstr(g, "%s", name), 1);

	if (r == 1)
		return gen_fail(g, line, "generated name '%s' would be defined twice", name);
	return r;
}

static int is_done(struct gen *g, const struct ltt_type_desc *t)
{
	return hset_has(&g->done, t, 0) == 1;
}

static int mark_done(struct gen *g, const struct ltt_type_desc *t)
{
	return hset_has(&g->done, t, 1) < 0 ? -ENOMEM : 0;
}

/* ---- C types ---------------------------------------------------------------------------------- */

static const char *const int_c[LTT_SIZE_COUNT] = {
	"int8_t", "int16_t", "int32_t", "int64_t", "short", "int", "long",
};
static const char *const uint_c[LTT_SIZE_COUNT] = {
	"uint8_t", "uint16_t", "uint32_t", "uint64_t", "unsigned short", "unsigned int", "unsigned long",
};
/* The encoded size of a size keyword on the host that compiles the header. */
static const char *const size_c[LTT_SIZE_COUNT] = {
	"1", "2", "4", "8", "sizeof(short)", "sizeof(int)", "sizeof(long)",
};

/* A struct-like C name for type t reached at `path`: its named type, else the path. */
static const char *type_cname(struct gen *g, const struct ltt_type_desc *t, const char *path)
{
	return t->name ? gstr(g, "%s_%s", g->fac->name, t->name) : path;
}

/* The C type of a value of t as an element of an array or sequence (or any single value). */
static const char *value_ctype(struct gen *g, const struct ltt_type_desc *t, const char *path)
{
	switch (t->kind) {
	case LTT_TYPE_INT:
		return int_c[t->size];
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
		return uint_c[t->size];
	case LTT_TYPE_FLOAT:
		return ltt_float_bytes(t->size) == 4 ? "float" : "double";
	case LTT_TYPE_STRING:
		return "const char *";
	default:
		return gstr(g, "struct %s", type_cname(g, t, path));
	}
}

/* "const T *" for a pointer to constant values of C type T. */
static const char *ptr_to_const(struct gen *g, const char *ctype)
{
	size_t n = strlen(ctype);

	return n && ctype[n - 1] == '*' ? gstr(g, "%sconst *", ctype) : gstr(g, "const %s *", ctype);
}

/* "T name" with the space only where C needs one. */
static const char *decl(struct gen *g, const char *ctype, const char *name)
{
	size_t n = strlen(ctype);

	return gstr(g, "%s%s%s", ctype, n && ctype[n - 1] == '*' ? "" : " ", name);
}

static int emit_types(struct gen *g, const struct ltt_type_desc *t, const char *path, int as_element);

/* The path naming the element type of array or sequence t reached at `path`: the array's own name
 * when it is a field (it has no C struct of its own), NAME_elem when it is itself an element (it is
 * then a generated struct NAME). */
static const char *elem_path(struct gen *g, const struct ltt_type_desc *t, const char *path,
			     int as_element)
{
	const char *name = type_cname(g, t, path);

	return as_element ? gstr(g, "%s_elem", name) : name;
}

static const char *join(struct gen *g, const char *a, const char *b)
{
	return gstr(g, "%s_%s", a, b);
}

/* The member declarations of field f (of type t, C path `path`) inside a generated struct; in_union
 * wraps a sequence's two members in a struct so the alternative stays one member. */
static void member_decl(struct gen *g, const struct ltt_type_desc *t, const char *name, const char *path,
			unsigned level, int in_union)
{
	const char *ct, *pc;

	switch (t->kind) {
	case LTT_TYPE_ARRAY:
		ct = value_ctype(g, t->element, elem_path(g, t, path, 0));
		ind(&g->o, level);
		pr(&g->o, "%s[%u];\n", decl(g, ct, name), t->array_len);
		break;
	case LTT_TYPE_SEQUENCE:
		ct = value_ctype(g, t->element, elem_path(g, t, path, 0));
		pc = ptr_to_const(g, ct);
		ind(&g->o, level);
		if (in_union)
			pr(&g->o, "struct { size_t len; %sdata; } %s;\n", pc, name);
		else
			pr(&g->o, "size_t %s_len;\n", name), ind(&g->o, level), pr(&g->o, "%s%s;\n", pc, name);
		break;
	default:
		ind(&g->o, level);
		pr(&g->o, "%s;\n", decl(g, value_ctype(g, t, path), name));
		break;
	}
}

static int emit_enum(struct gen *g, const struct ltt_type_desc *t, const char *path)
{
	char *prefix = (char *)gstr(g, "%s", type_cname(g, t, path));
	const char *name;
	int r;

	for (char *p = prefix; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	for (uint32_t i = 0; i < t->n_labels; i++) {
		const struct ltt_enum_label *l = &t->labels[i];

		if (!is_ident(l->name))
			return gen_fail(g, t->line, "enum label '%s' is not a C identifier", l->name);
		name = join(g, prefix, l->name);
		if ((r = claim_name(g, name, t->line)))
			return r;
		pr(&g->o, "#define %s %llu%s\n", name, (unsigned long long)l->value,
		   l->value > 0xffffffffu ? "ull" : "u");
	}
	if (t->n_labels)
		put(&g->o, "\n", 1);
	return 0;
}

/* Defines, children first, every C struct and enum constant t needs. */
static int emit_types(struct gen *g, const struct ltt_type_desc *t, const char *path, int as_element)
{
	const char *name, *child;
	int r;

	if (is_done(g, t))
		return 0;
	name = type_cname(g, t, path);
	switch (t->kind) {
	case LTT_TYPE_ENUM:
		if ((r = mark_done(g, t)))
			return r;
		return emit_enum(g, t, path);
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		child = elem_path(g, t, path, as_element);
		if ((r = emit_types(g, t->element, child, 1)))
			return r;
		if (!as_element)
			return 0;	/* a field: no C struct of its own */
		break;
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		for (uint32_t i = 0; i < t->n_fields; i++) {
			if (!is_ident(t->fields[i].name))
				return gen_fail(g, t->fields[i].line, "field name '%s' is not a C identifier",
						t->fields[i].name);
			child = join(g, name, t->fields[i].name);
			if ((r = emit_types(g, t->fields[i].type, child, 0)))
				return r;
		}
		break;
	default:
		return 0;
	}
	if ((r = mark_done(g, t)) || (r = claim_name(g, name, t->line)))
		return r;
	pr(&g->o, "struct %s {\n", name);
	switch (t->kind) {
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE: {
		const char *ct = value_ctype(g, t->element, elem_path(g, t, path, 1));

		if (t->kind == LTT_TYPE_ARRAY)
			pr(&g->o, "\t%s[%u];\n", decl(g, ct, "v"), t->array_len);
		else
			pr(&g->o, "\tsize_t len;\n\t%sdata;\n", ptr_to_const(g, ct));
		break;
	}
	case LTT_TYPE_STRUCT:
		for (uint32_t i = 0; i < t->n_fields; i++)
			member_decl(g, t->fields[i].type, cname(g, t->fields[i].name),
				    join(g, name, t->fields[i].name), 1, 0);
		if (!t->n_fields)
			put(&g->o, "\tchar ltt_empty_[1];\t/* no fields: nothing is encoded */\n", 56);
		break;
	default: /* union */
		pr(&g->o, "\t%s code;\t/* which alternative: 0 .. %u */\n\tunion {\n", uint_c[t->size],
		   t->n_fields - 1);
		for (uint32_t i = 0; i < t->n_fields; i++)
			member_decl(g, t->fields[i].type, cname(g, t->fields[i].name),
				    join(g, name, t->fields[i].name), 2, 1);
		put(&g->o, "\t} u;\n", 6);
		break;
	}
	put(&g->o, "};\n\n", 4);
	return 0;
}

/* ---- size and encoding code ------------------------------------------------------------------- */

/* A constant C expression for the encoded size of fixed-size t on the compiling host. */
static void fixed_size_expr(const struct ltt_type_desc *t, struct out *o)
{
	switch (t->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
		put(o, size_c[t->size], strlen(size_c[t->size]));
		break;
	case LTT_TYPE_FLOAT:
		pr(o, "%u", ltt_float_bytes(t->size));
		break;
	case LTT_TYPE_ARRAY:
		pr(o, "%u * (", t->array_len);
		fixed_size_expr(t->element, o);
		put(o, ")", 1);
		break;
	case LTT_TYPE_STRUCT:
		if (!t->n_fields)
			put(o, "0", 1);
		for (uint32_t i = 0; i < t->n_fields; i++) {
			if (i)
				put(o, " + ", 3);
			fixed_size_expr(t->fields[i].type, o);
		}
		break;
	case LTT_TYPE_UNION: /* fixed: every alternative has the size of the first */
		pr(o, "%s + ", size_c[t->size]);
		fixed_size_expr(t->fields[0].type, o);
		break;
	default:
		put(o, "0", 1);
		break;
	}
}

/* How generated code reaches a value: an expression, or for a sequence its count and data. */
struct access {
	const char *expr;	/* the value (array: the array or pointer to its first element) */
	const char *len;	/* SEQUENCE: the element count */
};

static void field_access(struct gen *g, const struct access *parent, const struct ltt_type_desc *pt, uint32_t i,
			 struct access *a)
{
	const struct ltt_field_desc *f = &pt->fields[i];
	const char *n = cname(g, f->name);

	if (pt->kind == LTT_TYPE_UNION) {
		if (f->type->kind == LTT_TYPE_SEQUENCE) {
			a->expr = gstr(g, "(%s).u.%s.data", parent->expr, n);
			a->len = gstr(g, "(%s).u.%s.len", parent->expr, n);
		} else {
			a->expr = gstr(g, "(%s).u.%s", parent->expr, n);
			a->len = "";
		}
	} else {
		a->expr = gstr(g, "(%s).%s", parent->expr, n);
		a->len = gstr(g, "(%s).%s_len", parent->expr, n);
	}
}

/* The access of element `idx` of an array or sequence reached by `a`. */
static void element_access(struct gen *g, const struct access *a, const struct ltt_type_desc *elem,
			   const char *idx, struct access *e)
{
	e->len = "";
	if (elem->kind == LTT_TYPE_ARRAY) {
		e->expr = gstr(g, "%s[%s].v", a->expr, idx);
	} else if (elem->kind == LTT_TYPE_SEQUENCE) {
		e->expr = gstr(g, "%s[%s].data", a->expr, idx);
		e->len = gstr(g, "%s[%s].len", a->expr, idx);
	} else {
		e->expr = gstr(g, "%s[%s]", a->expr, idx);
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
static void size_code(struct gen *g, const struct ltt_type_desc *t, const struct access *a, unsigned level,
		      unsigned depth)
{
	struct out *o = &g->o;
	struct access k;
	const char *idx = gstr(g, "ltt_i%u_", depth);

	if (!t->variable && !has_union(t)) {
		ind(o, level);
		put(o, "ltt_len_ += ", 12);
		fixed_size_expr(t, o);
		put(o, ";\n", 2);
		return;
	}
	switch (t->kind) {
	case LTT_TYPE_STRING:
		ind(o, level);
		pr(o, "ltt_len_ += (%s ? strlen(%s) : 0) + 1;\n", a->expr, a->expr);
		break;
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		if (t->kind == LTT_TYPE_SEQUENCE) {
			ind(o, level);
			pr(o, "ltt_len_ += %s;\n", size_c[t->size]);
			if (!t->element->variable && !has_union(t->element)) {
				ind(o, level);
				pr(o, "ltt_len_ += ltt_gen_seqlen(%s, %s, %s) * (", a->len, a->expr, size_c[t->size]);
				fixed_size_expr(t->element, o);
				put(o, ");\n", 3);
				break;
			}
		}
		ind(o, level);
		if (t->kind == LTT_TYPE_ARRAY)
			pr(o, "for (size_t %s = 0; %s < %u; %s++) {\n", idx, idx, t->array_len, idx);
		else
			pr(o, "for (size_t %s = 0; %s < ltt_gen_seqlen(%s, %s, %s); %s++) {\n", idx, idx, a->len,
			   a->expr, size_c[t->size], idx);
		element_access(g, a, t->element, idx, &k);
		size_code(g, t->element, &k, level + 1, depth + 1);
		ind(o, level);
		put(o, "}\n", 2);
		break;
	case LTT_TYPE_STRUCT:
		for (uint32_t i = 0; i < t->n_fields; i++) {
			field_access(g, a, t, i, &k);
			size_code(g, t->fields[i].type, &k, level, depth);
		}
		break;
	case LTT_TYPE_UNION:
		ind(o, level);
		pr(o, "ltt_len_ += %s;\n", size_c[t->size]);
		ind(o, level);
		pr(o, "switch ((%s).code) {\n", a->expr);
		for (uint32_t i = 0; i < t->n_fields; i++) {
			ind(o, level);
			pr(o, "case %u:\n", i);
			field_access(g, a, t, i, &k);
			size_code(g, t->fields[i].type, &k, level + 1, depth);
			ind(o, level + 1);
			put(o, "break;\n", 7);
		}
		ind(o, level);
		put(o, "default:\n", 9);
		ind(o, level + 1);
		put(o, "return;\t/* code out of range: not recorded */\n", 46);
		ind(o, level);
		put(o, "}\n", 2);
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
static void encode_code(struct gen *g, const struct ltt_type_desc *t, const struct access *a,
			unsigned level, unsigned depth)
{
	struct out *o = &g->o;
	struct access k;
	const char *idx = gstr(g, "ltt_i%u_", depth);

	switch (t->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
	case LTT_TYPE_FLOAT:
		ind(o, level);
		pr(o, "memcpy(ltt_p_, &%s, sizeof(%s));\n", a->expr, a->expr);
		ind(o, level);
		pr(o, "ltt_p_ += sizeof(%s);\n", a->expr);
		break;
	case LTT_TYPE_STRING:
		ind(o, level);
		pr(o, "ltt_p_ = ltt_gen_putstr(ltt_p_, %s);\n", a->expr);
		break;
	case LTT_TYPE_ARRAY:
		if (c_layout_is_encoding(t)) {
			ind(o, level);
			put(o, "memcpy(ltt_p_, ", 15);
			pr(o, "%s, ", a->expr);
			fixed_size_expr(t, o);
			put(o, ");\n", 3);
			ind(o, level);
			put(o, "ltt_p_ += ", 10);
			fixed_size_expr(t, o);
			put(o, ";\n", 2);
			break;
		}
		/* fall through */
	case LTT_TYPE_SEQUENCE:
		ind(o, level);
		put(o, "{\n", 2);
		ind(o, level + 1);
		if (t->kind == LTT_TYPE_ARRAY) {
			pr(o, "const size_t ltt_n%u_ = %u;\n", depth, t->array_len);
		} else {
			pr(o, "const %s ltt_n%u_ = (%s)ltt_gen_seqlen(%s, %s, %s);\n", uint_c[t->size], depth,
			   uint_c[t->size], a->len, a->expr, size_c[t->size]);
			ind(o, level + 1);
			pr(o, "memcpy(ltt_p_, &ltt_n%u_, sizeof(ltt_n%u_));\n", depth, depth);
			ind(o, level + 1);
			pr(o, "ltt_p_ += sizeof(ltt_n%u_);\n", depth);
		}
		if (c_layout_is_encoding(t->element)) {
			ind(o, level + 1);
			pr(o, "if (ltt_n%u_) {\n", depth);
			ind(o, level + 2);
			pr(o, "memcpy(ltt_p_, %s, (size_t)ltt_n%u_ * sizeof(*%s));\n", a->expr, depth, a->expr);
			ind(o, level + 2);
			pr(o, "ltt_p_ += (size_t)ltt_n%u_ * sizeof(*%s);\n", depth, a->expr);
			ind(o, level + 1);
			put(o, "}\n", 2);
		} else {
			ind(o, level + 1);
			pr(o, "for (size_t %s = 0; %s < ltt_n%u_; %s++) {\n", idx, idx, depth, idx);
			element_access(g, a, t->element, idx, &k);
			encode_code(g, t->element, &k, level + 2, depth + 1);
			ind(o, level + 1);
			put(o, "}\n", 2);
		}
		ind(o, level);
		put(o, "}\n", 2);
		break;
	case LTT_TYPE_STRUCT:
		for (uint32_t i = 0; i < t->n_fields; i++) {
			field_access(g, a, t, i, &k);
			encode_code(g, t->fields[i].type, &k, level, depth);
		}
		break;
	case LTT_TYPE_UNION:
		ind(o, level);
		pr(o, "memcpy(ltt_p_, &(%s).code, sizeof((%s).code));\n", a->expr, a->expr);
		ind(o, level);
		pr(o, "ltt_p_ += sizeof((%s).code);\n", a->expr);
		ind(o, level);
		pr(o, "switch ((%s).code) {\n", a->expr);
		for (uint32_t i = 0; i < t->n_fields; i++) {
			ind(o, level);
			pr(o, "case %u:\n", i);
			field_access(g, a, t, i, &k);
			encode_code(g, t->fields[i].type, &k, level + 1, depth);
			ind(o, level + 1);
			put(o, "break;\n", 7);
		}
		ind(o, level);
		put(o, "default:\n", 9);
		ind(o, level + 1);
		put(o, "break;\n", 7);
		ind(o, level);
		put(o, "}\n", 2);
		break;
	default:
		break;
	}
}

/* ---- one header ------------------------------------------------------------------------------- */

static const char helpers[] =
	"#ifndef LTT_GEN_HELPERS\n"
	"#define LTT_GEN_HELPERS\n"
	"/* Hooks: a program may define these before including a generated header (tests do, to encode\n"
	" * into their own buffer); by default they are libltt's event path (ltt/ltt.h). */\n"
	"#ifndef LTT_GEN_IS_RECORDING\n"
	"#define LTT_GEN_IS_RECORDING() ltt_is_recording()\n"
	"#endif\n"
	"#ifndef LTT_GEN_RESERVE\n"
	"#define LTT_GEN_RESERVE(slot, fac, index, len, flags) ltt_event_reserve(slot, fac, index, len, flags)\n"
	"#endif\n"
	"#ifndef LTT_GEN_COMMIT\n"
	"#define LTT_GEN_COMMIT(slot) ltt_event_commit(slot)\n"
	"#endif\n"
	"#ifndef LTT_GEN_REGISTER\n"
	"#define LTT_GEN_REGISTER(fac) ltt_facility_register(fac)\n"
	"#endif\n"
	"\n"
	"/* The element count a sequence records: 0 for a NULL pointer, at most what its length field holds. */\n"
	"static inline size_t ltt_gen_seqlen(size_t len, const void *data, size_t lengthsize)\n"
	"{\n"
	"\tsize_t max = lengthsize >= sizeof(size_t) ? (size_t)-1 : ((size_t)1 << (8 * lengthsize)) - 1;\n"
	"\n"
	"\treturn data ? (len < max ? len : max) : 0;\n"
	"}\n"
	"\n"
	"/* Copies a string and its NUL (NULL records an empty string); returns the end. */\n"
	"static inline char *ltt_gen_putstr(char *p, const char *s)\n"
	"{\n"
	"\tsize_t n = s ? strlen(s) : 0;\n"
	"\n"
	"\tif (n)\n"
	"\t\tmemcpy(p, s, n);\n"
	"\tp[n] = '\\0';\n"
	"\treturn p + n + 1;\n"
	"}\n"
	"\n"
	"/* Copies the n bytes of a string measured before (s may be NULL when n is 0), then a NUL. */\n"
	"static inline char *ltt_gen_putstrn(char *p, const char *s, size_t n)\n"
	"{\n"
	"\tif (n)\n"
	"\t\tmemcpy(p, s, n);\n"
	"\tp[n] = '\\0';\n"
	"\treturn p + n + 1;\n"
	"}\n"
	"#endif\n\n";

/* The parameter list of an event (", "-separated), and the NULL checks of pointer parameters. */
static void params(struct gen *g, const struct ltt_event_desc *ev, const char *path)
{
	const struct ltt_type_desc *b = ev->body;
	const char *ct, *child;

	if (!b || !b->n_fields) {
		put(&g->o, "void", 4);
		return;
	}
	for (uint32_t i = 0; i < b->n_fields; i++) {
		const struct ltt_type_desc *t = b->fields[i].type;
		const char *n = cname(g, b->fields[i].name);

		if (i)
			put(&g->o, ", ", 2);
		child = join(g, path, b->fields[i].name);
		switch (t->kind) {
		case LTT_TYPE_ARRAY:
			ct = value_ctype(g, t->element, elem_path(g, t, child, 0));
			pr(&g->o, "%s%s", ptr_to_const(g, ct), n);
			break;
		case LTT_TYPE_SEQUENCE:
			ct = value_ctype(g, t->element, elem_path(g, t, child, 0));
			pr(&g->o, "size_t %s_len, %s%s", n, ptr_to_const(g, ct), n);
			break;
		case LTT_TYPE_STRUCT:
		case LTT_TYPE_UNION:
			pr(&g->o, "const %s *%s", value_ctype(g, t, child), n);
			break;
		default:
			put(&g->o, decl(g, value_ctype(g, t, child), n), strlen(decl(g, value_ctype(g, t, child), n)));
			break;
		}
	}
}

/* Whether the parameter names of an event are distinct (a sequence adds NAME_len). */
static int check_params(struct gen *g, const struct ltt_event_desc *ev)
{
	const struct ltt_type_desc *b = ev->body;
	struct hset seen = { .strings = 1 };
	int r = 0;

	for (uint32_t i = 0; b && i < b->n_fields && !r; i++)
		r = hset_has(&seen, cname(g, b->fields[i].name), 1);
	for (uint32_t i = 0; b && i < b->n_fields && !r; i++) {
		if (b->fields[i].type->kind != LTT_TYPE_SEQUENCE)
			continue;
		r = hset_has(&seen, gstr(g, "%s_len", cname(g, b->fields[i].name)), 1);
		if (r == 1)
			r = gen_fail(g, b->fields[i].line,
				     "the length parameter of sequence '%s' collides with another parameter",
				     b->fields[i].name);
	}
	free(seen.keys);
	return r == 1 ? gen_fail(g, ev->line, "two parameters of event '%s' have one C name", ev->name) : r;
}

/* A comment line "NAME: TEXT" (TEXT on one line, never closing the comment). */
static void comment(struct gen *g, const char *name, const char *text)
{
	if (!text)
		return;
	pr(&g->o, "/* %s: ", name);
	for (const char *p = text; *p; p++) {
		if (*p == '*' && p[1] == '/')
			put(&g->o, "* ", 2);
		else if ((unsigned char)*p < 0x20)
			put(&g->o, " ", 1);
		else
			put(&g->o, p, 1);
	}
	put(&g->o, " */\n", 4);
}

static int emit_event(struct gen *g, const struct ltt_event_desc *ev)
{
	const struct ltt_type_desc *b = ev->body;
	const char *fac = g->fac->name;
	const char *path, *fn;
	int r;

	if (!is_ident(ev->name))
		return gen_fail(g, ev->line, "event name '%s' is not a C identifier", ev->name);
	path = join(g, fac, ev->name);
	for (uint32_t i = 0; b && !b->name && i < b->n_fields; i++) {
		/* an inline body has no C struct: its fields are the parameters */
		if (!is_ident(b->fields[i].name))
			return gen_fail(g, b->fields[i].line, "field name '%s' is not a C identifier",
					b->fields[i].name);
		if ((r = emit_types(g, b->fields[i].type, join(g, path, b->fields[i].name), 0)))
			return r;
	}
	if ((r = check_params(g, ev)))
		return r;
	fn = gstr(g, "trace_%s_%s", fac, ev->name);
	if ((r = claim_name(g, fn, ev->line)))
		return r;
	comment(g, ev->name, ev->description);
	pr(&g->o, "static inline void %s(", fn);
	/* a typeref body names its fields' types after the named struct */
	params(g, ev, b && b->name ? type_cname(g, b, path) : path);
	put(&g->o, ")\n{\n", 4);
	put(&g->o, "\tif (ltt_unlikely(LTT_GEN_IS_RECORDING())) {\n", 45);
	put(&g->o, "\t\tstruct ltt_slot ltt_s_;\n", 26);
	put(&g->o, "\t\tsize_t ltt_len_ = 0;\n\n", 24);
	for (uint32_t i = 0; b && i < b->n_fields; i++) {
		enum ltt_type_kind k = b->fields[i].type->kind;

		if (k == LTT_TYPE_ARRAY || k == LTT_TYPE_STRUCT || k == LTT_TYPE_UNION)
			pr(&g->o, "\t\tif (!%s)\n\t\t\treturn;\n", cname(g, b->fields[i].name));
	}
	for (uint32_t i = 0; b && i < b->n_fields; i++) {
		const struct ltt_type_desc *t = b->fields[i].type;
		const char *n = cname(g, b->fields[i].name);
		struct access a;

		if (t->kind == LTT_TYPE_STRING) {
			/* measured once: the copy takes exactly the bytes reserved */
			pr(&g->o, "\t\tconst size_t ltt_s%u_ = %s ? strlen(%s) : 0;\n", i, n, n);
			pr(&g->o, "\t\tltt_len_ += ltt_s%u_ + 1;\n", i);
			continue;
		}
		a.expr = t->kind == LTT_TYPE_STRUCT || t->kind == LTT_TYPE_UNION ? gstr(g, "(*%s)", n) : n;
		a.len = gstr(g, "%s_len", n);
		size_code(g, t, &a, 2, 0);
	}
	pr(&g->o, "\t\tif (LTT_GEN_RESERVE(&ltt_s_, &ltt_facility_%s, %u, ltt_len_, %s)) {\n", fac, ev->index,
	   ev->persistent ? "LTT_EVENT_PERSISTENT" : "0");
	if (b && b->n_fields)
		put(&g->o, "\t\t\tchar *ltt_p_ = ltt_s_.payload;\n\n", 35);
	for (uint32_t i = 0; b && i < b->n_fields; i++) {
		const struct ltt_type_desc *t = b->fields[i].type;
		const char *n = cname(g, b->fields[i].name);
		struct access a;

		if (t->kind == LTT_TYPE_STRING) {
			pr(&g->o, "\t\t\tltt_p_ = ltt_gen_putstrn(ltt_p_, %s, ltt_s%u_);\n", n, i);
			continue;
		}
		a.expr = t->kind == LTT_TYPE_STRUCT || t->kind == LTT_TYPE_UNION ? gstr(g, "(*%s)", n) : n;
		a.len = gstr(g, "%s_len", n);
		encode_code(g, t, &a, 3, 0);
	}
	if (b && b->n_fields)
		put(&g->o, "\t\t\t(void)ltt_p_;\n", 17);
	put(&g->o, "\t\t\tLTT_GEN_COMMIT(&ltt_s_);\n\t\t}\n\t}\n}\n\n", 38);
	return 0;
}

/* The facility's XML as a C string literal, one source line per XML line. */
static void xml_literal(struct gen *g, const char *xml)
{
	put(&g->o, "\t\"", 2);
	for (const char *p = xml; *p; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '\n') {
			put(&g->o, p[1] ? "\\n\"\n\t\"" : "\\n\"", p[1] ? 6 : 3);
		} else if (c == '"' || c == '\\') {
			pr(&g->o, "\\%c", c);
		} else if (c < 0x20 || c >= 0x7f || c == '?') {
			pr(&g->o, "\\%03o", c);	/* octal: also keeps "??" trigraphs out */
		} else {
			put(&g->o, p, 1);
		}
	}
	if (!*xml || xml[strlen(xml) - 1] != '\n')
		put(&g->o, "\"", 1);
}

static int gen_facility(struct gen *g)
{
	const struct ltt_facility_desc *f = g->fac;
	char *upper, *xml;
	int r;

	if (!is_ident(f->name))
		return gen_fail(g, f->line, "facility name '%s' is not a C identifier", f->name);
	if ((r = ltt_facility_to_xml(f, &xml)))
		return r;
	upper = (char *)gstr(g, "%s", f->name);
	for (char *p = upper; *p; p++)
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	pr(&g->o, "/* Generated by `ltt gen` from the facility '%s' (checksum 0x%08x). Do not edit. */\n",
	   f->name, f->checksum);
	pr(&g->o, "#ifndef LTT_GEN_%s_H\n#define LTT_GEN_%s_H\n\n", upper, upper);
	put(&g->o, "#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n#include <ltt/ltt.h>\n\n", 83);
	put(&g->o, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", 40);
	put(&g->o, helpers, sizeof(helpers) - 1);
	pr(&g->o, "#define LTT_FACILITY_%s_CHECKSUM 0x%08xu\n\n", upper, f->checksum);
	pr(&g->o, "/* The facility, one object per program (weak), registered by every including unit. */\n");
	pr(&g->o, "__attribute__((weak)) struct ltt_facility ltt_facility_%s = {\n", f->name);
	pr(&g->o, "\t\"%s\",\n", f->name);
	xml_literal(g, xml);
	free(xml);
	pr(&g->o, ",\n\t0x%08xu,\n\t%u,\n\t0,\n\tNULL,\n};\n\n", f->checksum, f->n_events);
	pr(&g->o, "__attribute__((constructor, unused)) static void ltt_gen_register_%s(void)\n{\n"
	   "\t(void)LTT_GEN_REGISTER(&ltt_facility_%s);\n}\n\n", f->name, f->name);
	for (uint32_t i = 0; i < f->n_types; i++) {
		if (!is_ident(f->types[i].name))
			return gen_fail(g, f->types[i].line, "type name '%s' is not a C identifier",
					f->types[i].name);
		if ((r = emit_types(g, f->types[i].type, join(g, f->name, f->types[i].name), 0)))
			return r;
	}
	for (uint32_t i = 0; i < f->n_events; i++)
		if ((r = emit_event(g, &f->events[i])))
			return r;
	put(&g->o, "#ifdef __cplusplus\n}\n#endif\n#endif\n", 35);
	return g->o.nomem ? -ENOMEM : 0;
}

/* ---- files ------------------------------------------------------------------------------------ */

/* Writes text to path unless the file already holds exactly that text. */
static int write_if_changed(const char *path, const char *text, size_t len)
{
	char tmp[4200];
	FILE *f = fopen(path, "rb");
	int same = 0;

	if (f) {
		char *old = malloc(len + 1);

		if (old && fread(old, 1, len + 1, f) == len && !memcmp(old, text, len))
			same = 1;
		free(old);
		fclose(f);
	}
	if (same)
		return 0;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return -ENAMETOOLONG;
	f = fopen(tmp, "wb");
	if (!f)
		return -errno;
	if (fwrite(text, 1, len, f) != len) {
		fclose(f);
		remove(tmp);
		return -EIO;
	}
	if (fclose(f)) {
		remove(tmp);
		return -EIO;
	}
	if (rename(tmp, path)) {
		int e = -errno;

		remove(tmp);
		return e;
	}
	return 0;
}

static void gen_free(struct gen *g)
{
	free(g->names.keys);
	free(g->done.keys);
	for (size_t i = 0; i < g->n_strs; i++)
		free(g->strs[i]);
	free(g->strs);
	free(g->o.buf);
	memset(g, 0, sizeof(*g));
}

static int run(int argc, char **argv)
{
	struct ltt_eventdefs **defs;
	const char *dir = ".";
	char err[512], path[4096];
	int n = 0, status = 0, r;

	defs = calloc((size_t)argc, sizeof(*defs));
	if (!defs) {
		ltt_tool_error("gen", "out of memory");
		return 1;
	}
	for (int i = 1; i < argc && !status; i++) {
		if (!strcmp(argv[i], "-o")) {
			if (++i >= argc) {
				ltt_tool_error("gen", "-o needs a directory");
				status = 2;
			} else {
				dir = argv[i];
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			ltt_tool_error("gen", "unknown option '%s'", argv[i]);
			status = 2;
		} else if (ltt_eventdefs_parse_file(argv[i], &defs[n], err, sizeof(err))) {
			ltt_tool_error("gen", "%s", err);
			status = 1;
		} else {
			n++;
		}
	}
	if (!status && !n) {
		ltt_tool_error("gen", "no facility file given (ltt gen FILE.xml... [-o DIR])");
		status = 2;
	}
	if (!status && mkdir(dir, 0777) && errno != EEXIST) {
		ltt_tool_error("gen", "%s: cannot create: %s", dir, strerror(errno));
		status = 1;
	}
	/* one header per facility name: two facilities of that name would overwrite each other */
	for (int i = 0; i < n && !status; i++) {
		for (uint32_t k = 0; k < defs[i]->n_facilities && !status; k++) {
			const struct ltt_facility_desc *f = &defs[i]->facilities[k];

			for (int j = 0; j <= i && !status; j++) {
				uint32_t end = j == i ? k : defs[j]->n_facilities;

				for (uint32_t m = 0; m < end; m++) {
					const struct ltt_facility_desc *o = &defs[j]->facilities[m];

					if (strcmp(o->name, f->name))
						continue;
					ltt_tool_error("gen", "%s:%u: facility '%s' already defined at %s:%u", f->file,
						       f->line, f->name, o->file, o->line);
					status = 1;
					break;
				}
			}
		}
	}
	for (int i = 0; i < n && !status; i++) {
		for (uint32_t k = 0; k < defs[i]->n_facilities && !status; k++) {
			struct gen g = { .fac = &defs[i]->facilities[k], .names.strings = 1 };

			r = gen_facility(&g);
			if (r) {
				ltt_tool_error("gen", "%s", g.err[0] ? g.err : "out of memory");
				status = 1;
			} else if ((size_t)snprintf(path, sizeof(path), "%s/%s.h", dir, g.fac->name) >= sizeof(path)) {
				ltt_tool_error("gen", "%s: path too long", dir);
				status = 1;
			} else if ((r = write_if_changed(path, g.o.buf, g.o.len))) {
				ltt_tool_error("gen", "%s: cannot write: %s", path, strerror(-r));
				status = 1;
			}
			gen_free(&g);
		}
	}
	for (int i = 0; i < n; i++)
		ltt_eventdefs_free(defs[i]);
	free(defs);
	return status;
}

const struct ltt_cmd ltt_cmd_gen = {
	.name = "gen",
	.summary = "generate the C header of each facility (trace_<facility>_<event>() functions)",
	.usage = "usage: ltt gen FILE.xml... [-o DIR]\n\n"
		 "Writes DIR/FACILITY.h (default DIR: .) for every facility of the files: typed\n"
		 "trace_<facility>_<event>() functions, the facility's XML and checksum, and its\n"
		 "registration with libltt. A header is rewritten only when its text changes.\n"
		 "See doc/eventdefs.md. On a bad file, prints FILE:LINE: what, and exits with status 1.\n",
	.run = run,
};
