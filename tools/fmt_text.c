/* ltt dump --format=text: one line per event, after LTTV's textDump (doc/cli.md):
 *   facility.event: SECONDS.NANOSECONDS (cpu/N) { field = value, ... } */
#include "dump_format.h"

static void text_value(struct dump_out *o, const struct ltt_value *v)
{
	struct ltt_value c;
	const char *s;
	size_t n;
	int first = 1, ret;

	switch (v->type->kind) {
	case LTT_TYPE_INT:
		dump_out_i64(o, ltt_value_int(v));
		return;
	case LTT_TYPE_UINT:
		dump_out_u64(o, ltt_value_uint(v));
		return;
	case LTT_TYPE_FLOAT:
		dump_out_double(o, ltt_value_float(v));
		return;
	case LTT_TYPE_ENUM:
		s = ltt_value_enum_label(v);
		if (s)
			dump_out_str(o, s);
		else
			dump_out_u64(o, ltt_value_uint(v));
		return;
	case LTT_TYPE_STRING:
		s = ltt_value_string(v, &n);
		dump_out_c_string(o, s, n);
		return;
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		dump_out_char(o, '[');
		for (ret = ltt_value_first(v, &c); !ret; ret = ltt_value_next(v, &c)) {
			dump_out_str(o, first ? " " : ", ");
			first = 0;
			text_value(o, &c);
		}
		dump_out_str(o, first ? "]" : " ]");
		return;
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		dump_out_char(o, '{');
		for (ret = ltt_value_first(v, &c); !ret; ret = ltt_value_next(v, &c)) {
			dump_out_str(o, first ? " " : ", ");
			first = 0;
			dump_out_str(o, c.name);
			dump_out_str(o, " = ");
			text_value(o, &c);
		}
		dump_out_str(o, first ? "}" : " }");
		return;
	default:
		dump_out_char(o, '?');
	}
}

static int text_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct dump_out *o = ctx->out;
	struct ltt_value body;

	dump_out_str(o, ev->type->facility);
	dump_out_char(o, '.');
	dump_out_str(o, ev->type->name);
	dump_out_str(o, ": ");
	dump_out_time(o, ev->time_ns);
	dump_out_str(o, " (");
	if (ctx->ntraces > 1) {
		dump_out_str(o, ev->trace->path);
		dump_out_char(o, '/');
	}
	dump_out_str(o, ev->tracefile->name);
	dump_out_char(o, ')');
	if (!ltt_event_body(ev, &body)) {
		dump_out_char(o, ' ');
		text_value(o, &body);
	}
	dump_out_char(o, '\n');
	return o->error;
}

const struct ltt_dump_format ltt_fmt_text = {
	.name = "text",
	.summary = "one line per event: facility.event: SECONDS.NANOSECONDS (tracefile) { field = value, ... }",
	.event = text_event,
};
