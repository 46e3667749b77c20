/* SPDX-License-Identifier: MIT */
/* ltt gen: the output buffer, owned strings, errors, C names and hash sets. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "gen.h"

/* Indentation: one tab per level. */
void gen_ind(struct ltt_buf *o, unsigned level)
{
	for (unsigned i = 0; i < level; i++)
		ltt_buf_add(o, "\t", 1);
}

/* A formatted string owned by g (freed by gen_free); "" when out of memory (g->o.nomem set). */
const char *gen_str(struct gen *g, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	if (LTT_GROW(g->strs, g->n_strs + 1, g->cap_strs)) {
		g->o.nomem = 1;
		return "";
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

int gen_fail(struct gen *g, unsigned line, const char *fmt, ...)
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

int gen_is_ident(const char *s)
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
const char *gen_cname(struct gen *g, const char *name)
{
	for (const char *const *k = keywords; *k; k++)
		if (!strcmp(name, *k))
			return gen_str(g, "%s_", name);
	return name;
}

/* 1 if k is in the set (what was generated already); else adds it when add is set (0, or -ENOMEM). */
int gen_hset_has(struct hset *h, const void *k, int add)
{
	struct hset_key key = { k, h->strings };

	if (hset_map_find(&h->m, key))
		return 1;
	if (add && !hset_map_put(&h->m, key, NULL))
		return -ENOMEM;
	return 0;
}

void gen_hset_free(struct hset *h)
{
	hset_map_free(&h->m);
}

/* Records a global name of the header; two definitions of one name are an error. */
int gen_claim_name(struct gen *g, const char *name, unsigned line)
{
	int r = gen_hset_has(&g->names, gen_str(g, "%s", name), 1);

	if (r == 1)
		return gen_fail(g, line, "generated name '%s' would be defined twice", name);
	return r;
}
