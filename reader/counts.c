/* SPDX-License-Identifier: MIT */
/* The counts every ltt command prints (ltt/reader.h struct ltt_counts, doc/format.md section 7
 * "Counts"): summed here only, from what the tracefile reader counted as it decoded. */
#include <string.h>

#include <ltt/reader.h>

#include "reader_internal.h"

void ltt_counts_add(struct ltt_counts *c, const struct ltt_tracefile_info *tf)
{
	c->events += tf->events;
	c->builtin_records += tf->records - tf->events;
	for (unsigned k = 0; k < LTT_LOST_NCAUSES; k++)
		c->lost = ltt_sat_add(c->lost, tf->events_lost[k]);
	c->overwritten = ltt_sat_add(c->overwritten, tf->blocks_lost_events);
	c->overwritten_blocks += tf->blocks_lost;
}

void ltt_trace_counts(const struct ltt_trace_info *t, struct ltt_counts *c)
{
	memset(c, 0, sizeof(*c));
	for (unsigned k = 0; k < t->ntracefiles; k++)
		ltt_counts_add(c, t->tracefiles[k]);
}
