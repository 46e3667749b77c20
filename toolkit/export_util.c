/* SPDX-License-Identifier: MIT */
/* Helpers of the export formats (export.h): field walking and trace facts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/export.h"

/* Appends a then b to name at used (as far as namelen - 1 allows, NUL not written); returns the
 * length of a and b (snprintf's count: the caller clamps). A plain copy: snprintf per leaf was a third
 * of the CPU of the Chrome JSON export. */
static size_t name_put(char *name, size_t namelen, size_t used, const char *a, size_t alen, const char *b,
		       size_t blen)
{
	if (used + 1 < namelen) {
		size_t room = namelen - 1 - used;
		size_t na = alen < room ? alen : room;
		size_t nb = blen < room - na ? blen : room - na;

		memcpy(name + used, a, na);
		memcpy(name + used + na, b, nb);
	}
	return alen + blen;
}

int export_walk(const struct ltt_value *v, char *name, size_t namelen, size_t used, uint64_t max_elems,
		export_leaf_fn fn, void *arg)
{
	struct ltt_value c;
	uint64_t i = 0;
	int ret, r;

	switch (v->type->kind) {
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		break;
	default:
		used = used < namelen ? used : namelen - 1;
		name[used] = 0;
		return fn(arg, name, used, v);
	}
	for (ret = ltt_value_first(v, &c); !ret && i < max_elems; ret = ltt_value_next(v, &c), i++) {
		size_t n = used;

		if (v->type->kind == LTT_TYPE_ARRAY || v->type->kind == LTT_TYPE_SEQUENCE) {
			char d[24];	/* "[" digits "]" */
			size_t k = sizeof(d);
			uint64_t x = i;

			d[--k] = ']';
			do
				d[--k] = (char)('0' + x % 10);
			while ((x /= 10) != 0);
			d[--k] = '[';
			n += name_put(name, namelen, used, d + k, sizeof(d) - k, "", 0);
		} else {
			const char *cn = c.name ? c.name : "";

			n += name_put(name, namelen, used, ".", used ? 1 : 0, cn, strlen(cn));
		}
		if (n >= namelen)
			n = namelen - 1;
		r = export_walk(&c, name, namelen, n, max_elems, fn, arg);
		if (r)
			return r;
	}
	return 0;
}

const char *export_trace_program(const struct ltt_trace_info *t)
{
	const char *p = ltt_trace_attr(t, "ltt_program"), *s;
	size_t n;

	if (p && *p)
		return p;
	/* the directory's last component */
	p = t->path;
	n = strlen(p);
	while (n > 1 && p[n - 1] == '/')
		n--;
	for (s = p + n; s > p && s[-1] != '/'; s--)
		;
	return s;
}

uint32_t export_trace_pid(const struct ltt_trace_info *t)
{
	const char *p = ltt_trace_attr(t, "ltt_pid");

	return p ? (uint32_t)strtoul(p, NULL, 10) : 0;
}

int export_tracefile_kept(const struct ltt_export_ctx *ctx, const struct ltt_tracefile_info *tf)
{
	if (!ctx->ncpus)
		return 1;
	for (unsigned c = 0; c < ctx->ncpus; c++)
		if (tf->cpu == ctx->cpus[c])
			return 1;
	return 0;
}
