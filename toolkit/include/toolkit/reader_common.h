/* SPDX-License-Identifier: MIT */
/* Helpers shared by the reader commands (dump, stats, check): problem printing, option values. */
#ifndef LTT_TOOLKIT_READER_COMMON_H
#define LTT_TOOLKIT_READER_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/reader.h>

#include "common/grow.h"
#include "toolkit/event_tid.h"

struct reader_tool {
	const char *cmd;	/* "dump", "stats", "check" */
	uint64_t problems;
	int silent;		/* count problems without printing them */
	unsigned skipped;	/* traces of the set that could not be opened (reported, left out) */
	int hold;		/* keep problem lines in held[] instead of printing them */
	char **held;
	size_t nheld, capheld;
	unsigned capture_flags;	/* LTT_CAPTURE_* for the paths' snapshots and chunks (ltt/reader.h) */
};

/* Opens the trace set of paths, each expanded first by ltt_capture_expand() (a flight-recorder
 * directory: its newest snapshot, or all with LTT_CAPTURE_ALL_SNAPSHOTS; a chunked capture: its chunks
 * in order), saying on stderr in one line each what was read from a capture and what was skipped
 * (incomplete snapshots, chunks being written, chunks removed by the size bound). A trace that cannot be opened is reported on one line
 * ("ltt CMD: ...") and left out, the others are opened (tool->skipped counts those left out, the
 * command must then exit non-zero). Returns 0, or a negative errno when no trace could be opened
 * (reported too). */
int reader_tool_open(struct reader_tool *tool, struct ltt_reader **r, char **paths, unsigned npaths,
		     const struct ltt_reader_options *opt);

/* Each trace of r whose recording never stopped (reader/write_losses.h) is a problem: one line
 * "ltt CMD: TRACE: recording did not stop: its end may be missing (...)" on stderr each, counted in
 * tool->problems. Returns how many. */
unsigned reader_tool_not_stopped(struct reader_tool *tool, struct ltt_reader *r);

/* The exit status of a reader command: 1 when it failed (failed nonzero), when the traces had
 * problems or when some could not be opened (tool->skipped), else 0. */
static inline int reader_tool_status(const struct reader_tool *tool, int failed)
{
	return failed || tool->problems || tool->skipped ? 1 : 0;
}

/* --threads=N of the commands that decode the CPU tracefiles in threads (dump, export, stats): 0, or
 * -1 after the line "ltt CMD: --threads=ARG: expected a number from 0 (automatic) to 16". */
int reader_threads_option(const char *cmd, const char *arg, unsigned *threads);

/* Problem callback: prints "ltt CMD: TRACE/FILE: offset N: what" on stderr. arg is a reader_tool. */
void reader_tool_problem(void *arg, const struct ltt_problem *p);

/* Parses a time option: absolute seconds since the Epoch ("1062609024.5") or "+S" seconds after
 * `start_ns` ("+0.25"); up to 9 decimals. 0 or -EINVAL. */
int reader_parse_time(const char *s, uint64_t start_ns, uint64_t *out_ns);


/* Formats a duration for people, in the largest unit that keeps it at 1 or more: "20ns" below a
 * microsecond, else 2 decimals rounded half up in µs, ms or s ("1.50µs", "999.99ms", "12.35s"; a value
 * that rounds to 1000 of a unit moves to the next one: 999999 ns is "1.00ms"). No space between the
 * number and the unit, so that the value is one word; "µs" is UTF-8 (2 bytes, 1 column). Returns buf;
 * 24 bytes always suffice. */
char *reader_format_duration(char *buf, size_t size, uint64_t ns);

/* Columns the UTF-8 string s takes on a terminal (its bytes but the continuation bytes). */
size_t reader_text_columns(const char *s);

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
