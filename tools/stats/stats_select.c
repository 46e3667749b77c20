/* SPDX-License-Identifier: MIT */
/* ltt stats: event rules and snapshot triggers recorded in a trace (tools/stats/stats_select.c). */
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "eventdefs/rules_match.h"
#include "stats_select.h"

void select_note(struct select_log *log, const struct ltt_event *ev)
{
	struct ltt_value body, f;
	struct select_change *c;

	if (!ev->type || strcmp(ev->type->name, "event_rules") || strcmp(ev->type->facility, "core"))
		return;
	if (LTT_GROW(log->v, log->n + 1, log->cap)) {
		log->nomem = 1;
		return;
	}
	c = &log->v[log->n];
	memset(c, 0, sizeof(*c));
	c->time_ns = ev->time_ns;
	if (ltt_event_body(ev, &body))
		return;
	if (!ltt_value_field(&body, "settle_ns", &f))
		c->settle_ns = ltt_value_uint(&f);
	if (!ltt_value_field(&body, "rules", &f)) {
		size_t n;
		const char *s = ltt_value_string(&f, &n);

		c->rules = strndup(s ? s : "", s ? n : 0);
	}
	if (!c->rules) {
		log->nomem = 1;
		return;
	}
	log->n++;
}

static int by_time(const void *a, const void *b)
{
	const struct select_change *x = a, *y = b;

	return x->time_ns < y->time_ns ? -1 : x->time_ns > y->time_ns;
}

/* Whether rules leave ty out (the core facility always records: rules do not apply to it). */
static int not_selected(const struct ltt_event_type *ty, const char *rules)
{
	return !ty->builtin && strcmp(ty->facility, "core") && !ltt_rules_select(rules, ty->facility, ty->name);
}

static void sort_log(struct select_log *log)
{
	if (log->n)	/* qsort of a NULL array is undefined, even for 0 elements (UBSan) */
		qsort(log->v, log->n, sizeof(*log->v), by_time);
}

void select_print_text(struct dump_out *o, const struct ltt_trace_info *t, struct select_log *log)
{
	const char *trig = ltt_trace_attr(t, "ltt_trigger"), *trig_time = ltt_trace_attr(t, "ltt_trigger_time");

	sort_log(log);
	for (unsigned i = 0; i < log->n; i++) {
		const struct select_change *c = &log->v[i];
		char w[64];
		unsigned none = 0;

		dump_out_str(o, "  rules       ");
		dump_out_time(o, c->time_ns);
		if (c->settle_ns) {
			snprintf(w, sizeof(w), " (took effect over %llu ns)", (unsigned long long)c->settle_ns);
			dump_out_str(o, w);
		}
		dump_out_str(o, " '");
		dump_out_str(o, c->rules);
		dump_out_str(o, "': ");
		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *ty = t->event_types[k];

			if (!not_selected(ty, c->rules))
				continue;
			dump_out_str(o, none++ ? ", " : "not selected ");
			dump_out_str(o, ty->facility);
			dump_out_char(o, '.');
			dump_out_str(o, ty->name);
		}
		dump_out_str(o, none ? "\n" : "every event selected\n");
	}
	if (trig) {
		dump_out_str(o, "  trigger     snapshot taken for ");
		dump_out_str(o, trig);
		if (trig_time) {
			dump_out_str(o, " recorded at ");
			dump_out_str(o, trig_time);
		}
		dump_out_str(o, " (LTT_SNAPSHOT_ON)\n");
	}
}

static void json_str(struct dump_out *o, const char *s)
{
	dump_out_json_string(o, s, strlen(s));
}

void select_print_json(struct dump_out *o, const struct ltt_trace_info *t, struct select_log *log)
{
	const char *trig = ltt_trace_attr(t, "ltt_trigger"), *trig_time = ltt_trace_attr(t, "ltt_trigger_time");
	char w[32];

	sort_log(log);
	dump_out_str(o, ",\"rules\":[");
	for (unsigned i = 0; i < log->n; i++) {
		const struct select_change *c = &log->v[i];
		unsigned none = 0;

		dump_out_str(o, i ? ",{\"time\":\"" : "{\"time\":\"");
		dump_out_time(o, c->time_ns);
		snprintf(w, sizeof(w), "%llu", (unsigned long long)c->settle_ns);
		dump_out_str(o, "\",\"settle_ns\":");
		dump_out_str(o, w);
		dump_out_str(o, ",\"rules\":");
		json_str(o, c->rules);
		dump_out_str(o, ",\"not_selected\":[");
		for (unsigned k = 0; k < t->nevent_types; k++) {
			const struct ltt_event_type *ty = t->event_types[k];
			char name[300];

			if (!not_selected(ty, c->rules))
				continue;
			snprintf(name, sizeof(name), "%s.%s", ty->facility, ty->name);
			if (none++)
				dump_out_char(o, ',');
			json_str(o, name);
		}
		dump_out_str(o, "]}");
	}
	dump_out_str(o, "],\"trigger\":");
	if (!trig) {
		dump_out_str(o, "null");
		return;
	}
	dump_out_str(o, "{\"event\":");
	json_str(o, trig);
	dump_out_str(o, ",\"time\":");
	if (trig_time)
		json_str(o, trig_time);
	else
		dump_out_str(o, "null");
	dump_out_char(o, '}');
}

void select_free(struct select_log *log)
{
	for (unsigned i = 0; i < log->n; i++)
		free(log->v[i].rules);
	free(log->v);
	memset(log, 0, sizeof(*log));
}
