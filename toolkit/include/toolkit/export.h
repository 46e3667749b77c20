/* SPDX-License-Identifier: MIT */
/* Export formats of `ltt export` (doc/viewing.md): each exp_NAME.c under tools/ defines one
 *
 *     const struct ltt_exporter ltt_exp_NAME = { .name = "NAME", .suffix = ".ext", ... };
 *
 * and the Makefile lists it in ltt-exps.h (LTT_EXP(NAME) lines), so `ltt export --format=NAME` finds
 * it (.name may differ from the file's NAME: exp_chrome_json.c is "chrome-json").
 *
 * The driver (tools/export/cmd_export.c) does everything that is not the format: it parses the
 * options (dump's filters, -o, --force), opens the trace set with the reader, applies the filters, picks OUT
 * (default: the first trace's name + .suffix in the current directory), refuses an existing OUT
 * without --force, creates a temporary file or directory beside OUT, and then calls
 *
 *     begin(ctx)                     once,
 *     event(ctx, ev)                 for each event the filters let through, in merge order
 *                                    (tracefile order when .unordered),
 *     end(ctx, failed)               once when begin succeeded, even after an error;
 *
 * draws the progress bar, and finally renames the temporary OUT to OUT (or removes it when anything
 * failed or the export was interrupted: no partial OUT is ever left). Problems found in the input
 * (damaged blocks, ...) are printed by the driver as `ltt dump` prints them; the good events are
 * still exported and the exit status is 1.
 *
 * A format may also export the whole trace set by itself, in threads, instead of the event loop
 * (`ltt export --threads`): the driver calls parallel(ctx) after begin when ctx->threads >= 2, the
 * filters select no time range (--from/--to) and the output is not a pipe or device. It returns 1
 * when it wrote everything (then end(ctx, 0) as usual), 0 when it could not do it exactly as the event
 * loop would (a damaged trace, time carried over ranges, ...: it removed what it wrote and put its
 * state back as begin left it; the driver runs the event loop), or a negative errno.
 *
 * Callbacks return 0 or a negative errno. The driver reports a failure as "ltt export: OUT: error";
 * a callback that printed its own one-line message returns EXPORT_REPORTED instead.
 * Memory must not grow with the number of events: a format keeps bounded state (per thread, per
 * event type, per tracefile, interning tables of bounded size).
 */
#ifndef LTT_TOOLKIT_EXPORT_H
#define LTT_TOOLKIT_EXPORT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/reader.h>

#include "toolkit/dump_out.h"

#define EXPORT_REPORTED (-ECANCELED)	/* the callback printed the error itself */

/* Per event type state the driver keeps in *ltt_event_type.user (exporters must not set it
 * themselves; they get this through export_type()). */
struct export_type {
	const char *full;	/* "facility.event" */
	int tid_offset;		/* byte offset of a leading uint "tid" field of the body, -1 when none */
	unsigned tid_bytes;
	unsigned app;		/* an event of the app facility (eventdefs/app.xml) */
	unsigned core;		/* an event of the core facility (not builtin) */
	unsigned thread_name;	/* core.thread_name or core.thread_start: names its thread */
	unsigned func;		/* func.entry 1, func.exit 2, func.call 3 (function tracing), else 0 */
	void *priv;		/* the format's own per type state (freed by the format in end) */
};

struct ltt_export_ctx {
	const char *cmd;		/* "export": for ltt_tool_error */
	struct ltt_reader *reader;
	unsigned ntraces;
	const char *out_name;		/* OUT as the user will see it (for messages and titles) */
	const char *path;		/* where to write: the temporary file or directory */
	struct dump_out *out;		/* file formats: buffered output to path (dump_out_* helpers);
					 * NULL for directory formats, which create their files in path */
	uint64_t from_ns, to_ns;	/* the selected time range (--from/--to), 0 / UINT64_MAX when open */
	uint64_t first_ns, last_ns;	/* time bounds of the trace set (first and last block), within the
					 * selected range; 0 and 0 when unknown (empty trace) */
	void *priv;			/* the format's own state, set in begin, freed in end */
	unsigned threads;		/* --threads: workers for parallel (>= 2 when it is called) */
	const int *cpus;		/* --cpu: the CPU tracefiles kept (ncpus of them; 0: all) */
	unsigned ncpus;
	const volatile sig_atomic_t *interrupted;	/* nonzero once a signal asked to stop */
};

/* An option of one format, taking a value (`ltt export --format=rows --table regions`): the driver
 * accepts it anywhere on the line, refuses it with another format, and gives its value to the
 * format's option() before anything is opened. Its --help line goes in cmd_export.c's usage. */
struct export_option {
	const char *name;		/* the long option, without "--" */
};

struct ltt_exporter {
	const char *name;		/* --format=NAME */
	const char *summary;		/* one line for `ltt export --help` */
	const char *suffix;		/* of the default OUT: ".pftrace", ".json", ".ctf", ".svg" */
	unsigned dir;			/* OUT is a directory (created empty by the driver) */
	unsigned lost;			/* also give the builtin events_lost / blocks_lost events */
	unsigned builtin;		/* also give every builtin event (block_start, ...), whatever the
					 * filters */
	unsigned unordered;		/* events of one tracefile after another (LTT_READ_UNORDERED) */
	int (*begin)(struct ltt_export_ctx *ctx);			/* may be NULL */
	int (*event)(struct ltt_export_ctx *ctx, const struct ltt_event *ev);
	int (*end)(struct ltt_export_ctx *ctx, int failed);	/* may be NULL; frees priv. failed:
								 * the output will be removed */
	int (*parallel)(struct ltt_export_ctx *ctx);		/* may be NULL; see above */
	const struct export_option *options;	/* the format's own options, ended by a NULL name;
						 * may be NULL */
	/* Takes the value of options[i]: 0, or -1 after printing "ltt export: ..." (exit status 2). */
	int (*option)(unsigned i, const char *value);
};

/* ---- helpers for the formats (export_util.c) ------------------------------------------------------ */

/* The driver's state of the event's type (never NULL during an export). */
static inline struct export_type *export_type(const struct ltt_event *ev)
{
	return *ev->type->user;
}

/* "facility.event" of an event type of the export. */
static inline const char *export_type_full(const struct ltt_event_type *ty)
{
	return ((const struct export_type *)*ty->user)->full;
}

/* The thread id of an event whose body starts with a uint field "tid" (the app facility, core's
 * thread events): 1 and *tid, else 0 (the event belongs to its CPU). */
static inline int export_event_tid(const struct ltt_event *ev, uint32_t *tid)
{
	const struct export_type *et = export_type(ev);
	const unsigned char *p = ev->payload + et->tid_offset;
	uint32_t v = 0;

	if (et->tid_offset < 0 || (uint32_t)et->tid_offset + et->tid_bytes > ev->size)
		return 0;
	if (ev->big_endian)
		for (unsigned i = 0; i < et->tid_bytes; i++)
			v = v << 8 | p[i];
	else
		for (unsigned i = et->tid_bytes; i-- > 0; )
			v = v << 8 | p[i];
	*tid = v;
	return 1;
}

/* Walks the scalar leaves of a value (the body of an event): fn gets each leaf with its path
 * ("a.b[2]", "u.num" for a union's selected field) in name (NUL-terminated, cut at namelen - 1).
 * Arrays and sequences of more than max_elems elements give only their first max_elems ones.
 * Stops and returns fn's nonzero value, else 0. */
typedef int (*export_leaf_fn)(void *arg, const char *name, size_t len, const struct ltt_value *v);
int export_walk(const struct ltt_value *v, char *name, size_t namelen, size_t used, uint64_t max_elems,
		export_leaf_fn fn, void *arg);

/* Whether the driver reads tracefile tf (--cpu keeps only some; a parallel path must skip the
 * others as the reader does). */
int export_tracefile_kept(const struct ltt_export_ctx *ctx, const struct ltt_tracefile_info *tf);

/* The process name of a trace (system.xml's program, else its directory's name). */
const char *export_trace_program(const struct ltt_trace_info *t);
/* The pid of a trace (system.xml's ltt_pid), 0 when unknown. */
uint32_t export_trace_pid(const struct ltt_trace_info *t);

#endif
