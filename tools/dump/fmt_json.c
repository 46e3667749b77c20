/* ltt dump --format=json: JSON Lines, one object per event (doc/cli.md):
 *   {"time":"S.N","cycles":N,"cpu":"cpu/0","facility":"f","event":"e","fields":{...}} */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "dump/dump_format.h"

static void json_value(struct dump_out *o, const struct ltt_value *v)
{
	struct ltt_value c;
	const char *s;
	size_t n;
	int first = 1, ret;
	double d;

	switch (v->type->kind) {
	case LTT_TYPE_INT:
		dump_out_i64(o, ltt_value_int(v));
		return;
	case LTT_TYPE_UINT:
		dump_out_u64(o, ltt_value_uint(v));
		return;
	case LTT_TYPE_FLOAT:
		d = ltt_value_float(v);
		if (isnan(d) || isinf(d))
			dump_out_str(o, "null");	/* JSON has no NaN or infinity */
		else
			dump_out_double(o, d);
		return;
	case LTT_TYPE_ENUM:
		s = ltt_value_enum_label(v);
		if (s)
			dump_out_json_string(o, s, strlen(s));
		else
			dump_out_u64(o, ltt_value_uint(v));
		return;
	case LTT_TYPE_STRING:
		s = ltt_value_string(v, &n);
		dump_out_json_string(o, s, n);
		return;
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		dump_out_char(o, '[');
		for (ret = ltt_value_first(v, &c); !ret; ret = ltt_value_next(v, &c)) {
			if (!first)
				dump_out_char(o, ',');
			first = 0;
			json_value(o, &c);
		}
		dump_out_char(o, ']');
		return;
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		dump_out_char(o, '{');
		for (ret = ltt_value_first(v, &c); !ret; ret = ltt_value_next(v, &c)) {
			if (!first)
				dump_out_char(o, ',');
			first = 0;
			dump_out_json_string(o, c.name, strlen(c.name));
			dump_out_char(o, ':');
			json_value(o, &c);
		}
		dump_out_char(o, '}');
		return;
	default:
		dump_out_str(o, "null");
	}
}

/* Per event type, precomputed once: the constant part of the line and, for a struct of scalars
 * (the common case), the keys and sizes of its fields, read straight from the payload. */
struct jop {
	const struct ltt_type_desc *t;
	char *key;		/* "name": with its leading comma */
	size_t klen;
	unsigned bytes;
};

struct jplan {
	char *head;		/* ,"facility":"F","event":"E","fields": */
	size_t head_len;
	int flat;
	unsigned n;
	struct jop ops[];
};

static char *json_literal(const char *pre, const char *s, const char *post, size_t *len)
{
	struct dump_out *tmp = malloc(sizeof(*tmp));
	char *r = NULL;

	if (!tmp)
		return NULL;
	tmp->fd = -1;
	tmp->error = 0;
	tmp->len = 0;
	dump_out_str(tmp, pre);
	dump_out_json_string(tmp, s, strlen(s));
	dump_out_str(tmp, post);
	r = strndup(tmp->buf, tmp->len);
	*len = tmp->len;
	free(tmp);
	return r;
}

static struct jplan *make_plan(const struct ltt_event *ev)
{
	const struct ltt_type_desc *b = ev->type->body;
	unsigned n = b && b->kind == LTT_TYPE_STRUCT ? b->n_fields : 0;
	struct jplan *p = calloc(1, sizeof(*p) + n * sizeof(p->ops[0]));
	char *tmp;
	size_t l1, l2;

	if (!p)
		return NULL;
	tmp = json_literal(",\"facility\":", ev->type->facility, ",\"event\":", &l1);
	p->head = tmp ? json_literal(tmp, ev->type->name, ",\"fields\":", &l2) : NULL;
	free(tmp);
	if (!p->head) {
		free(p);
		return NULL;
	}
	p->head_len = l2;
	p->flat = !b || b->kind == LTT_TYPE_STRUCT;
	p->n = n;
	for (unsigned i = 0; i < n && p->flat; i++) {
		const struct ltt_type_desc *t = b->fields[i].type;
		struct jop *op = &p->ops[i];

		op->t = t;
		switch (t->kind) {
		case LTT_TYPE_INT:
		case LTT_TYPE_UINT:
		case LTT_TYPE_ENUM:
			op->bytes = ltt_size_bytes(t->size, (enum ltt_arch_size)ev->arch);
			break;
		case LTT_TYPE_STRING:
			break;
		default:
			p->flat = 0;
			continue;
		}
		op->key = json_literal(i ? "," : "", b->fields[i].name, ":", &op->klen);
		if (!op->key)
			p->flat = 0;
	}
	return p;
}

static inline uint64_t get_uint(const unsigned char *q, unsigned bytes, int be)
{
	uint64_t v = 0;

	if (be)
		for (unsigned i = 0; i < bytes; i++)
			v = v << 8 | q[i];
	else
		for (unsigned i = bytes; i-- > 0; )
			v = v << 8 | q[i];
	return v;
}

static void flat_fields(struct dump_out *o, const struct jplan *p, const struct ltt_event *ev)
{
	const unsigned char *q = ev->payload;
	char *w;

	dump_out_char(o, '{');
	for (unsigned i = 0; i < p->n; i++) {
		const struct jop *op = &p->ops[i];
		uint64_t v;
		size_t n;

		if (op->t->kind == LTT_TYPE_STRING) {
			dump_out_mem(o, op->key, op->klen);
			n = strlen((const char *)q);
			dump_out_json_string(o, (const char *)q, n);
			q += n + 1;
			continue;
		}
		w = dump_out_reserve(o, op->klen + 24);
		memcpy(w, op->key, op->klen);
		w += op->klen;
		v = get_uint(q, op->bytes, ev->big_endian);
		q += op->bytes;
		switch (op->t->kind) {
		case LTT_TYPE_UINT:
			w = dump_put_u64(w, v);
			break;
		case LTT_TYPE_INT:
			if (op->bytes < 8 && (v >> (op->bytes * 8 - 1)) & 1)
				v |= ~0ull << (op->bytes * 8);
			if ((int64_t)v < 0) {
				*w++ = '-';
				v = (uint64_t)0 - v;
			}
			w = dump_put_u64(w, v);
			break;
		default: {	/* enum */
			const char *label = NULL;

			for (uint32_t k = 0; k < op->t->n_labels && !label; k++)
				if (op->t->labels[k].value == v)
					label = op->t->labels[k].name;
			if (label) {
				dump_out_commit(o, w);
				dump_out_json_string(o, label, strlen(label));
				continue;
			}
			w = dump_put_u64(w, v);
			break;
		}
		}
		dump_out_commit(o, w);
	}
	dump_out_char(o, '}');
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
		c->tf = c->json ? tf : NULL;
	}
	return c;
}

static int json_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct dump_out *o = ctx->out;
	struct ltt_event_type *ty = (struct ltt_event_type *)ev->type;
	struct jplan *p = ty->user;
	const struct tf_name *tn;
	struct ltt_value body;
	char *w;

	if (__builtin_expect(!p, 0)) {
		p = ty->user = make_plan(ev);
		if (!p)
			return -ENOMEM;
	}
	tn = tf_json(ev->tracefile);
	if (!tn->tf)
		return -ENOMEM;
	w = dump_out_reserve(o, 80);
	w = dump_put_lit(w, "{\"time\":\"");
	w = dump_put_time(w, ev->time_ns);
	w = dump_put_lit(w, "\",\"cycles\":");
	w = dump_put_u64(w, ev->cycles);
	dump_out_commit(o, w);
	if (ctx->ntraces > 1) {
		dump_out_str(o, ",\"trace\":");
		dump_out_json_string(o, ev->trace->path, strlen(ev->trace->path));
	}
	dump_out_mem(o, tn->json, tn->len);
	dump_out_mem(o, p->head, p->head_len);
	if (p->flat)
		flat_fields(o, p, ev);
	else if (!ltt_event_body(ev, &body))
		json_value(o, &body);
	else
		dump_out_str(o, "{}");
	dump_out_mem(o, "}\n", 2);
	return o->error;
}

static int json_end(struct ltt_dump_ctx *ctx)
{
	for (unsigned i = 0; i < ltt_reader_ntraces(ctx->reader); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			struct ltt_event_type *ty = (struct ltt_event_type *)t->event_types[k];
			struct jplan *p = ty->user;

			if (!p)
				continue;
			for (unsigned f = 0; f < p->n; f++)
				free(p->ops[f].key);
			free(p->head);
			free(p);
			ty->user = NULL;
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
	.summary = "JSON Lines: time, cycles, cpu, facility, event, fields (and trace with several traces)",
	.event = json_event,
	.end = json_end,
};
