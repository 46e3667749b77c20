/* SPDX-License-Identifier: MIT */
/* tools/calls/calls.h: the calls of a trace's func events (function tracing, doc/recorder.md
 * "Function tracing"): each thread's call stack rebuilt from func.entry and func.exit, and the whole
 * calls of minimum-duration mode (func.call), addresses symbolized through core.mapping by the profile
 * model (tools/profile/). Used by `ltt stats --functions` (calls_stats.c), `ltt dump --format=calls`
 * (fmt_calls.c), `ltt sql`'s calls table and the exports' nested slices. */
#ifndef LTT_TOOLKIT_CALLS_H
#define LTT_TOOLKIT_CALLS_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/reader.h>

#include "toolkit/losses.h"
#include "toolkit/profile.h"

/* One completed call (or, unfinished, one still open when the trace ends: end = the last time the
 * trace shows for its thread). */
struct call {
	const struct ltt_trace_info *trace;
	uint32_t tid;
	uint32_t depth;		/* calls of its thread open around it (0: outermost the trace shows) */
	long func;		/* index in calls_model.pm.funcs */
	long parent;		/* the enclosing call's function, -1 when none is known */
	uint64_t start_ns, dur_ns, self_ns;	/* self: on the CPU, less its callees (when the thread's
						 * switches are recorded; else less its callees only) */
	uint64_t off_ns;	/* off the CPU during the call, callees included (its thread's switch
				 * records: kernel.thread_switch, kernel.schedchange); 0 without them */
	uint64_t blocked_ns;	/* ... of it, sleeping or blocked (the rest: preempted, runnable) */
	int unfinished;
	int cut;		/* events were lost between its entry and its exit (toolkit/losses.h): its
				 * pairing is not known, dur_ns and self_ns are 0 */
	int outermost;		/* no call of the same function encloses it on its thread (for totals) */
	int before;		/* unfinished, entered before the trace shows its thread: its entry is not
				 * in the trace, only in a snapshot's open calls (func.open); start_ns is
				 * the thread's first event, dur_ns and self_ns are 0 (not known) */
	const char *args;	/* its arguments as uftrace's replay prints them ("3, 4": func.args), NULL
				 * when none were recorded */
	const char *retval;	/* its return value ("7": func.retval), NULL when none was recorded */
};

struct call_frame {
	uint64_t addr;
	long func;
	uint64_t start_ns, child_ns;
	uint64_t off0, blocked0;	/* its thread's off-CPU and blocked time at its entry */
	uint64_t child_off;		/* off-CPU time of its callees */
	int cut;		/* open when events of its trace were lost */
	int before;		/* from a snapshot's open calls, entered before the trace (struct call) */
	char *args, *retval;	/* struct call's, malloc'ed (owned by the frame), or NULL */
};

struct call_done {		/* minimum-duration mode: whole calls of a thread, kept until the end */
	uint64_t start_ns, dur_ns, addr;
};

struct call_thread {		/* one thread of one trace */
	const struct ltt_trace_info *trace;
	uint32_t tid;
	struct call_frame *fr;
	size_t n, cap;
	size_t ncut;		/* fr[0 .. ncut) are cut (a loss since they opened) */
	uint64_t last_ns;
	struct call_done *done;
	size_t ndone, capdone;
	uint64_t first_ns;	/* its first event */
	int seen;
	uint64_t *open;		/* the last snapshot's open calls of the thread (func.open): addresses,
				 * outermost first */
	size_t nopen, capopen;
	uint64_t open_ns;	/* their time */
	uint64_t off_ns, blocked_ns;	/* time off the CPU so far (switch records), blocked part */
	uint64_t out_ns;	/* when it left the CPU, if out */
	int out;		/* 0 on the CPU (or not known), 1 out runnable, 2 out blocked */
};

enum { CALLS_ENTRY = 1, CALLS_EXIT, CALLS_CALL, CALLS_OPEN, CALLS_ARGS, CALLS_RETVAL, CALLS_SYMBOL };

struct calls_sym {		/* func.symbol: the name of a library call's stub address */
	uint64_t addr;
	char *name;
};

struct calls_map {		/* a core.mapping: names functions of binaries that are missing */
	uint64_t start, end, offset;
	char *path;
};

struct calls_model {
	struct prof_model pm;	/* symbolizer, functions */
	struct call_thread *th;
	size_t nth, capth;
	struct calls_map *maps;
	size_t nmaps, capmaps;
	/* what a func event type is (event types compared by pointer, then by name) */
	const struct ltt_event_type *types[7];
	struct calls_sym *syms;		/* func.symbol events read */
	size_t nsyms, capsyms;
	/* the consumer's callbacks: a call that begins (entry/exit mode; NULL: not wanted), a call that
	 * ends */
	int (*on_enter)(void *arg, uint32_t tid, uint32_t depth, long func, uint64_t start_ns);
	int (*on_call)(void *arg, const struct call *c);
	/* the arguments of the call on_enter just began (func.args; NULL: not wanted) */
	int (*on_args)(void *arg, uint32_t tid, uint32_t depth, const char *args);
	void *arg;
	uint64_t events, unmatched;	/* func events read; exits whose entry the trace does not hold */
	uint64_t cut;			/* calls cut by a loss (struct call.cut) */
	struct sched_decoder *sd;	/* the thread switch records (kernel facility), made at the first */
	struct losses loss;		/* the losses read (the reader opened with LTT_READ_BUILTIN and
					 * losses_reader(): toolkit/losses.h); a loss record cuts every call
					 * open in its trace */
};

int calls_init(struct calls_model *m);
void calls_free(struct calls_model *m);
/* Feeds one event (core.mapping, func events and loss records matter; the others are ignored). 1 when
 * it was a func event, 0 when not, or a negative errno from a callback or an allocation. */
int calls_event(struct calls_model *m, const struct ltt_event *ev);
/* The end of the trace: minimum-duration calls in order, then the calls still open (unfinished): with
 * a snapshot's open calls (func.open), those of the list, outermost first, whatever the events kept;
 * frames the events left open that the list does not hold (their exit lost) are reported cut. */
int calls_finish(struct calls_model *m);
/* Whether ev is a func event: CALLS_ENTRY, CALLS_EXIT, CALLS_CALL, CALLS_OPEN, CALLS_ARGS, CALLS_RETVAL,
 * CALLS_SYMBOL or 0. */
int calls_kind(struct calls_model *m, const struct ltt_event *ev);
const char *calls_func_name(const struct calls_model *m, long func);


#endif
