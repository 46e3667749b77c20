/* SPDX-License-Identifier: MIT */
/* `ltt stats --regions`: time spent in the app facility's regions (eventdefs/app.xml), per category
 * and label: count, children (regions completed directly inside, on the same thread), total, self
 * (total minus the children's time), min, p50, p90, p99 and max (exact), for each thread and for all
 * threads together (doc/cli.md). A region's time is from its region_enter to its region_leave on the
 * same thread; a leave whose enter is not in the trace (a flight-recorder snapshot, recording started
 * inside the region) is not counted. Regions still open at the end of the trace (entered, never left:
 * a snapshot taken inside them) follow the tables, with their start and how long before the end. */
#ifndef LTT_TOOLKIT_REGIONS_H
#define LTT_TOOLKIT_REGIONS_H

#include <stdio.h>

#include <ltt/reader.h>

/* The readers given here are opened with LTT_READ_BUILTIN and losses_reader() (toolkit/losses.h): a
 * region open when events of its trace were lost is cut (counted apart, no duration), and the text
 * says the window's losses before the tables, the JSON in its "lost" key.
 * Reads the remaining events of r (opened with the app facility's events visible) and prints the
 * tables on out, as text (durations in adaptive units), or as one JSON object when json is nonzero
 * (the schema of doc/cli.md). Returns 0, -ENOMEM, or the
 * reader's negative errno. */
int regions_report(struct ltt_reader *r, FILE *out, int json);

/* With kernel events (toolkit/sched_model.h): a region's time on CPU, runnable (waiting for a CPU)
 * and off CPU (sleeping, blocked, stopped), and the system call it spent longest in (the part of the
 * call inside the region). The three need not sum to the duration: time in a state the kernel events
 * do not tell (before the thread's first event) is in none. */
struct reg_kernel {
	int known;		/* the thread's kernel state was known at the region's enter */
	uint64_t on_cpu_ns, runnable_ns, off_cpu_ns;
	int has_call;		/* a system call completed inside */
	uint32_t call_nr;
	unsigned call_trace;
	uint64_t call_ns;
};

/* The kernel part of regions (toolkit/regions_kernel.c): k's on, runnable and off-CPU time are what
 * the thread's times by state (at[SCHED_NSTATES] of toolkit/sched_model.h) grew by from a to b; add
 * sums (the longest call kept); call_text writes "read 100.00ms" (or "-") with the call's name in
 * the trace's machine; json appends the keys of doc/cli.md ("on_cpu_ns", ..., "longest_syscall"). */
void reg_kernel_span(struct reg_kernel *k, const uint64_t *a, const uint64_t *b);
void reg_kernel_add(struct reg_kernel *x, const struct reg_kernel *k);
void reg_kernel_call_text(char *buf, size_t size, const struct reg_kernel *k, struct ltt_reader *r);
void reg_kernel_json(FILE *out, const struct reg_kernel *k, const char *call_text);

/* One completed region, as regions_scan gives it (the rows behind the tables above). */
struct region_row {
	unsigned trace;		/* trace index (process) */
	uint32_t tid;
	const char *thread;	/* Trace2's name: "main", "th01:name", "tid:N" */
	const char *category, *label;
	const char *msg;	/* region_enter's message (ltt_region_enter_printf), NULL when empty */
	uint64_t start_ns, dur_ns;	/* region_enter's time, to region_leave's */
	uint64_t self_ns;	/* dur_ns minus the time in regions nested directly inside */
	unsigned depth;		/* regions open around it on its thread */
	uint64_t id;		/* from 1, in the order of the region_enter events */
	uint64_t parent_id;	/* the enclosing region's id; 0 at depth 0 or when its enter is not in
				 * the trace */
	struct reg_kernel k;	/* k.known 0: no kernel events about the thread */
	int open;		/* still open at the end of the trace (a flight snapshot taken inside it):
				 * dur_ns, self_ns and k 0 */
	int cut;		/* events of its trace were lost while it was open (toolkit/losses.h): its
				 * enter is not known to be this leave's; dur_ns, self_ns and k 0 */
};

/* Reads the remaining events of r (as regions_report) and calls fn for each completed region, in the
 * order of their region_leave events, then for each region still open at the end whose enter is in the
 * trace (open 1; thread by thread, outermost first); the row's strings live until fn returns. A nonzero return of
 * fn stops the scan and is returned. Otherwise 0, -ENOMEM, or the reader's negative errno. */
int regions_scan(struct ltt_reader *r, int (*fn)(void *arg, const struct region_row *row), void *arg);

/* The same rows one at a time, in the same order (ltt sql's regions table, the rows export): memory
 * bounded by the regions open at a time, not by the trace. next gives 1 and *row (valid until the
 * next call), 0 at the end, or -ENOMEM / the reader's negative errno. The iterator reads r, which
 * stays the caller's. */
struct regions_iter;
int regions_iter_new(struct ltt_reader *r, struct regions_iter **out);
int regions_iter_next(struct regions_iter *it, const struct region_row **row);
void regions_iter_free(struct regions_iter *it);

#endif
