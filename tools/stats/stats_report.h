/* SPDX-License-Identifier: MIT */
/* ltt stats: the report of events counted per trace, tracefile and id (tools/stats/cmd_stats.c), shared with
 * `ltt stats --follow` (tools/stats/stats_follow.c). */
#ifndef LTT_TOOLS_STATS_REPORT_H
#define LTT_TOOLS_STATS_REPORT_H

#include <stdint.h>

#include <ltt/reader.h>

#include "toolkit/dump_out.h"
#include "stats_select.h"

struct trace_counts {
	unsigned nids;		/* highest id + 1 */
	uint64_t *n;		/* [tracefile][id], tracefiles in ltt_trace_info order */
	struct select_log rules;	/* core.event_rules (tools/stats/stats_select.c) */
	uint64_t *bytes;	/* [id]: bytes of those records, headers included; NULL: not counted (only
				 * flight snapshots are: tools/stats/stats_history.c) */
	uint64_t *tf_bytes;	/* [tracefile]: bytes of its events (builtin records not counted), or NULL */
};

/* tc[i].n for each trace i of r: zeroed counts for every tracefile and id. 0 or -ENOMEM. */
int stats_counts_alloc(struct ltt_reader *r, struct trace_counts *tc);

/* The report of `ltt stats` (text tables or one JSON object per trace), tc one per trace of r. */
void stats_print_text(struct dump_out *o, struct ltt_reader *r, const struct trace_counts *tc);
void stats_print_json(struct dump_out *o, struct ltt_reader *r, const struct trace_counts *tc);

/* Flight snapshots (tc->bytes counted): each stream's seconds of history, per MiB, the window every
 * stream holds, bytes per event by type (tools/stats/stats_history.c). Nothing when not counted. */
void stats_history_text(struct dump_out *o, const struct ltt_trace_info *t, const struct trace_counts *tc);
void stats_history_json(struct dump_out *o, const struct ltt_trace_info *t, const struct trace_counts *tc);

/* ltt stats --follow TRACE (tools/stats/stats_follow.c): the exit status. */
int stats_follow(const char *path, int json);

#endif
