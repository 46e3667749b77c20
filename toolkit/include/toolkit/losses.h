/* SPDX-License-Identifier: MIT */
/* The losses inside the window a view covers (issue 34): the one place every analysis view (ltt stats'
 * reports, ltt dump --format=calls, ltt sql's derived tables, the Python module, the exports) asks what
 * its window lost, and how the interval models (calls, regions, spans) learn that a loss separates an
 * interval's begin from its end.
 *
 * A view opens its reader with LTT_READ_BUILTIN and calls losses_reader(): of the builtin records only
 * events_lost and blocks_lost are then yielded (doc/format.md section 7), in merge order, at the time
 * they were written: the start of the first block the writer of that tracefile could open after the
 * drops. The view hands every event to losses_event() first: 1 means the event was a loss record (its
 * window in L->last), and the view's models are told (calls_loss, regions, span_model_loss), then the
 * event is not the view's. A loss record's window is (the time of its tracefile's previous record,
 * its own time]: the events it counts were dropped in there. The window of the view is what the
 * reader yields: with a time range set (--from/--to), the loss records inside it.
 *
 * Which intervals a loss cuts: the CPU rings are shared by the threads of a process, and a thread may
 * run on any CPU, so a loss on any user tracefile of a trace (cpu/N, the control files) may have
 * dropped events of any of its threads: every interval of that trace still open at the loss record
 * (begun before it) is cut. Losses on kernel/N (perf's rings) are the kernel events' (the scheduling
 * and syscall models, toolkit/sched_model.c), never the calls', regions' or spans'. An interval whose
 * begin and end are both recorded and which closes before the loss record is read keeps its duration:
 * on the tracefile that lost, no record lies inside the window; on another CPU the thread's own
 * records are continuous there unless it ran on the losing CPU inside the window and moved before the
 * record came (the calls it closed meanwhile keep their durations: knowing better would mean holding
 * every call until each CPU's next block, without bound on an idle CPU; doc/cli.md says so). */
#ifndef LTT_TOOLKIT_LOSSES_H
#define LTT_TOOLKIT_LOSSES_H

#include <stdint.h>
#include <stdio.h>

#include <ltt/reader.h>

#define LOSS_OVERWRITTEN LTT_LOST_NCAUSES	/* cause of a blocks_lost record's window */

struct loss_window {
	const struct ltt_trace_info *trace;
	const struct ltt_tracefile_info *tf;
	uint64_t from_ns;	/* the tracefile's previous record (0: none before it in the window) */
	uint64_t to_ns;		/* the loss record's time */
	uint64_t events;	/* events dropped (events_lost count; blocks_lost: the blocks' events) */
	unsigned cause;		/* enum ltt_lost_cause, or LOSS_OVERWRITTEN */
	int kernel;		/* on kernel/N: the kernel events' loss, not the user events' */
};

struct losses_tf {
	const struct ltt_tracefile_info *tf;
	uint64_t last_ns;
};

struct losses {
	uint64_t lost[LTT_LOST_NCAUSES];	/* events_lost counts by cause, in the window */
	uint64_t overwritten, overwritten_blocks;	/* blocks_lost records' events and blocks */
	uint64_t records;			/* loss records read */
	uint64_t user_events, kernel_events;	/* lost + overwritten on user / kernel tracefiles */
	uint64_t first_ns, last_ns;		/* of the loss records (valid when records > 0) */
	struct loss_window last;		/* the latest loss record's window */
	struct losses_tf *tfs;			/* each tracefile's latest record time */
	size_t ntfs, captfs, cached;
};

void losses_init(struct losses *L);
void losses_free(struct losses *L);
/* r was opened with LTT_READ_BUILTIN: hides every builtin record but events_lost and blocks_lost,
 * which it shows (call it after any filter that hides types). */
void losses_reader(struct ltt_reader *r);
/* 1 for the types of the loss records (events_lost, blocks_lost): for a reader's keep filter. */
static inline int losses_type(const struct ltt_event_type *ty)
{
	return ty->builtin && (ty->id == LTT_ID_EVENTS_LOST || ty->id == LTT_ID_BLOCKS_LOST);
}
/* Every event the view reads: 1 when ev is a loss record (counted; L->last its window), 0 for any other
 * event (its time noted for its tracefile), -ENOMEM. */
int losses_event(struct losses *L, const struct ltt_event *ev);
/* Events lost or overwritten in the window, every tracefile. */
uint64_t losses_total(const struct losses *L);
/* 1 when a loss record's window L->last cuts the user intervals of its trace (not on kernel/N). */
static inline int losses_cut_user(const struct losses *L)
{
	return !L->last.kernel;
}
/* The text line a view prints before its table when its window lost events (nothing when none):
 * "lost: 3899 events in this window (buffer_full 3899 on cpu/0), overwritten 0; 12 calls cut by a
 * loss are counted apart, without a duration". what: the view's intervals ("calls", "regions"; NULL:
 * the clause is left out). */
void losses_print_text(const struct losses *L, FILE *out, const char *what, uint64_t cut);
/* The JSON key (always, with zeros when nothing was lost), after a comma the caller wrote or not:
 * "lost":{"events":N,"by_cause":{"buffer_full":N,...},"overwritten":N,"overwritten_blocks":N,
 * "records":N,"kernel_events":N,"cut":N} ("cut" only when what is given). */
void losses_print_json(const struct losses *L, FILE *out, const char *what, uint64_t cut);
/* The same line and object into buf (for outputs that are not a FILE): the bytes written (truncated
 * at size - 1), 0 for the text when nothing was lost. */
size_t losses_format_text(const struct losses *L, char *buf, size_t size, const char *what, uint64_t cut);
size_t losses_format_json(const struct losses *L, char *buf, size_t size, const char *what, uint64_t cut);

#endif
