/* SPDX-License-Identifier: MIT */
/* The spans of a trace set: the event pairs facilities declare with <span> (doc/eventdefs.md
 * "Spans", struct ltt_span_desc). Within one trace (one process), a span's begin event opens an
 * interval and the first end event of the same span with an equal key closes it, whatever the threads
 * of the two (a second begin of a key still open nests: its end closes it first). Different keys
 * overlap freely. A begin never closed is open at the end of the trace; an end without an open begin
 * (recording or a flight snapshot started inside the span) is unmatched.
 * Each open span also has a slot: the lowest number no other open span of the same declaration in the
 * same trace holds, so that the spans of one slot never overlap (the exports draw a slot as a lane).
 * Used by `ltt sql`'s spans table (toolkit/sql/tables_spans.c) and the exports' timeline.
 * Memory: one record per open span (its key copied) and its slot; nothing per closed span. Time: O(1)
 * per event but the slot, O(log open spans). */
#ifndef LTT_TOOLKIT_SPANS_H
#define LTT_TOOLKIT_SPANS_H

#include <stdint.h>

#include <ltt/reader.h>

enum span_kind {
	SPAN_NONE = 0,		/* not a span event */
	SPAN_BEGIN,		/* opens span `id` in `slot` */
	SPAN_END,		/* closes span `id` begun at begin_ns */
	SPAN_UNMATCHED,		/* an end without an open begin of its key */
};

struct span_ev {
	enum span_kind kind;
	const struct ltt_facility_desc *fac;
	const struct ltt_span_desc *decl;
	unsigned trace;			/* index in the trace set */
	const char *key;		/* the key's value as text (decimal, an enum's label, the string) */
	uint64_t id;			/* from 1 in the order of the begins (0 for SPAN_UNMATCHED) */
	unsigned slot;
	uint64_t begin_ns, end_ns;	/* END: both; BEGIN: begin_ns; UNMATCHED: end_ns */
	int has_tid, has_end_tid;	/* the events' top-level "tid" field */
	uint32_t tid, end_tid;		/* of the begin, of the end */
	/* BEGIN: the caller may set *user (a malloc'ed block kept with the open span, freed with
	 * free() by the model if the span never closes before span_model_free); END: that block, now
	 * the caller's. */
	void **user;
	void *user_val;
	int cut;			/* END: events of its trace were lost since its begin (span_model_loss):
					 * which begin this end closes is not known, it has no duration */
};

struct span_model;

int span_model_new(struct span_model **out);
/* Frees the model and every open span's user block. */
void span_model_free(struct span_model *m);

/* Whether an event of this type begins or ends a declared span (cheap: for a reader's keep filter). */
int span_event_type(const struct ltt_event_type *ty);

/* Takes the next event in merge order: SPAN_NONE (0) for an event of no span, else the kind with *out
 * filled (strings valid until the next call), or -ENOMEM (the event is not taken). */
int span_model_event(struct span_model *m, const struct ltt_event *ev, struct span_ev *out);

/* Calls fn for each span still open, in the order of their begins (kind SPAN_BEGIN, user_val its block,
 * which stays the model's); stops at fn's nonzero return and returns it. */
int span_model_open_each(struct span_model *m, int (*fn)(void *arg, const struct span_ev *sp), void *arg);

/* The spans still open one at a time, in the order of their begins: *cursor NULL at first; 1 and *out
 * (kind SPAN_BEGIN, user_val its block, the model's), or 0 after the last. The model must not take
 * events meanwhile. */
int span_model_open_next(struct span_model *m, void **cursor, struct span_ev *out);

/* A loss record of a user tracefile of trace `trace` (toolkit/losses.h): every span of it open now is
 * cut (its end has kind SPAN_END and cut 1). O(1). 0 or -ENOMEM. */
int span_model_loss(struct span_model *m, unsigned trace);

/* Ends seen without an open begin, so far. */
uint64_t span_model_unmatched(const struct span_model *m);

#endif
