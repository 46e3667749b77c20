/* SPDX-License-Identifier: MIT */
/* ltt stats: what the trace says about event selection (doc/recorder.md "Choosing events"): the
 * event rules in effect over time (core.event_rules) with the events they did not select, and the
 * trigger of a flight snapshot taken for LTT_SNAPSHOT_ON (info/system.xml ltt_trigger). */
#ifndef LTT_TOOLS_STATS_SELECT_H
#define LTT_TOOLS_STATS_SELECT_H

#include <stdint.h>

#include <ltt/reader.h>

#include "toolkit/dump_out.h"

struct select_change {
	uint64_t time_ns, settle_ns;
	char *rules;
};

/* The rule changes of one trace, in time order. */
struct select_log {
	struct select_change *v;
	unsigned n, cap;
	int nomem;
};

/* Notes ev if it is a core.event_rules event (any other event: nothing). */
void select_note(struct select_log *log, const struct ltt_event *ev);
/* Prints "  rules ..." lines (one per change, with the events of t not selected then) and
 * "  trigger ..." for a snapshot taken by a trigger. */
void select_print_text(struct dump_out *o, const struct ltt_trace_info *t, struct select_log *log);
/* The same for --format=json: ',"rules":[{"time","settle_ns","rules","not_selected":[...]}...],
 * "trigger":{"event","time"}' (trigger null when the trace was not taken by a trigger). */
void select_print_json(struct dump_out *o, const struct ltt_trace_info *t, struct select_log *log);
void select_free(struct select_log *log);

#endif
