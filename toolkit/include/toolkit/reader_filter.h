/* SPDX-License-Identifier: MIT */
/* The event filters of the reader commands (--facility, --event, --cpu, --from, --to, --tid) and the
 * times they take. */
#ifndef LTT_TOOLKIT_READER_FILTER_H
#define LTT_TOOLKIT_READER_FILTER_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/reader.h>

#include "toolkit/event_tid.h"

/* Parses a time option: absolute seconds since the Epoch ("1062609024.5") or "+S" seconds after
 * `start_ns` ("+0.25"); up to 9 decimals. 0 or -EINVAL. */
int reader_parse_time(const char *s, uint64_t start_ns, uint64_t *out_ns);

/* ---- dump's event filters, shared by the commands that select events (dump, export) ---------- */

#define READER_FILTER_MAX 64

struct reader_filter {
	int all;		/* builtin events shown too (they are hidden otherwise) */
	int lost;		/* events_lost and blocks_lost shown whatever the other filters */
	const char *facilities[READER_FILTER_MAX];	/* --facility patterns (fnmatch) */
	unsigned nfacilities;
	const char *events[READER_FILTER_MAX];		/* --event NAME or FACILITY.NAME patterns */
	unsigned nevents;
	int cpus[READER_FILTER_MAX];			/* --cpu N */
	unsigned ncpus;
	const char *from, *to;				/* --from, --to as given */
	struct tid_list tids;				/* --tid LIST (toolkit/event_tid.h) */
};

/* getopt_long entries and short option letters of the filters; the codes are 'f' 'e' 'c' 'b' 't'. */
#define READER_FILTER_LONGOPTS \
	{ "facility", required_argument, NULL, 'f' }, \
	{ "event", required_argument, NULL, 'e' }, \
	{ "cpu", required_argument, NULL, 'c' }, \
	{ "from", required_argument, NULL, 'b' }, \
	{ "to", required_argument, NULL, 't' }
#define READER_FILTER_SHORTOPTS "f:e:c:b:t:"
/* The lines of `--help` that document them. */
#define READER_FILTER_HELP \
	"  --facility NAME   only events of facility NAME (repeatable, * globs)\n" \
	"  --event NAME      only events named NAME or FACILITY.NAME (repeatable, * globs)\n" \
	"  --cpu N           only events of cpu/N (repeatable)\n" \
	"  --from T, --to T  only events from / up to time T: seconds since the Epoch (1062609024.3)\n" \
	"                    or +S seconds after the start of the trace (+0.5)\n"

/* --tid, for the commands that select events by thread (dump, stats); its getopt code is 'I'. */
#define READER_TID_LONGOPT { "tid", required_argument, NULL, 'I' }
#define READER_TID_HELP \
	"  --tid=LIST        only events of these threads: thread ids, comma-separated (repeatable);\n" \
	"                    an event's thread is its top-level tid field: events without one are left out\n"

/* Takes the getopt code c with its argument: 1 when c is a filter option, 0 when it is not, -1 when
 * its value is bad (reported as "ltt CMD: ..."). */
int reader_filter_option(struct reader_filter *f, const char *cmd, int c, const char *arg);
/* Whether the filters let the events of type ty through (time and cpu aside). */
int reader_filter_type_shown(const struct reader_filter *f, const struct ltt_event_type *ty);
/* Whether ev passes --tid (always without it). The events_lost and blocks_lost records pass when
 * f->lost is set, as they pass the other filters. */
int reader_filter_tid_shown(const struct reader_filter *f, const struct ltt_event *ev);
/* The range --from and --to give (0 and UINT64_MAX when unbounded), without setting it on r: for
 * a command that must read every event and count those inside. 0, or -EINVAL (reported). */
int reader_filter_times(struct ltt_reader *r, const struct reader_filter *f, const char *cmd,
			uint64_t *from_ns, uint64_t *to_ns);
/* Hides the event types, skips the tracefiles and sets the time range the filters leave out.
 * from_ns/to_ns (may be NULL) receive the range (0 and UINT64_MAX when unbounded). 0, or -EINVAL
 * for a bad time (reported). */
int reader_filter_apply(struct ltt_reader *r, const struct reader_filter *f, const char *cmd,
			uint64_t *from_ns, uint64_t *to_ns);

#endif
