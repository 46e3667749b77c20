/* SPDX-License-Identifier: MIT */
/* What `ltt export --format=html` keeps of a trace (html_model.c), with bounded memory whatever the
 * number of events (doc/viewing.md "Levels of detail"):
 * - lanes (a thread, a CPU, a span slot, a tracefile) grouped by process, named at the end;
 * - intervals (regions, function calls, spans, child processes, thread states, a CPU's threads): the
 *   longest HM_MAX_SPANS of them are kept whole. When more arrive, the shorter half is dropped (the
 *   shortest first; a hash of the start time breaks ties) and later intervals under that length are
 *   dropped on arrival: what is kept is everything long enough to be seen without zooming in far;
 * - points (instants, stack samples): HM_MAX_POINTS at most, a uniform sample (by a hash of time and
 *   arrival) when there are more;
 * - per lane, a summary in HM_BUCKETS columns over the whole trace of everything, kept or dropped:
 *   events per column, time per thread-state category, region coverage per nesting level (the first
 *   HM_DEPTHS), and what was dropped there; the writer (html_write.c) turns it into coarser levels.
 * Strings (names, fields as JSON) are interned up to HM_STR_BYTES; past that, fields are dropped and
 * names become "(name not kept)". A region's fields are held with it while it is open and interned at
 * its end only if it is kept then; a mark's only if it is kept when it arrives. */
#ifndef LTT_TOOLS_EXPORT_HTML_MODEL_H
#define LTT_TOOLS_EXPORT_HTML_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "common/hashmap.h"

#define HM_MAX_SPANS (2u << 20)		/* intervals kept whole */
#define HM_MAX_POINTS (1u << 20)	/* instants and samples kept */
#define HM_BUCKETS 4096			/* summary columns over the trace, finest level */
#define HM_DEPTHS 4			/* nesting levels summarized (deeper ones: kept intervals only) */
#define HM_NCAT 7			/* thread-state categories (html_model.c hm_cat) */
#define HM_STR_BYTES (24u << 20)
#define HM_MAX_LANES 65536
#define HM_STACK 256			/* open regions followed per lane */

enum hm_kind {				/* the JavaScript viewer's numbers (tools/export/html/data.js) */
	HM_REGION, HM_CALL, HM_SPAN, HM_CHILD,	/* slices, by depth */
	HM_STATE,			/* a thread state: name = enum sched_state, args = system call name */
	HM_ONCPU,			/* a thread on a CPU lane: name = the thread's name, args = its lane */
	HM_INSTANT, HM_SAMPLE,		/* points: name = event name / stack node */
	HM_COUNTER,			/* a point with a value: name = counter name, args = value as text */
};

enum hm_lane_kind { HM_LANE_THREAD, HM_LANE_CPU, HM_LANE_SPAN, HM_LANE_FILE };

struct hm_item {
	uint64_t start, dur;		/* ns since the trace's start */
	uint64_t key;			/* the order of dropping: lower goes first */
	uint32_t lane, name, args;	/* args: a string (0: none) */
	uint16_t depth;
	uint8_t kind;
};

struct hm_open {			/* a region begun and not ended */
	uint64_t start;
	uint32_t name;
	char *fields;			/* the begin's fields as JSON, interned at the end if the region is kept */
	uint32_t flen, fcap;
	uint8_t kind;
};

struct hm_sum {				/* a lane's summary, HM_BUCKETS columns; each part NULL until used */
	uint32_t *count;		/* events */
	float *st;			/* [cat * HM_BUCKETS + c]: ns in each state category */
	float *cov;			/* [depth * HM_BUCKETS + c]: ns of slices at each nesting level */
	uint32_t *dropped;		/* intervals and points not kept */
};

struct hm_lane {
	enum hm_lane_kind kind;
	unsigned trace;
	uint32_t tid;			/* threads: tid; CPU lanes: the CPU; spans/files: a made-up id */
	uint32_t pid;			/* grouping: the process (threads), else the trace's */
	uint32_t proc;			/* index in procs, set by hm_group */
	char name[64];
	const void *tl;			/* the timeline's lane (struct tl_lane), if any */
	struct hm_open *open;		/* HM_STACK, allocated at the first region */
	uint32_t depth;			/* regions open (may exceed HM_STACK: the deeper are not followed) */
	uint64_t events, dropped;
	struct hm_sum sum;
	/* CPU lanes: the thread on CPU, merged while it stays */
	uint32_t cur_lane;
	uint64_t cur_start, cur_end;
	int cur;
};

struct hm_proc {
	unsigned trace;
	uint32_t pid;
	char name[64];
	uint32_t first_lane;		/* lanes of a process are contiguous after hm_group */
};

struct hm_str {
	uint32_t off, len;
};

LTT_MAP_DEFINE(hm_strmap, uint64_t, uint32_t, ltt_hash_u64, ltt_eq_u64)
LTT_MAP_DEFINE(hm_lanemap, uint64_t, uint32_t, ltt_hash_u64, ltt_eq_u64)

struct hm {
	uint64_t span_ns;		/* the trace's length: summary columns are span_ns / HM_BUCKETS */
	double col_ns;
	struct hm_lane *lanes;
	size_t nlanes, caplanes;
	struct hm_proc *procs;
	size_t nprocs, capprocs;
	struct hm_lanemap lanemap;	/* (kind, trace, id) -> lane */
	struct hm_item *spans, *points;
	size_t nspans, capspans, npoints, cappoints;
	uint64_t span_cut, point_cut;	/* keys below are dropped */
	uint64_t spans_dropped, points_dropped, spans_total, points_total;
	uint64_t dropped_max_ns;	/* the longest interval dropped */
	char *strbuf;			/* interned strings, NUL-separated */
	size_t strlen_, strcap;
	struct hm_str *strs;
	size_t nstrs, capstrs;
	struct hm_strmap strmap;	/* hash -> string index (collisions: chained by probing the next hash) */
	uint64_t points_seq;
	size_t max_spans, max_points;	/* HM_MAX_*, or LTT_HTML_MAX_SPANS / LTT_HTML_MAX_POINTS (tests) */
};

int hm_init(struct hm *m, uint64_t span_ns);
void hm_free(struct hm *m);
/* The index of string s (interned), or 0 ("") when the table is full and droppable, else 1. */
uint32_t hm_intern(struct hm *m, const char *s, size_t n, int droppable);
const char *hm_string(const struct hm *m, uint32_t i, size_t *len);
/* The lane of (kind, trace, id), created when new (*created = 1): its index, or -ENOMEM. */
long hm_lane(struct hm *m, enum hm_lane_kind kind, unsigned trace, uint32_t id, int *created);
/* Adds an interval [start, start + dur) or a point (dur 0, kinds HM_INSTANT...): 0 or -ENOMEM. */
int hm_add(struct hm *m, const struct hm_item *it);
/* Whether the next point added will be kept for now (its fields are worth interning). */
int hm_point_kept(const struct hm *m);
/* Whether interval it would be kept for now (its fields are worth interning). */
int hm_span_kept(const struct hm *m, const struct hm_item *it);
/* Counts an event on a lane at time t (relative ns) in its summary: 0 or -ENOMEM. */
int hm_count(struct hm *m, uint32_t lane, uint64_t t);
/* The state category of a sched_state (on CPU, interrupt, runnable, sleeping, blocked, other, not
 * recorded). */
unsigned hm_cat(unsigned sched_state);
/* Orders the lanes by process (processes by trace and pid, their threads by tid, then the CPU, span
 * and file lanes) and renumbers every item; sorts the items by (lane, start). Call once, at the end. */
int hm_finish(struct hm *m);

#endif
