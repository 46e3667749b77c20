/* SPDX-License-Identifier: MIT */
/* The timeline view of a trace set shared by the timeline formats (perfetto, chrome-json, svg):
 * processes (one per trace), lanes (a thread of a process, or a CPU for events that carry no thread
 * id), and what each event is on its lane: a region begin or end (app.region_enter/leave), a counter
 * value (app.data_int, app.counter, an app.data_string whose value is a decimal integer), lost events (builtin events_lost/blocks_lost), a child
 * process (app.child_exit, with its start), or an instant (every other event). Names come from
 * app.cmd_name (process), core.thread_name, core.thread_start and app.thread_start (threads). Function
 * tracing's calls are regions too: func.entry begins one named after the function (symbolized through
 * core.mapping, toolkit/profile.h), func.exit ends it, func.call is a whole one (TL_SLICE). The spans
 * facilities declare (<span>, toolkit/spans.h) are regions on lanes of their own, one per slot of a
 * declaration in a process (named "FACILITY.SPAN", then "FACILITY.SPAN 2", ...): spans of one slot
 * never overlap, so each lane's begins and ends nest whatever the threads and keys; the begin event
 * gives the region its fields. An end without its begin is an instant on its thread.
 * App events are read through the Trace2 model (toolkit/trace2_model.h).
 *
 * Memory: one entry per process and per lane, one per open span; nothing per event. */
#ifndef LTT_TOOLS_EXPORT_TIMELINE_H
#define LTT_TOOLS_EXPORT_TIMELINE_H

#include <stdint.h>

#include <ltt/reader.h>

#include "toolkit/profile.h"
#include "toolkit/trace2_model.h"

#define TL_NAME_MAX 64

struct tl_process {
	unsigned trace;			/* index in the trace set */
	uint32_t pid;			/* ltt_pid, else 1000000 + trace index */
	char name[TL_NAME_MAX];		/* app.cmd_name, else the program */
	unsigned renamed;		/* the name changed since the format last looked (format clears) */
	unsigned seen;			/* an event of the process was seen: first_ns is set */
	uint64_t first_ns;		/* time of its first event */
	uint64_t user;			/* the format's own */
};

struct tl_lane {
	struct tl_process *proc;
	unsigned is_thread;		/* 1: thread tid; 0: the CPU lane of tracefile tf, or a span lane */
	unsigned is_span;		/* a span lane (tf NULL, tid made up) */
	uint32_t tid;			/* threads: the tid; CPU lanes: a made-up id (see lane_tid) */
	const struct ltt_tracefile_info *tf;	/* CPU lanes */
	unsigned index;			/* creation order, from 0, over the whole set */
	char name[TL_NAME_MAX];		/* thread name, or "cpu/N", "control/..." */
	unsigned renamed;		/* the name changed since the format last looked (format clears) */
	uint32_t depth;			/* regions open on the lane (begun and not ended) */
	uint32_t fdepth;		/* of them, function calls (func.entry) */
	uint64_t user[2];		/* the format's own */
};

enum tl_kind {
	TL_INSTANT,			/* any event: name, fields */
	TL_BEGIN,			/* region_enter: category, label; a span's begin: facility, span */
	TL_END,				/* region_leave matching an open region on the lane */
	TL_COUNTER,			/* category: the counter's name; value (also shown as the instant it is) */
	TL_LOST,			/* count, cause ("buffer_full", ..., "blocks_lost") */
	TL_CHILD,			/* child_exit: a slice [time - elapsed, time] of the child */
	TL_SLICE,			/* func.call: a whole call [slice_start_ns, time], name, category */
};

struct tl_event {
	enum tl_kind kind;
	const struct ltt_event *ev;
	struct tl_lane *lane;
	const char *name;		/* "facility.event", or the region's label */
	const char *category;		/* BEGIN: the region's category; COUNTER: the counter's name */
	int64_t value;			/* COUNTER */
	uint64_t count;			/* LOST */
	const char *cause;		/* LOST */
	int32_t child_id;		/* CHILD */
	uint32_t child_pid;		/* CHILD */
	int32_t child_code;		/* CHILD */
	uint64_t child_start_ns;	/* CHILD */
	struct tl_process *child_proc;	/* CHILD: the child's own process in the set, or NULL */
	uint64_t slice_start_ns;	/* SLICE */
	struct t2_event t2;		/* app events: the Trace2 view (t2.kind T2_NONE for others) */
};

struct timeline;

int timeline_new(struct timeline **out, struct ltt_reader *r);
void timeline_free(struct timeline *tl);

/* Classifies the next event (in merge order): 0 and *out, or -ENOMEM. A region_leave with no open
 * region on its lane (recording started inside the region) is an instant. */
int timeline_event(struct timeline *tl, const struct ltt_event *ev, struct tl_event *out);

/* Processes and lanes seen so far, for the formats' end (lanes in creation order). */
unsigned timeline_nprocs(const struct timeline *tl);
struct tl_process *timeline_proc(struct timeline *tl, unsigned i);
unsigned timeline_nlanes(const struct timeline *tl);
struct tl_lane *timeline_lane(struct timeline *tl, unsigned i);

#endif
