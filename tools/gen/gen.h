/* SPDX-License-Identifier: MIT */
/* ltt gen, private to tools/: the generation context and the pieces of code generation
 * (gen_util.c: output and names; gen_types.c: C types and struct definitions; gen_encode.c: size and
 * encoding statements; cmd_gen.c: headers and files). */
#ifndef LTT_TOOLS_GEN_H
#define LTT_TOOLS_GEN_H

#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include <ltt/eventdefs.h>

#include "common/buf.h"
#include "common/hashmap.h"

/* A growing hash set of strings (strings != 0) or pointers (gen_hset_has). */
struct hset_key {
	const void *p;
	int strings;
};

static inline uint64_t hset_hash(struct hset_key k)
{
	return k.strings ? ltt_hash_str(k.p) : ltt_hash_ptr(k.p);
}

static inline int hset_eq(struct hset_key a, struct hset_key b)
{
	return a.strings ? !strcmp(a.p, b.p) : a.p == b.p;
}

LTT_MAP_DEFINE(hset_map, struct hset_key, char, hset_hash, hset_eq)

struct hset {
	struct hset_map m;
	int strings;
};

/* One facility being generated. */
struct gen {
	const struct ltt_facility_desc *fac;
	/* what starts the names a program uses (`ltt gen --prefix`): trace_<prefix><event>(), struct
	 * <prefix><type>, enum constants <PREFIX><TYPE>_<label>; NULL: "<facility>_" (set by
	 * gen_facility()) */
	const char *prefix;
	struct ltt_buf o;
	char err[512];
	/* struct types already defined, and every global name, to refuse collisions */
	struct hset done;
	struct hset names;
	char **strs;			/* strings made by gen_str(), freed with the context */
	size_t n_strs, cap_strs;
};

/* How generated code reaches a value: an expression, or for a sequence its count and data. */
struct access {
	const char *expr;	/* the value (array: the array or pointer to its first element) */
	const char *len;	/* SEQUENCE: the element count */
};

/* Writes the header of g->fac into g->o: 0, or -EINVAL with g->err set (gen_fail), or -ENOMEM. */
int gen_facility(struct gen *g);
/* Frees what g holds and zeroes it. */
void gen_free(struct gen *g);

void gen_ind(struct ltt_buf *o, unsigned level);		/* one tab per level */

/* A formatted string owned by g (freed with it); "" when out of memory (g->o.nomem set). */
const char *gen_str(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Records the first error, FILE:LINE: message, in g->err; returns -EINVAL. */
int gen_fail(struct gen *g, unsigned line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int gen_is_ident(const char *s);
/* A field name as a C identifier: C and C++ keywords get a trailing underscore. */
const char *gen_cname(struct gen *g, const char *name);
/* 1 if k is in the set; else adds it when add is set (0, or -ENOMEM). */
int gen_hset_has(struct hset *h, const void *k, int add);
void gen_hset_free(struct hset *h);
/* Records a global name of the header; a second definition of one name is an error. */
int gen_claim_name(struct gen *g, const char *name, unsigned line);
const char *gen_join(struct gen *g, const char *a, const char *b);	/* "a_b" */

/* C types by size index: int, uint (and enum), and the encoded size on the compiling host. */
extern const char *const gen_int_c[LTT_SIZE_COUNT];
extern const char *const gen_uint_c[LTT_SIZE_COUNT];
extern const char *const gen_size_c[LTT_SIZE_COUNT];

const char *gen_type_cname(struct gen *g, const struct ltt_type_desc *t, const char *path);
const char *gen_value_ctype(struct gen *g, const struct ltt_type_desc *t, const char *path);
const char *gen_ptr_to_const(struct gen *g, const char *ctype);
const char *gen_decl(struct gen *g, const char *ctype, const char *name);
const char *gen_elem_path(struct gen *g, const struct ltt_type_desc *t, const char *path, int as_element);
/* Defines, children first, every C struct and enum constant t needs (once per type). */
int gen_emit_types(struct gen *g, const struct ltt_type_desc *t, const char *path, int as_element);

/* A constant C expression for the encoded size of fixed-size t on the compiling host. */
void gen_fixed_size_expr(const struct ltt_type_desc *t, struct ltt_buf *o);
/* Statements adding t's encoded size to ltt_len_ (a union code out of range returns). */
/* Whether t is or contains a string. */
int gen_has_string(const struct ltt_type_desc *t);
void gen_size_code(struct gen *g, const struct ltt_type_desc *t, const struct access *a, unsigned level,
		   unsigned depth);
/* Statements encoding the value reached by a at ltt_p_, advancing it. */
void gen_encode_code(struct gen *g, const struct ltt_type_desc *t, const struct access *a, unsigned level,
		     unsigned depth);

#endif
