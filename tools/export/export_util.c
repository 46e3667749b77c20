/* Helpers of the export formats (export.h): field walking and trace facts. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"

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
		name[used < namelen ? used : namelen - 1] = 0;
		return fn(arg, name, strlen(name), v);
	}
	for (ret = ltt_value_first(v, &c); !ret && i < max_elems; ret = ltt_value_next(v, &c), i++) {
		size_t n = used;
		int w;

		if (v->type->kind == LTT_TYPE_ARRAY || v->type->kind == LTT_TYPE_SEQUENCE)
			w = snprintf(name + used, used < namelen ? namelen - used : 0, "[%llu]",
				     (unsigned long long)i);
		else
			w = snprintf(name + used, used < namelen ? namelen - used : 0, "%s%s",
				     used ? "." : "", c.name ? c.name : "");
		n += w > 0 ? (size_t)w : 0;
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
