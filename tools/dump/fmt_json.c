/* SPDX-License-Identifier: MIT */
/* ltt dump --format=json: JSON Lines, one object per event (doc/cli.md):
 *   {"time":"S.N","cycles":N,"cpu":"cpu/0","facility":"f","event":"e","fields":{...}}
 * and, for function tracing's events (func.*), "function":"name+0xOFF" after the fields: the function
 * holding their addr, through the trace's memory map (toolkit/thread_names.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/dump_plan.h"
#include "toolkit/json_fields.h"
#include "toolkit/thread_names.h"

/* Per event type: the constant part of the line, and the plan of its fields. */
struct jtype {
	char *head;		/* ,"facility":"F","event":"E","fields": */
	size_t head_len;
	struct json_plan *plan;
	const struct dump_plan *flat;	/* the plan of a flat body, or NULL (walked) */
	size_t room;		/* what a line takes at most but its "cpu" part (with a flat body) */
};

/* s (len bytes, malloc'ed) with DUMP_PAD zero bytes after it, for dump_put_padded; NULL (s freed) when
 * out of memory. */
static char *padded(char *s, size_t len)
{
	char *r = s ? realloc(s, len + DUMP_PAD + 1) : NULL;

	if (!r) {
		free(s);
		return NULL;
	}
	memset(r + len, 0, DUMP_PAD + 1);
	return r;
}

static struct jtype *make_jtype(const struct ltt_event *ev)
{
	struct jtype *j = calloc(1, sizeof(*j));
	char *tmp;
	size_t l1, l2;

	if (!j)
		return NULL;
	tmp = json_literal(",\"facility\":", ev->type->facility, ",\"event\":", &l1);
	j->head = tmp ? json_literal(tmp, ev->type->name, ",\"fields\":", &l2) : NULL;
	j->head = j->head ? padded(j->head, l2) : NULL;
	free(tmp);
	if (!j->head) {
		free(j);
		return NULL;
	}
	j->head_len = l2;
	if (json_plan_get(ev, &j->plan, &j->flat)) {
		free(j->head);
		free(j);
		return NULL;
	}
	j->room = 110 + j->head_len + DUMP_PAD + (j->flat ? j->flat->room : 0);
	return j;
}

/* The "cpu" value of a tracefile, JSON-encoded once: a small cache keyed by the tracefile. */
struct tf_name {
	const struct ltt_tracefile_info *tf;
	char *json;
	size_t len;
};

#define TF_CACHE 64
static struct tf_name tf_cache[TF_CACHE];

static const struct tf_name *tf_json(const struct ltt_tracefile_info *tf)
{
	struct tf_name *c = &tf_cache[((uintptr_t)tf >> 4) % TF_CACHE];

	if (__builtin_expect(c->tf != tf, 0)) {
		free(c->json);
		c->json = json_literal(",\"cpu\":", tf->name, "", &c->len);
		c->json = c->json ? padded(c->json, c->len) : NULL;
		c->tf = c->json ? tf : NULL;
	}
	return c;
}

/* {"time":"S.N","ts_ns":N */
DUMP_INLINE char *json_times(struct ltt_dump_ctx *ctx, char *w, uint64_t ns)
{
	static const char mid[DUMP_PAD] = "\",\"ts_ns\":";

	w = dump_put_lit(w, "{\"time\":\"");
	return dump_put_time_ns(ctx, w, ns, mid, 10);
}

/* ,"function":"name+0xOFF" of a func event (its addr at payload + 4), when the memory map names it. */
static void json_function(struct ltt_dump_ctx *ctx, struct dump_out *o, const struct ltt_event *ev)
{
	char buf[512];
	const char *name;
	uint64_t addr;

	if (!ctx->priv || ev->type->builtin || strcmp(ev->type->facility, "func") || ev->size < 12)
		return;
	addr = dump_get_uint(ev->payload + 4, 8, ev->big_endian);
	name = thread_names_func(ctx->priv, ev->trace->index, addr, buf, sizeof(buf));
	if (!name)
		return;
	dump_out_str(o, ",\"function\":");
	dump_out_json_string(o, name, strlen(name));
}

static int json_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct dump_out *o = ctx->out;
	const struct ltt_event_type *ty = ev->type;
	struct jtype *j = *ty->user;
	const struct tf_name *tn;
	size_t room;
	int err = 0;
	char *w;

	if (__builtin_expect(!j, 0)) {
		j = *ty->user = make_jtype(ev);
		if (!j)
			return -ENOMEM;
	}
	tn = tf_json(ev->tracefile);
	if (!tn->tf)
		return -ENOMEM;
	room = j->room + tn->len;
	if (__builtin_expect(ctx->ntraces > 1 || !j->flat || room > DUMP_OUT_SIZE / 2, 0)) {
		w = json_times(ctx, dump_out_reserve(o, 110), ev->time_ns);
		w = dump_put_lit(w, ",\"cycles\":");
		w = dump_put_u64(w, ev->cycles);
		dump_out_commit(o, w);
		if (ctx->ntraces > 1) {
			dump_out_str(o, ",\"trace\":");
			dump_out_json_string(o, ev->trace->path, strlen(ev->trace->path));
		}
		dump_out_mem(o, tn->json, tn->len);
		dump_out_mem(o, j->head, j->head_len);
		if (json_fields(o, ev, &j->plan))
			return -ENOMEM;
		json_function(ctx, o, ev);
		dump_out_mem(o, "}\n", 2);
		return o->error;
	}
	/* one reservation for the line (dump_plan_put reserves again only after a string or a float) */
	w = json_times(ctx, dump_out_reserve(o, room), ev->time_ns);
	w = dump_put_lit(w, ",\"cycles\":");
	w = dump_put_u64(w, ev->cycles);
	w = dump_put_padded(w, tn->json, tn->len);
	w = dump_put_padded(w, j->head, j->head_len);
	w = dump_plan_put(o, w, j->flat, ev, NULL, &err);
	if (__builtin_expect(ctx->priv != NULL, 0)) {
		dump_out_commit(o, w);
		json_function(ctx, o, ev);
		w = dump_out_reserve(o, 4);
	}
	w = dump_put_lit(w, "}\n");
	dump_out_commit(o, w);
	return err ? err : o->error;
}

/* The memory map, only for traces that record functions (a func facility). */
static int json_begin(struct ltt_dump_ctx *ctx)
{
	int any = 0;

	for (unsigned i = 0; i < ltt_reader_ntraces(ctx->reader) && !any; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types && !any; k++)
			any = !t->event_types[k]->builtin && !strcmp(t->event_types[k]->facility, "func");
	}
	ctx->priv = any ? thread_names_load(ctx->reader) : NULL;
	return 0;
}

static int json_end(struct ltt_dump_ctx *ctx)
{
	thread_names_free(ctx->priv);
	ctx->priv = NULL;
	for (unsigned i = 0; i < ltt_reader_ntraces(ctx->reader); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *ty = t->event_types[k];
			struct jtype *j = *ty->user;

			if (!j)
				continue;
			json_plan_free(j->plan);
			free(j->head);
			free(j);
			*ty->user = NULL;
		}
	}
	for (unsigned i = 0; i < TF_CACHE; i++) {
		free(tf_cache[i].json);
		tf_cache[i].json = NULL;
		tf_cache[i].tf = NULL;
	}
	return 0;
}

const struct ltt_dump_format ltt_fmt_json = {
	.name = "json",
	.summary = "JSON Lines: time, ts_ns, cycles, cpu, facility, event, fields (and trace with several traces)",
	.begin = json_begin,
	.event = json_event,
	.end = json_end,
	.per_event = 1,
};
