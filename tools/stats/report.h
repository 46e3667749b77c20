/* SPDX-License-Identifier: MIT */
/* The reports of `ltt stats` other than the event counts (--regions, --profile, --sched, --waits,
 * --functions, --per-thread, ...), all of one shape: a report is a file of tools/stats/ that defines a
 * `const struct stats_report`, and one row of the table in tools/stats/reports.c. cmd_stats.c makes
 * its option from the table, checks which options go with it from takes, opens the traces, runs it,
 * flushes standard output and exits as every reader command does (reader_tool_status). */
#ifndef LTT_TOOLS_STATS_REPORT_TABLE_H
#define LTT_TOOLS_STATS_REPORT_TABLE_H

#include <stdint.h>
#include <stdio.h>

#include <ltt/reader.h>

#include "toolkit/dump_out.h"
#include "toolkit/event_tid.h"

/* What `ltt stats --profile` counts: the samples of these threads (tids, NULL or empty: all), taken
 * from from_ns to to_ns (inclusive), while a region whose label matches region (fnmatch; NULL: any
 * time) was open on the sample's thread. Samples outside are still applied to their thread's stack
 * (each builds on the one before), only not counted. */
struct prof_limits {
	const struct tid_list *tids;
	uint64_t from_ns, to_ns;
	const char *region;
};

/* What the command line gave a report. */
struct stats_args {
	int json;			/* --format=json */
	const char *graph;		/* --graph FUNC (STATS_TAKES_GRAPH), or NULL */
	const struct tid_list *tids;	/* --tid (empty: all threads) */
	const struct prof_limits *lim;	/* --tid, --from, --to, --region; NULL when none was given */
	FILE *out;			/* standard output, as a stream */
	struct dump_out *o;		/* standard output, as the dump buffer (fd 1) */
};

enum {
	STATS_TAKES_LIMITS = 1,		/* --tid, --from, --to */
	STATS_TAKES_REGION = 2,		/* --region=LABEL */
	STATS_TAKES_GRAPH = 4,		/* --graph FUNC */
	STATS_TIME_RANGE = 8,		/* the reader itself keeps --from..--to (every event read is in it) */
};

struct stats_report {
	const char *option;		/* its long option without "--": "regions" */
	unsigned flags;			/* STATS_* */
	/* Reads the remaining events of r (merged in time order, builtin records but the loss records
	 * hidden) and prints the report on a->out or a->o (not flushed). 0 or a negative errno. */
	int (*run)(struct ltt_reader *r, const struct stats_args *a);
};

/* reports.c: the table, in the order the command's messages name them. */
extern const struct stats_report *const stats_reports[];
extern const unsigned stats_nreports;

extern const struct stats_report stats_report_regions, stats_report_profile, stats_report_sched,
	stats_report_io, stats_report_waits, stats_report_functions, stats_report_per_thread;

#endif
