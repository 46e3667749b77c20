/* SPDX-License-Identifier: MIT */
/* The lost and traces tables of `ltt sql` (sql_rows.h). lost has one row per events_lost record
 * (count and cause as written: their sum is `ltt stats`' "lost") and one per blocks_lost record (cause
 * "blocks_lost", count the events the lost blocks held: `ltt stats`' "overwritten"); its window is
 * (from_ns, ts_ns]: from its tracefile's previous block_end (NULL when none) to the record, the time
 * a query over calls, regions, spans, thread_states or syscalls joins on (doc/cli.md). traces has one row
 * per trace: its name as given, host (node_name of info/system.xml), the times of its first and last
 * events (anchors included), its events (builtin ones left out, as `ltt stats` counts them) and the
 * sum of its events_lost counts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/losses.h"
#include "toolkit/sql_rows.h"

/* The loss records, and block_end: the window of a loss starts at its tracefile's previous block_end
 * (the writer sealed that block when it found it full: the drops began then). */
static int lost_types(const struct ltt_event_type *ty, void *arg)
{
	(void)arg;
	return losses_type(ty) || (ty->builtin && ty->id == LTT_ID_BLOCK_END);
}

int sql_fill_lost(struct sql_ctx *ctx, struct sql_rows *rows)
{
	struct sql_filter flt;
	struct ltt_reader *r;
	struct ltt_event ev;
	struct losses loss;
	int rc;

	sql_filter_init(&flt);
	flt.flags = LTT_READ_BUILTIN;
	flt.keep = lost_types;
	rc = sql_reader_open(ctx, &flt, &r);
	if (rc || !r)
		return rc;
	losses_init(&loss);
	while ((rc = ltt_reader_next(r, &ev)) == 1) {
		struct ltt_value body, v;
		struct sql_cell *c;
		const char *cause = "blocks_lost";

		if ((rc = losses_event(&loss, &ev)) <= 0) {	/* a block_end: its time noted */
			if (rc < 0)
				break;
			continue;
		}
		if (ltt_event_body(&ev, &body))
			continue;
		if (!(c = sql_rows_add(rows))) {
			rc = -ENOMEM;
			break;
		}
		sql_cell_int(&c[0], (int64_t)ev.time_ns);
		if (loss.last.from_ns)
			sql_cell_int(&c[5], (int64_t)loss.last.from_ns);
		if (ev.type->id == LTT_ID_EVENTS_LOST) {
			if (!ltt_value_field(&body, "count", &v))
				sql_cell_int(&c[3], (int64_t)ltt_value_uint(&v));
			if (!ltt_value_field(&body, "cause", &v))
				cause = ltt_lost_cause_name((unsigned)ltt_value_uint(&v));
		} else if (!ltt_value_field(&body, "events", &v)) {
			sql_cell_int(&c[3], (int64_t)ltt_value_uint(&v));
		}
		if (sql_cell_text(&c[1], ctx->names[ev.trace->index]) || sql_cell_text(&c[2], ev.tracefile->name) ||
		    sql_cell_text(&c[4], cause)) {
			rc = -ENOMEM;
			break;
		}
	}
	sql_reader_close(ctx, r);
	losses_free(&loss);
	return rc;
}

int sql_fill_traces(struct sql_ctx *ctx, struct sql_rows *rows)
{
	struct sql_filter flt;
	struct ltt_reader *r;
	struct ltt_event ev;
	uint64_t *events;
	int rc;

	events = calloc(ctx->ntraces, sizeof(*events));
	if (!events)
		return -ENOMEM;
	sql_filter_init(&flt);
	flt.flags = LTT_READ_UNORDERED;
	rc = sql_reader_open(ctx, &flt, &r);
	if (rc || !r) {
		free(events);
		return rc;
	}
	while ((rc = ltt_reader_next(r, &ev)) == 1)
		events[ev.trace->index]++;
	for (unsigned i = 0; i < ltt_reader_ntraces(r) && rc >= 0; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);
		uint64_t first = UINT64_MAX, last = 0;
		struct sql_cell *c = sql_rows_add(rows);
		struct ltt_counts n;

		if (!c || sql_cell_text(&c[0], ctx->names[i]) || sql_cell_text(&c[1], ctx->hosts[i])) {
			rc = -ENOMEM;
			break;
		}
		for (unsigned k = 0; k < t->ntracefiles; k++) {
			const struct ltt_tracefile_info *tf = t->tracefiles[k];

			if (!tf->records)
				continue;
			first = tf->first_ns < first ? tf->first_ns : first;
			last = tf->last_ns > last ? tf->last_ns : last;
		}
		if (first <= last) {
			sql_cell_int(&c[2], (int64_t)first);
			sql_cell_int(&c[3], (int64_t)last);
		}
		sql_cell_int(&c[4], (int64_t)events[i]);
		ltt_trace_counts(t, &n);	/* lost as ltt stats and ltt check count it */
		sql_cell_int(&c[5], (int64_t)n.lost);
	}
	sql_reader_close(ctx, r);
	free(events);
	return rc;
}
