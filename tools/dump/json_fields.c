/* Event fields as JSON (json_fields.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "dump/json_fields.h"

void json_value(struct dump_out *o, const struct ltt_value *v)
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

/* Per event type, precomputed once: for a struct of scalars (the common case), the keys and sizes of
 * its fields, read straight from the payload. */
struct jop {
	const struct ltt_type_desc *t;
	char *key;		/* "name": with its leading comma */
	size_t klen;
	unsigned bytes;
};

struct json_plan {
	int flat;
	int quoted;		/* for json_fields_string: keys escaped once more */
	unsigned n;
	struct jop ops[];
};

char *json_literal(const char *pre, const char *s, const char *post, size_t *len)
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

/* s with '"' and '\\' escaped (malloc'ed; *len its length), s freed; NULL on ENOMEM. */
static char *requote(char *s, size_t *len)
{
	size_t n = 0;
	char *r, *w;

	if (!s)
		return NULL;
	for (const char *p = s; *p; p++)
		n += 1 + (*p == '"' || *p == '\\');
	r = malloc(n + 1);
	if (r) {
		w = r;
		for (const char *p = s; *p; p++) {
			if (*p == '"' || *p == '\\')
				*w++ = '\\';
			*w++ = *p;
		}
		*w = 0;
		*len = n;
	}
	free(s);
	return r;
}

static struct json_plan *make_plan(const struct ltt_event *ev, int quoted)
{
	const struct ltt_type_desc *b = ev->type->body;
	unsigned n = b && b->kind == LTT_TYPE_STRUCT ? b->n_fields : 0;
	struct json_plan *p = calloc(1, sizeof(*p) + n * sizeof(p->ops[0]));

	if (!p)
		return NULL;
	p->flat = !b || b->kind == LTT_TYPE_STRUCT;
	p->quoted = quoted;
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
		if (quoted)
			op->key = requote(op->key, &op->klen);
		if (!op->key)
			p->flat = 0;
	}
	return p;
}

void json_plan_free(struct json_plan *p)
{
	if (!p)
		return;
	for (unsigned f = 0; f < p->n; f++)
		free(p->ops[f].key);
	free(p);
}

static __thread int flat_failed;	/* flat_string could not write a value: -ENOMEM or -EFBIG */

/* A JSON string literal of s, quoted once more when the plan is (json_fields_string). */
static void flat_string(struct dump_out *o, const struct json_plan *p, const char *s, size_t n)
{
	static __thread struct dump_out *tmp;

	if (!p->quoted) {
		dump_out_json_string(o, s, n);
		return;
	}
	if (!tmp && !(tmp = malloc(sizeof(*tmp)))) {
		flat_failed = -ENOMEM;
		return;
	}
	tmp->fd = -1;
	tmp->error = 0;
	tmp->len = 0;
	dump_out_json_string(tmp, s, n);
	if (tmp->error || tmp->len >= DUMP_OUT_SIZE) {
		flat_failed = -EFBIG;
		return;
	}
	json_quote(o, tmp->buf, tmp->len, 0);
}

static void flat_fields(struct dump_out *o, const struct json_plan *p, const struct ltt_event *ev)
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
			flat_string(o, p, (const char *)q, n);
			q += n + 1;
			continue;
		}
		w = dump_out_reserve(o, op->klen + 24);
		memcpy(w, op->key, op->klen);
		w += op->klen;
		v = dump_get_uint(q, op->bytes, ev->big_endian);
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
				flat_string(o, p, label, strlen(label));
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

void json_quote(struct dump_out *o, const char *j, size_t n, int quotes)
{
	char *w;

	if (__builtin_expect(2 * n + 2 > DUMP_OUT_SIZE / 2, 0)) {	/* in pieces */
		if (quotes)
			dump_out_char(o, '"');
		for (size_t i = 0; i < n; i += DUMP_OUT_SIZE / 8)
			json_quote(o, j + i, n - i < DUMP_OUT_SIZE / 8 ? n - i : DUMP_OUT_SIZE / 8, 0);
		if (quotes)
			dump_out_char(o, '"');
		return;
	}
	w = dump_out_reserve(o, 2 * n + 2);
	if (quotes)
		*w++ = '"';
	for (size_t i = 0; i < n; i++) {
		char c = j[i];

		if (c == '"' || c == '\\')
			*w++ = '\\';
		*w++ = c;
	}
	if (quotes)
		*w++ = '"';
	dump_out_commit(o, w);
}

int json_fields_string(struct dump_out *o, const struct ltt_event *ev, struct json_plan **plan)
{
	static __thread struct dump_out *tmp;
	struct ltt_value body;

	if (__builtin_expect(!*plan, 0)) {
		*plan = make_plan(ev, 1);
		if (!*plan)
			return -ENOMEM;
	}
	if ((*plan)->flat) {
		size_t len = o->len;

		flat_failed = 0;
		dump_out_char(o, '"');
		flat_fields(o, *plan, ev);
		dump_out_char(o, '"');
		if (flat_failed && o->len > len)	/* written in o's buffer since: take it back */
			o->len = len;
		return flat_failed;
	}
	if (!tmp && !(tmp = malloc(sizeof(*tmp))))
		return -ENOMEM;
	tmp->fd = -1;
	tmp->error = 0;
	tmp->len = 0;
	if (!ltt_event_body(ev, &body))
		json_value(tmp, &body);
	else
		dump_out_str(tmp, "{}");
	if (tmp->error || tmp->len >= DUMP_OUT_SIZE)
		return -EFBIG;
	json_quote(o, tmp->buf, tmp->len, 1);
	return 0;
}

int json_fields(struct dump_out *o, const struct ltt_event *ev, struct json_plan **plan)
{
	struct ltt_value body;

	if (__builtin_expect(!*plan, 0)) {
		*plan = make_plan(ev, 0);
		if (!*plan)
			return -ENOMEM;
	}
	if ((*plan)->flat)
		flat_fields(o, *plan, ev);
	else if (!ltt_event_body(ev, &body))
		json_value(o, &body);
	else
		dump_out_str(o, "{}");
	return 0;
}
