/* ltt dump --format=json: JSON Lines, one object per event (doc/cli.md):
 *   {"time":"S.N","cycles":N,"cpu":"cpu/0","facility":"f","event":"e","fields":{...}} */
#include <math.h>

#include "dump_format.h"

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

static int json_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct dump_out *o = ctx->out;
	struct ltt_value body;

	dump_out_str(o, "{\"time\":\"");
	dump_out_time(o, ev->time_ns);
	dump_out_str(o, "\",\"cycles\":");
	dump_out_u64(o, ev->cycles);
	if (ctx->ntraces > 1) {
		dump_out_str(o, ",\"trace\":");
		dump_out_json_string(o, ev->trace->path, strlen(ev->trace->path));
	}
	dump_out_str(o, ",\"cpu\":");
	dump_out_json_string(o, ev->tracefile->name, strlen(ev->tracefile->name));
	dump_out_str(o, ",\"facility\":");
	dump_out_json_string(o, ev->type->facility, strlen(ev->type->facility));
	dump_out_str(o, ",\"event\":");
	dump_out_json_string(o, ev->type->name, strlen(ev->type->name));
	dump_out_str(o, ",\"fields\":");
	if (!ltt_event_body(ev, &body) && body.type->kind == LTT_TYPE_STRUCT)
		json_value(o, &body);
	else if (!ltt_event_body(ev, &body))
		json_value(o, &body);
	else
		dump_out_str(o, "{}");
	dump_out_str(o, "}\n");
	return o->error;
}

const struct ltt_dump_format ltt_fmt_json = {
	.name = "json",
	.summary = "JSON Lines: time, cycles, cpu, facility, event, fields (and trace with several traces)",
	.event = json_event,
};
