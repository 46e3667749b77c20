/* SPDX-License-Identifier: MIT */
/* The thread of an event and --tid lists (event_tid.h). */
#include <errno.h>
#include <string.h>

#include "common/parse.h"
#include "toolkit/dump_plan.h"
#include "toolkit/event_tid.h"

int event_tid(const struct ltt_event *ev, int64_t *tid)
{
	const struct ltt_type_desc *b = ev->type->body;
	struct ltt_value body, v;

	if (!b || b->kind != LTT_TYPE_STRUCT || !b->n_fields)
		return 0;
	if (!strcmp(b->fields[0].name, "tid")) {	/* context="tid": the first field */
		const struct ltt_type_desc *t = b->fields[0].type;
		unsigned bytes;

		if (t->kind != LTT_TYPE_INT && t->kind != LTT_TYPE_UINT)
			return 0;
		bytes = ltt_size_bytes(t->size, (enum ltt_arch_size)ev->arch);
		if ((bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) || ev->size < bytes)
			return 0;
		uint64_t x = dump_load(ev->payload, bytes, ev->big_endian);

		if (t->kind == LTT_TYPE_INT && bytes < 8 && (x >> (bytes * 8 - 1)) & 1)
			x |= ~0ull << (bytes * 8);	/* sign-extended */
		*tid = (int64_t)x;
		return 1;
	}
	if (ltt_event_body(ev, &body) || ltt_value_field(&body, "tid", &v))
		return 0;
	if (v.type->kind == LTT_TYPE_INT)
		*tid = ltt_value_int(&v);
	else if (v.type->kind == LTT_TYPE_UINT)
		*tid = (int64_t)ltt_value_uint(&v);
	else
		return 0;
	return 1;
}

int tid_list_parse(struct tid_list *l, const char *arg)
{
	char one[32];

	for (const char *p = arg;; ) {
		size_t n = strcspn(p, ",");
		uint64_t v;

		if (!n || n >= sizeof(one))
			return -EINVAL;
		memcpy(one, p, n);
		one[n] = 0;
		if (ltt_parse_u64(one, &v) || v > INT64_MAX)
			return -EINVAL;
		if (l->n >= TID_LIST_MAX)
			return -E2BIG;
		l->v[l->n++] = (int64_t)v;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

int tid_list_has(const struct tid_list *l, int64_t tid)
{
	for (unsigned i = 0; i < l->n; i++)
		if (l->v[i] == tid)
			return 1;
	return 0;
}
