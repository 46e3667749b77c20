/* SPDX-License-Identifier: MIT */
/* libltt-reader internals: the trace, tracefile and reader objects shared by the reader sources. */
#ifndef LTT_READER_INTERNAL_H
#define LTT_READER_INTERNAL_H

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

#include <ltt/reader.h>

#include "common/format.h"

/* The public ids and causes (ltt/reader.h) are the format's (common/format.h). */
#define RD_SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(RD_SAME(LTT_ID_FACILITY_LOAD, LTT_B_FACILITY_LOAD) &&
		       RD_SAME(LTT_ID_EVENTS_LOST, LTT_B_EVENTS_LOST) &&
		       RD_SAME(LTT_ID_BLOCKS_LOST, LTT_B_BLOCKS_LOST) &&
		       RD_SAME(LTT_ID_BLOCK_START, LTT_B_BLOCK_START) &&
		       RD_SAME(LTT_ID_BLOCK_END, LTT_B_BLOCK_END) &&
		       RD_SAME(LTT_ID_TIME_HEARTBEAT, LTT_B_HEARTBEAT),
	       "ltt/reader.h: builtin ids");
_Static_assert(RD_SAME(LTT_LOST_BUFFER_FULL, LTT_LOST_CAUSE_BUFFER_FULL) &&
		       RD_SAME(LTT_LOST_TOO_BIG, LTT_LOST_CAUSE_TOO_BIG) &&
		       RD_SAME(LTT_LOST_NESTED, LTT_LOST_CAUSE_NESTED) &&
		       RD_SAME(LTT_LOST_TORN, LTT_LOST_CAUSE_TORN) &&
		       RD_SAME(LTT_LOST_INTERNAL, LTT_LOST_CAUSE_INTERNAL) &&
		       RD_SAME(LTT_LOST_KERNEL, LTT_LOST_CAUSE_KERNEL) &&
		       RD_SAME(LTT_LOST_UNKNOWN, LTT_LOST_CAUSE_COUNT),
	       "ltt/reader.h: lost causes");
#undef RD_SAME

/* Loss counts (events_lost, blocks_lost records) saturate instead of wrapping: 2^63 + 2^63 is not "0
 * lost". A record above LTT_MAX_LOST_COUNT is more than the recorder can write (that many drops at
 * one per nanosecond take 2.3 years): reported as damaged, and still counted (saturated). */
#define LTT_MAX_LOST_COUNT (1ull << 56)
static inline uint64_t ltt_sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define EV_HEADER      LTT_FMT_HEADER	   /* uint16 id + uint32 time */
#define BLOCK_TS_EVENT LTT_BLOCK_MARK_SIZE /* block_start / block_end: header + 20-byte payload */

/* What the reader does with an id beyond sizing it (doc/format.md sections 6 and 7). */
enum ev_kind {
	EVK_NONE = 0,		/* unknown id: decoding of the block stops */
	EVK_NORMAL,
	EVK_FACILITY_LOAD,
	EVK_EVENTS_LOST,
	EVK_BLOCKS_LOST,
	EVK_BLOCK_START,
	EVK_BLOCK_END,
	EVK_HEARTBEAT,
};

/* The decode plan of one id: enough to size and classify an event without touching the model. */
struct ev_plan {
	uint32_t fixed;			/* payload bytes, or LTT_SIZE_VARIABLE: ask the model */
	uint8_t kind;			/* enum ev_kind */
	uint8_t hidden;			/* not yielded */
	struct ltt_event_type *type;
};

/* One event of the block being read: what the first pass over a block finds. */
struct blk_event {
	uint32_t off;		/* in the block */
	uint32_t size;		/* payload bytes */
	uint64_t cycles;
	uint64_t ns;
	uint16_t id;
	uint8_t anchor;		/* block_start, heartbeat (not in 2004 traces), block_end */
};

struct trace;

struct tracefile {
	struct ltt_tracefile_info info;	/* public part; first member */
	struct trace *trace;
	char *path;			/* full path */
	int fd;
	uint64_t rank;			/* merge tie order within the whole set */
	int skip;
	int done;
	/* following (LTT_READ_FOLLOW, follow.c) */
	int entered;			/* made ready once: no more skip */
	int gone;			/* removed by the recorder without a block (not listed) */
	int inheap;
	int stalled;			/* stopped before a block with an id not known yet: retried */
	int may_stall;
	uint64_t stall_since;		/* monotonic ns of the first stall on that block */
	uint64_t mute_below;		/* problems at offsets below it were reported by a stalled pass */
	uint64_t seen_ns;		/* monotonic ns when the block in blk was first on disk */
	struct rd_arrival { uint64_t upto, ns; } *arr;	/* blocks below upto were on disk at ns */
	size_t narr, arr_head, arr_cap;
	unsigned char *blk;		/* one block, up to the end of its block_end (tracefile.c) */
	size_t blk_cap;			/* bytes allocated at blk */
	uint64_t next_block;		/* index of the next block to read */
	uint64_t last_block;		/* stop after this block (time range), UINT64_MAX: none */
	uint64_t blk_off;		/* file offset of the block in blk */
	struct blk_event *ev;		/* events of the current block */
	size_t nev, cap, pos;
	uint64_t prev_cycles;		/* full count of the previous event (section 5) */
	int have_prev;
	uint64_t last_ns;		/* times never decrease within a tracefile */
	uint64_t expect_id;		/* next block_id expected */
	int have_expect;
	/* merge state */
	uint64_t key_ns;		/* time of ev[pos] */
	uint64_t dd_supplied;		/* dedupe.c: blocks other snapshots supply, not lost */
	struct tracefile *dd_newest;	/* dedupe.c: the newest snapshot's copy, when it lacks a block here */
	int in_range;			/* range.c: a block range's private copy; problems counted, not
					 * reported */
	uint64_t range_problems;
};

struct trace {
	struct ltt_trace_info info;	/* public part; first member */
	struct ltt_reader *reader;
	char *path;
	char *dir;
	char *archive_dir;		/* private unpacked copy, removed at close */
	/* system.xml attributes */
	size_t nattrs, cap_names, cap_values;
	char **attr_names, **attr_values;
	int v1;				/* 2004 dialect: trailer = block_size - E, microseconds */
	int v2;				/* minor 3..9: trailer = unused bytes after block_end */
	/* facilities */
	struct ltt_eventdefs **defs;	/* one per eventdefs/NAME.xml parsed */
	size_t ndefs, capdefs;
	struct ltt_eventdefs *builtin_defs;
	struct ltt_event_type **types;	/* all types, owned */
	size_t ntypes, captypes;
	struct ev_plan *plan;		/* indexed by id, nplan entries (capplan allocated, zeroed) */
	size_t nplan, capplan;
	struct tracefile **tf;
	size_t ntf, captf;
	struct ltt_bookmark *bookmarks;
	size_t nbookmarks;
	/* following (LTT_READ_FOLLOW, follow.c) */
	int final;			/* the files will not grow any more */
	uint64_t fl_blocks;		/* blocks of control/facilities whose facility_loads were placed */
	uint64_t fl_wait_since;		/* monotonic ns since a facility_load waits for its eventdefs */
	char **defnames;		/* eventdefs/ files parsed (or failed): not parsed again */
	size_t ndefnames, capdefnames;
	unsigned ctl_seq;		/* control tracefiles found, for their merge rank */
	const struct trace *dd_rec;	/* dedupe.c: first snapshot of its recording in the set, or NULL */
	unsigned long dd_snap;		/* its ltt_snapshot */
};

struct ltt_reader {
	struct ltt_reader_options opt;
	struct trace **traces;
	size_t ntraces;
	uint64_t nproblems;
	int quiet;			/* problems are neither counted nor reported */
	uint64_t from_ns, to_ns;
	int started;
	int files_closed;		/* ltt_reader_close_files: ltt_reader_next fails */
	/* merge heap of tracefiles with a pending event, keyed by (key_ns, rank) */
	struct tracefile **heap;
	size_t nheap;
	struct tracefile **all_tf;
	size_t nall_tf;
	size_t seq_tf;			/* unordered mode: the tracefile being read */
	struct tracefile *last;		/* holds the event yielded last; advanced at the next call */
	struct rd_dedupe *dd;		/* dedupe.c: blocks of snapshots of one recording */
	int dd_built;
	/* following (LTT_READ_FOLLOW, follow.c) */
	int follow;
	int dirty;			/* refreshed: tracefiles without an event may have one now */
	size_t cap_tf;			/* entries allocated in all_tf and heap */
	size_t cap_traces;
	uint64_t hold_ns;
	uint64_t wait_ns;		/* the event at the top of the merge is held this long still */
	const char *mute_name;		/* problems of this tracefile below mute_below are not reported */
	uint64_t mute_below;
	/* real time - trace time, at most (follow.c clock_note): the least delay seen between a block's
	 * block_end and the refresh that found it, over the last two windows of 15 s */
	int64_t skew_cur, skew_prev;
	uint64_t skew_since;		/* monotonic ns the current window began */
	int have_cur, have_prev;
	struct tracefile **live;	/* tracefiles not done (rebuilt when dirty) */
	size_t nlive, cap_live;
	int finished;			/* ltt_reader_finish(r, -1, ...): no trace will be added */
};

/* dedupe.c: 1 if block bid of tf is read from another snapshot of its recording (or, bid UINT32_MAX,
 * tf's summary block is not the newest snapshot's); the blocks_lost of a summary less the blocks
 * other snapshots supply; the table freed at close. */
void rd_dedupe_build(struct ltt_reader *r);
int rd_dedupe_skip(struct tracefile *tf, uint32_t bid);
uint32_t rd_dedupe_lost(struct tracefile *tf, uint32_t blocks);
void rd_dedupe_read(struct tracefile *tf, uint64_t n);
void rd_dedupe_free(struct ltt_reader *r);

/* Errors that say nothing about the trace but about the process (out of file descriptors): they fail
 * ltt_reader_open with the file and the real errno instead of becoming problems of the trace. */
static inline int rd_resource_error(int err)
{
	return err == -EMFILE || err == -ENFILE;
}

/* dir_names.c: the entries of d not starting with '.' and ending with suffix (NULL: any), sorted by
 * name, in *names (freed with rd_dir_names_free, also after an error); 0 or -ENOMEM. */
int rd_dir_names(DIR *d, const char *suffix, char ***names, size_t *n);
void rd_dir_names_free(char **names, size_t n);

/* reader.c: the trace set and the merge, shared with follow.c */
int rd_trace_open(struct ltt_reader *r, const char *path, const char *name, unsigned index, char *err,
		  size_t errlen);
void rd_trace_free(struct trace *t);
int rd_tf_ready(struct ltt_reader *r, struct tracefile *tf);
void rd_heap_sift_down(struct tracefile **h, size_t n, size_t i);
void rd_heap_push(struct ltt_reader *r, struct tracefile *tf);
/* Removes the merge heap's top (r->nheap > 0). */
void rd_heap_pop(struct ltt_reader *r);

/* follow.c */
int rd_follow_next(struct ltt_reader *r, struct ltt_event *ev);
/* A tracefile added to the set while following: its merge rank and its place in all_tf. */
int rd_follow_add_tf(struct ltt_reader *r, struct tracefile *tf);

/* problem.c */
void rd_problem(struct ltt_reader *r, const struct trace *t, const char *file, int64_t offset, int line,
		const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void rd_seterr(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* system.c: parses TRACE/info/system.xml into t's attributes and info. */
int rd_system_load(struct trace *t, char *err, size_t errlen);
/* Frees t's attributes (rd_system_load). */
void rd_system_free(struct trace *t);

/* bookmarks.c: info/bookmarks.xml, when present (problems reported, never fatal but -ENOMEM). */
int rd_bookmarks_load(struct trace *t);
void rd_bookmarks_free(struct trace *t);

/* facilities.c: loads eventdefs/, builtin, control/facilities; builds the id plan. */
int rd_facilities_load(struct trace *t, char *err, size_t errlen);
/* Following: places the facilities loaded by blocks of control/facilities added since (parsing the
 * eventdefs/ files added since); 1 when event types were added. */
int rd_facilities_follow(struct trace *t);
void rd_facilities_free(struct trace *t);

/* tracefile.c */
int rd_tracefiles_open(struct trace *t, char *err, size_t errlen);
/* Following: adds the tracefiles of control/ and cpu/ not known yet; 1 when some were added. */
int rd_tracefiles_rescan(struct trace *t);
/* Following: the file's whole blocks now (a trailing partial block is being written); 1 when more. */
int rd_tracefile_grow(struct tracefile *tf, uint64_t now_ns);
/* Following: tf's merge rank, in the order of a trace set opened at once. */
uint64_t rd_tracefile_merge_key(struct tracefile *tf);
/* The trailing partial block or short file problems of a tracefile, as opening a trace reports them. */
void rd_tracefile_size_problems(struct tracefile *tf);
void rd_tracefile_close(struct tracefile *tf);
/* Makes tf->ev[tf->pos] the next event (reading blocks as needed): 1, or 0 at the end. */
int rd_tracefile_fill(struct tracefile *tf);
/* Decodes block k into tf->ev (tf->nev events, timed, hidden ones dropped), updating tf's state and
 * counters; problems reported (or counted, in a range). */
void rd_tracefile_scan(struct tracefile *tf, uint64_t k);
/* Positions tf at the first block that may hold events at or after from_ns. */
void rd_tracefile_seek(struct tracefile *tf, uint64_t from_ns);
/* Time of the block_start (first=1) or block_end of block k; -1 when damaged. */
int rd_block_anchor_ns(struct tracefile *tf, uint64_t k, int first, uint64_t *ns);
/* The same with the anchor's cycle count and block_id (as written: 2004 traces' are not read so). */
struct rd_anchor {
	uint64_t ns, cycles;
	uint32_t block_id;
};
int rd_block_anchor(struct tracefile *tf, uint64_t k, int first, struct rd_anchor *a);

/* Byte-order aware reads from the trace (common/format.h). */
#define rd_u16 ltt_load16
#define rd_u32 ltt_load32
#define rd_u64 ltt_load64

/* The public view of tf->ev[tf->pos]. */
static inline void rd_fill_event(struct tracefile *tf, struct ltt_event *ev)
{
	const struct blk_event *e = &tf->ev[tf->pos];
	const struct trace *t = tf->trace;

	ev->type = t->plan[e->id].type;
	ev->trace = &t->info;
	ev->tracefile = &tf->info;
	ev->cycles = e->cycles;
	ev->time_ns = e->ns;
	ev->offset = tf->blk_off + e->off;
	ev->payload = tf->blk + e->off + EV_HEADER;
	ev->size = e->size;
	ev->id = e->id;
	ev->big_endian = (uint8_t)t->info.big_endian;
	ev->arch = (uint8_t)t->info.arch_size;
	ev->v1_time = (uint8_t)t->v1;
}

#endif
