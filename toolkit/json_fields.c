/* SPDX-License-Identifier: MIT */
/* Event fields as JSON (json_fields.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "common/buf.h"
#include "common/escape_json.h"
#include "toolkit/dump_plan.h"
#include "toolkit/json_fields.h"

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

/* Per event type, made on its first event: the compiled plan of a flat body (dump_plan.h), or none
 * (the body is walked with json_value). */
struct json_plan {
	struct dump_plan *flat;
};

char *json_literal(const char *pre, const char *s, const char *post, size_t *len)
{
	struct ltt_buf b = LTT_BUF_INIT;

	ltt_buf_puts(&b, pre);
	ltt_json_to_buf(&b, s, strlen(s));
	ltt_buf_puts(&b, post);
	return ltt_buf_detach(&b, len);
}

static int make_plan(const struct ltt_event *ev, int quoted, struct json_plan **plan)
{
	struct json_plan *p = calloc(1, sizeof(*p));

	if (!p)
		return -ENOMEM;
	if (dump_plan_make(ev, quoted ? DUMP_PLAN_JSON_QUOTED : DUMP_PLAN_JSON, 0, &p->flat)) {
		free(p);
		return -ENOMEM;
	}
	*plan = p;
	return 0;
}

int json_plan_get(const struct ltt_event *ev, struct json_plan **plan, const struct dump_plan **flat)
{
	if (__builtin_expect(!*plan, 0) && make_plan(ev, 0, plan))
		return -ENOMEM;
	*flat = (*plan)->flat;
	return 0;
}

void json_plan_free(struct json_plan *p)
{
	if (!p)
		return;
	dump_plan_free(p->flat);
	free(p);
}

/* The flat body through its plan: 0, or -EFBIG/-ENOMEM (a string could not be quoted). */
static int flat_fields(struct dump_out *o, const struct dump_plan *p, const struct ltt_event *ev)
{
	int err = 0;

	dump_out_commit(o, dump_plan_put(o, dump_out_reserve(o, p->room), p, ev, NULL, &err));
	return err;
}

void json_quote(struct dump_out *o, const char *j, size_t n, int quotes)
{
	if (quotes)
		dump_out_json_string(o, j, n);
	else
		dump_out_json_body(o, j, n);
}

int json_fields_string(struct dump_out *o, const struct ltt_event *ev, struct json_plan **plan)
{
	static __thread struct dump_out *tmp;
	struct ltt_value body;

	if (__builtin_expect(!*plan, 0) && make_plan(ev, 1, plan))
		return -ENOMEM;
	if ((*plan)->flat) {
		size_t len = o->len;
		int failed;

		dump_out_char(o, '"');
		failed = flat_fields(o, (*plan)->flat, ev);
		dump_out_char(o, '"');
		if (failed && o->len > len)	/* written in o's buffer since: take it back */
			o->len = len;
		return failed;
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

	if (__builtin_expect(!*plan, 0) && make_plan(ev, 0, plan))
		return -ENOMEM;
	if ((*plan)->flat)
		flat_fields(o, (*plan)->flat, ev);
	else if (!ltt_event_body(ev, &body))
		json_value(o, &body);
	else
		dump_out_str(o, "{}");
	return 0;
}
