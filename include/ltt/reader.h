/* SPDX-License-Identifier: MIT */
/* libltt-reader: offline decoding of ltt traces (doc/format.md, doc/reader.md).
 *
 * A reader opens one trace directory or a set of them (a trace set), loads info/system.xml,
 * eventdefs/NAME.xml and control/facilities, and iterates the events of every tracefile merged in time
 * order (real time in nanoseconds, ties by tracefile, then file position). Events are decoded
 * lazily: the iterator only sizes each event; fields are read on demand through struct ltt_value,
 * which never allocates. Memory does not grow with trace size: tracefiles are read block by block.
 *
 * Functions return 0 (or a count) on success and a negative errno value on failure. Problems found in
 * the trace (damaged blocks, unknown ids, checksum mismatches, ...) never stop the reader: each is
 * passed to the problem callback with the file and offset at fault, and reading goes on with the next
 * block. Nothing here prints.
 */
#ifndef LTT_READER_H
#define LTT_READER_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/eventdefs.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

/* Payload types are the facility model's (ltt/eventdefs.h): struct ltt_type_desc, sizes resolved by
 * the trace's arch_size (ltt_size_bytes, fixed_size[arch]). */

#define LTT_SIZE_VARIABLE UINT32_MAX	/* fixed_size of an event whose size depends on its data */

/* ---- event types ------------------------------------------------------------------------------ */

struct ltt_event_type {
	const char *facility;		/* "builtin" for ids 0-19 of the current dialect */
	const char *name;
	uint16_t id;			/* base code + index */
	uint16_t index;			/* index of the event in its facility */
	uint32_t checksum;		/* of the facility (0 for builtin) */
	const struct ltt_facility_desc *fac;	/* the model (the reader's own for builtin) */
	const struct ltt_event_desc *desc;
	const struct ltt_type_desc *body;	/* NULL for an event without payload */
	uint32_t fixed_size;		/* payload bytes when constant, else LTT_SIZE_VARIABLE */
	unsigned builtin;		/* 1 for facility_load, events_lost, blocks_lost, block_start,
					 * block_end, time_heartbeat (also in 2004 traces, where they sit
					 * inside the core facility) */
	/* The application's slot for this type: *user is free for it (a per-type decode plan, a
	 * counter), NULL at open, never read by the reader. The type is const to the application, its
	 * slot is not: `*ev->type->user = plan` needs no cast. One slot per type of each reader. */
	void **user;
};

/* Builtin ids (doc/format.md section 6). */
enum {
	LTT_ID_FACILITY_LOAD = 0,
	LTT_ID_EVENTS_LOST = 1,
	LTT_ID_BLOCKS_LOST = 2,
	LTT_ID_BLOCK_START = 17,
	LTT_ID_BLOCK_END = 18,
	LTT_ID_TIME_HEARTBEAT = 19,
};

/* events_lost causes (doc/format.md section 7); LTT_LOST_UNKNOWN counts causes beyond them. */
enum ltt_lost_cause {
	LTT_LOST_BUFFER_FULL,
	LTT_LOST_TOO_BIG,
	LTT_LOST_NESTED,
	LTT_LOST_TORN,
	LTT_LOST_INTERNAL,
	LTT_LOST_KERNEL,	/* kernel/N: perf's ring overflowed (doc/format.md section 13) */
	LTT_LOST_UNKNOWN,
	LTT_LOST_NCAUSES
};
const char *ltt_lost_cause_name(unsigned cause);

/* Parses "SECONDS[.FRACTION]" (decimal, up to 9 fraction digits kept) into nanoseconds.
 * Returns 0, or -EINVAL for anything else or a value past 2^64 ns. */
int ltt_parse_seconds(const char *s, uint64_t *ns);

/* ---- traces and tracefiles ------------------------------------------------------------------- */

struct ltt_tracefile_info {
	const char *name;		/* "cpu/0", "control/facilities", ... */
	int cpu;			/* N for cpu/N, -1 for control files */
	unsigned trace_index;
	uint64_t file_size;
	uint64_t nblocks;		/* whole blocks in the file */
	/* Filled in as the reader goes (complete once the whole tracefile has been read): */
	uint64_t blocks_read;		/* blocks decoded, summary blocks included */
	uint64_t blocks_damaged;	/* skipped entirely (bad trailer, no block_start/block_end) */
	uint64_t blocks_cut;		/* decoding stopped early (unknown id, event crossing block_end) */
	uint64_t records;		/* records decoded: its events and its builtin records */
	uint64_t events;		/* events decoded: records of the trace's facilities, core's included;
					 * builtin records (block_start, block_end, time_heartbeat,
					 * facility_load, events_lost, blocks_lost) are not events. What every
					 * ltt command counts as "events" (struct ltt_counts below) */
	uint64_t heartbeats;
	uint64_t summary_blocks;
	uint64_t events_lost[LTT_LOST_NCAUSES];	/* sums of events_lost counts by cause */
	uint64_t blocks_lost;		/* sums of blocks_lost records */
	uint64_t blocks_lost_events;
	uint64_t gap_blocks;		/* block_id jumps not explained by a summary block */
	uint64_t gaps;			/* how many such jumps */
	uint64_t first_cycles, last_cycles;	/* of the records decoded (valid when records > 0) */
	uint64_t first_ns, last_ns;
	uint64_t skews;			/* backward steps of at most LTT_SKEW_TOLERANCE_CYCLES between
					 * consecutive events (clock skew, not a problem) */
};

/* The counts of a trace, one definition for every command that prints them (ltt stats, ltt check,
 * the manifest of ltt pack; doc/format.md section 7, "Counts"), complete once every tracefile has been
 * read through: */
struct ltt_counts {
	uint64_t events;		/* the tracefiles' events (builtin records not counted): the events
					 * ltt dump prints without --all */
	uint64_t builtin_records;	/* the tracefiles' builtin records: records - events */
	uint64_t lost;			/* events dropped when recording: the events_lost counts, every
					 * cause (the events are not in the trace) */
	uint64_t overwritten;		/* events of the blocks that never reached the file: the blocks_lost
					 * records' events (flight mode overwrote them, or they could not be
					 * written) */
	uint64_t overwritten_blocks;	/* those blocks */
};

/* Adds the counts of one tracefile to c (zero c first). */
void ltt_counts_add(struct ltt_counts *c, const struct ltt_tracefile_info *tf);

/* Largest backward step of the cycle count between consecutive events of a tracefile taken as clock
 * skew between threads sharing it (doc/format.md section 5) rather than reported as "time goes back". */
#define LTT_SKEW_TOLERANCE_CYCLES 65536u

/* A user annotation of info/bookmarks.xml (doc/format.md section 11). */
struct ltt_bookmark {
	const char *name;		/* NULL when absent */
	const char *text;		/* the element's text ("" when none) */
	int cpu;			/* -1 when absent */
	unsigned has_time;		/* time=, start_time=, end_time= given (ns since the Epoch) */
	unsigned has_cycles;		/* cycle=, start_cycle=, end_cycle= given */
	uint64_t start_ns, end_ns;
	uint64_t start_cycles, end_cycles;
};

struct ltt_trace_info {
	const char *path;		/* as given to the reader (an archive's path for packed traces) */
	const char *dir;		/* the directory read (a private temporary one for archives) */
	unsigned index;			/* in the trace set */
	unsigned minor_version;		/* ltt_minor_version: 10 today, <= 2 for the 2004 dialect */
	unsigned big_endian;
	enum ltt_arch_size arch_size;
	uint32_t block_size;
	unsigned ncpus;			/* the cpu attribute */
	uint64_t cycles_per_second;	/* 0 when absent */
	unsigned ntracefiles;
	const struct ltt_tracefile_info *const *tracefiles;	/* in merge-tie order (section 5) */
	unsigned nevent_types;
	const struct ltt_event_type *const *event_types;	/* builtin first, then by base code */
	unsigned nbookmarks;
	const struct ltt_bookmark *bookmarks;	/* from info/bookmarks.xml, in file order */
};

/* The value of an attribute of info/system.xml, or NULL. */
const char *ltt_trace_attr(const struct ltt_trace_info *t, const char *name);

/* info/system.xml alone, without opening the trace: what a tool needs of a trace directory that is
 * being recorded, or of a flight recorder's directory with no tracefile yet (ltt_pid, ltt_mode,
 * node_name, ...). The same parser as ltt_reader_open's (libxml2, and the 2004 dialect's bare
 * values); nothing is checked but that the file is one <system> element. */
struct ltt_system;
/* Reads DIR/info/system.xml into *out (freed with ltt_system_free): 0; -ENOENT when there is none;
 * -EBADMSG when it is not a regular file holding one <system> element; -ENOMEM; another negative
 * errno when it cannot be read. On failure err (when not NULL) receives one line naming the file. */
int ltt_system_read(const char *dir, struct ltt_system **out, char *err, size_t errlen);
/* The value of attribute name (XML entities decoded), or NULL. */
const char *ltt_system_attr(const struct ltt_system *s, const char *name);
void ltt_system_free(struct ltt_system *s);
/* The event type with that id in that trace, or NULL. */
const struct ltt_event_type *ltt_trace_event_type(const struct ltt_trace_info *t, unsigned id);
/* The counts of the whole trace: every tracefile's (ltt_counts_add) summed into *c. */
void ltt_trace_counts(const struct ltt_trace_info *t, struct ltt_counts *c);

/* ---- problems ---------------------------------------------------------------------------------- */

struct ltt_problem {
	unsigned trace_index;
	const char *trace;		/* the trace's path as given */
	const char *file;		/* relative to the trace: "cpu/0", "info/system.xml", ... (or NULL) */
	int64_t offset;			/* byte offset in file, -1 when none */
	int line;			/* XML line, 0 when none */
	const char *what;		/* one line, no file or offset in it */
};

/* Formats "TRACE/FILE: offset N: what" (or "line N", or neither) into buf; returns buf. */
char *ltt_problem_format(const struct ltt_problem *p, char *buf, size_t len);

/* ---- opening ----------------------------------------------------------------------------------- */

struct ltt_reader;

#define LTT_READ_BUILTIN 1u	/* also yield builtin events (block_start, facility_load, ...) */
#define LTT_READ_UNORDERED 2u	/* no merge: every event of one tracefile, then the next (faster;
				 * for statistics) */
#define LTT_READ_CHECK 4u	/* also check what costs time: zero fill after block_end */
#define LTT_READ_FOLLOW 8u	/* the traces may still be written: see "following" below */

struct ltt_reader_options {
	unsigned flags;			/* LTT_READ_* */
	/* Called for every problem, in the order found; may be NULL. */
	void (*problem)(void *arg, const struct ltt_problem *p);
	void *problem_arg;
};

/* Opens a trace set: paths are trace directories (or packed .tar.gz traces). On failure returns a
 * negative errno and, when err is not NULL, one line saying which file and what. Problems that do not
 * prevent reading (a facility_load without eventdefs, a damaged block) go to the problem callback. */
int ltt_reader_open(struct ltt_reader **out, const char *const *paths, unsigned npaths,
		    const struct ltt_reader_options *opt, char *err, size_t errlen);
void ltt_reader_close(struct ltt_reader *r);
/* Closes the descriptors of r's tracefiles, before any ltt_reader_next: the traces' descriptions stay
 * (ltt_reader_trace: tracefiles, event types, attributes), nothing is read any more (ltt_reader_next
 * returns -EBADF). For a catalog of the set kept beside other readers of it (ltt sql's scans), which
 * then need no more descriptors than one reader. */
void ltt_reader_close_files(struct ltt_reader *r);

unsigned ltt_reader_ntraces(const struct ltt_reader *r);
const struct ltt_trace_info *ltt_reader_trace(const struct ltt_reader *r, unsigned i);
/* Number of problems reported so far. */
uint64_t ltt_reader_problems(const struct ltt_reader *r);

/* ---- captures: what a path holds (doc/reader.md "Captures") ------------------------------------- */

/* A path given to a reader command is a trace, the top directory of a flight-recorder trace (its
 * traces are snapshot-NNNN/, the newest read by default), or a chunked capture (its traces are
 * chunk-NNNN/, read in order as one). ltt_capture_expand() says which and lists the traces to open. */
enum ltt_capture_kind {
	LTT_CAPTURE_TRACE,		/* the path itself (a trace directory or a packed trace) */
	LTT_CAPTURE_SNAPSHOTS,		/* snapshot-NNNN/ directories */
	LTT_CAPTURE_CHUNKS,		/* chunk-NNNN/ directories */
	LTT_CAPTURE_NONE,		/* (internal) */
};

#define LTT_CAPTURE_ALL_SNAPSHOTS 1u	/* every complete snapshot, oldest first (default: the newest) */
#define LTT_CAPTURE_PARTIAL 2u		/* also chunk-NNNN.part (being written; for following a capture) */

struct ltt_capture {
	enum ltt_capture_kind kind;
	char *path;			/* as given */
	unsigned ntraces;
	char **traces;			/* the traces to read, in order: "PATH/chunk-0004", ... */
	unsigned nfound;		/* complete snapshots or chunks present */
	unsigned npartial;
	char **partial;			/* the NNNN.part directories present (incomplete snapshots; chunks being
					 * written or left by a crash), in order */
	unsigned nremoved;		/* chunks removed by the size bound (listed in PATH/chunks-removed) */
	uint64_t first_removed, last_removed, removed_bytes;
	uint64_t first_missing, nmissing;	/* chunk numbers absent without being listed as removed */
};

/* Expands path (flags: LTT_CAPTURE_*). Returns 0 and *out (free with ltt_capture_free), or a negative
 * errno with one line in err: a flight-recorder trace without a complete snapshot, a chunked capture
 * without a complete chunk, a directory holding neither tracefiles nor snapshots nor chunks. */
int ltt_capture_expand(const char *path, unsigned flags, struct ltt_capture **out, char *err, size_t errlen);
void ltt_capture_free(struct ltt_capture *l);

/* ---- selecting what to read (before the first ltt_reader_next) ------------------------------- */

/* Skips (1) or reads (0) a tracefile entirely. All are read by default. */
int ltt_reader_skip_tracefile(struct ltt_reader *r, const struct ltt_tracefile_info *tf, int skip);
/* Hides (1) or shows (0) the events of one type: hidden events are sized, never yielded.
 * Builtin events are hidden unless LTT_READ_BUILTIN. */
int ltt_reader_hide_event_type(struct ltt_reader *r, const struct ltt_event_type *type, int hide);
/* Yields only events with from_ns <= time <= to_ns; tracefiles are entered by binary search on their
 * blocks' start times, and reading stops past to_ns. */
int ltt_reader_set_time_range(struct ltt_reader *r, uint64_t from_ns, uint64_t to_ns);
/* Time of the earliest and latest anchor of the trace set (block_start / block_end), read from the
 * first and last blocks only. */
int ltt_reader_time_bounds(struct ltt_reader *r, uint64_t *first_ns, uint64_t *last_ns);

/* ---- iterating ---------------------------------------------------------------------------------- */

struct ltt_event {
	const struct ltt_event_type *type;
	const struct ltt_trace_info *trace;
	const struct ltt_tracefile_info *tracefile;
	uint64_t cycles;		/* full 64-bit cycle count */
	uint64_t time_ns;		/* real time, ns since the Epoch */
	uint64_t offset;		/* of the event header in its tracefile */
	const unsigned char *payload;	/* encoded payload (trace byte order) */
	uint32_t size;			/* payload bytes */
	uint16_t id;
	uint8_t big_endian;		/* the trace's byte order */
	uint8_t arch;			/* the trace's enum ltt_arch_size */
	uint8_t v1_time;		/* 2004 dialect: timespec fields hold microseconds */
};

/* Fills ev with the next event in merge order: returns 1, 0 at the end, or a negative errno on an I/O
 * error (reported to the problem callback too); -EAGAIN with LTT_READ_FOLLOW: nothing can be yielded
 * now (see "following" below). ev and its payload stay valid until the next call. */
int ltt_reader_next(struct ltt_reader *r, struct ltt_event *ev);

/* ---- following a trace being written (doc/reader.md "Following") ------------------------------ */

/* With LTT_READ_FOLLOW, a trace is read while the recorder writes it. Only whole blocks are read
 * (the recorder writes a block's head before its trailer page, so a block inside the file size is
 * complete; a trailing partial block is being written, not a problem), tracefiles and facilities that
 * appear later are taken in at each ltt_reader_refresh(), and ltt_reader_next() returns -EAGAIN when
 * no event can be yielded now: every tracefile is read up to what is on disk, or the next event in time
 * order is held back because some tracefile without data past its time may still get an earlier event
 * (the recorder seals a quiet ring's block within its flush period): an event is held at most
 * hold_ns (ltt_reader_follow_hold) after its block was first seen on disk. Then refresh, after a pause.
 * An event yielded after a later one (it reached the disk later than hold_ns) is still yielded.
 * ltt_reader_open() may be given no path; ltt_reader_next() returns 0 (the end) only once
 * ltt_reader_finish(r, -1, NULL) was called and everything is read. In this mode
 * ltt_reader_hide_event_type() may be called at any time (it applies to blocks not read yet; call it
 * for the types a refresh adds), ltt_reader_skip_tracefile() for a tracefile not read yet, and
 * ltt_reader_set_time_range() does not seek. */

/* Looks at the files again: new whole blocks, new tracefiles, new facilities (event types). Returns 1
 * when something was added, 0 when nothing, or a negative errno. */
int ltt_reader_refresh(struct ltt_reader *r);
/* Adds a trace (a chunk begun since, doc/format.md section 1) after the others; name: the path
 * reported for it (ltt_trace_info.path, problems; e.g. its name once sealed), NULL for path. On
 * failure nothing is added and err says why. */
int ltt_reader_add_trace(struct ltt_reader *r, const char *path, const char *name, char *err, size_t errlen);
/* Trace i (or every trace when i < 0; then no trace will be added either) will not grow any more:
 * looks at its files a last time (in dir when given: the trace was renamed, e.g. chunk-NNNN.part
 * sealed as chunk-NNNN) and reads them to their end, reporting what remains as an offline reader
 * does (a trailing partial block, an unknown event id). */
int ltt_reader_finish(struct ltt_reader *r, int i, const char *dir);
/* How long an event may be held back for the time order (default 1.25 s). */
void ltt_reader_follow_hold(struct ltt_reader *r, uint64_t hold_ns);
/* After -EAGAIN: how long the event at the head of the merge is held still (0: none is held; more
 * data must reach the disk). */
uint64_t ltt_reader_follow_wait(const struct ltt_reader *r);

/* ---- block ranges: decoding parts of a tracefile in parallel (doc/reader.md) --------------------- */

/* A range decodes blocks [first, end) of one tracefile of a reader with its own buffers, state and
 * counters, so that the ranges of a reader may be decoded at the same time in different threads (one
 * thread per range at a time; the reader itself must not be iterated or changed meanwhile). It yields
 * the events of its blocks in file order, timed and filtered (hidden types) as the reader would, but
 * ignores the time range and skipped tracefiles. Problems are not reported: they are counted
 * (ltt_range_problems), and a caller that finds any reads the tracefile again with the reader, which
 * reports them. A range starting at block k > 0 first decodes block k - 1 to take over what a reader
 * carries from block to block (previous cycle count, latest time, next block_id); ltt_range_follows()
 * says whether that worked, i.e. whether consecutive ranges together decoded exactly what one reader
 * reading the blocks in order decodes. Memory: one block (up to its block_end) per open range. */
struct ltt_range;

/* Opens a range of tf (a tracefile of r; first <= end <= tf->nblocks). Returns 0, -EINVAL,
 * -ENOMEM, or -EOPNOTSUPP when r reads several snapshots of one recording (their blocks are shared)
 * or follows a trace being written (LTT_READ_FOLLOW). */
int ltt_range_open(struct ltt_reader *r, const struct ltt_tracefile_info *tf, uint64_t first, uint64_t end,
		   struct ltt_range **out);
/* The next event of the range: 1, or 0 at its end. ev->tracefile is the reader's tracefile; ev stays
 * valid until the next call. */
int ltt_range_next(struct ltt_range *g, struct ltt_event *ev);
/* The counters (records, events, blocks_read, heartbeats, events_lost, first and last times, ...) of the range's
 * blocks alone; complete once ltt_range_next returned 0. */
const struct ltt_tracefile_info *ltt_range_counts(const struct ltt_range *g);
/* Problems the range found (not reported). */
uint64_t ltt_range_problems(const struct ltt_range *g);
/* 1 when b starts where a (read to its end) ends and b's decoding started from the state a ended
 * with: a then b decoded every event, time and count as one reader reading both would. */
int ltt_range_follows(const struct ltt_range *a, const struct ltt_range *b);
/* Adds a range's counters to its tracefile's ltt_tracefile_info (the reader's), as the reader would
 * have counted the blocks itself: for a tracefile the reader skips (ltt_reader_skip_tracefile), call it
 * for each of its ranges in block order, from one thread. -EBUSY when the range was not read to its
 * end. */
int ltt_range_add_counts(struct ltt_range *g);
void ltt_range_close(struct ltt_range *g);

/* What a reader carries into a block of a tracefile (see above): taken where a range starts
 * (ltt_range_entry) and where it ends (ltt_range_exit, -EBUSY before it was read to its end), plain
 * values that can be compared in another process (ltt dump's windows, toolkit/par_dump.c). */
struct ltt_range_seam {
	uint64_t block;			/* the state before this block */
	uint64_t prev_cycles, last_ns, expect_id;
	int have_prev, have_expect, done;
};
void ltt_range_entry(const struct ltt_range *g, struct ltt_range_seam *s);
int ltt_range_exit(const struct ltt_range *g, struct ltt_range_seam *s);
/* 1 when a range ending with exit state x and one starting with entry state y (of the same
 * tracefile) decode, one after the other, what one reader decodes: ltt_range_follows on seams. */
int ltt_range_seam_follows(const struct ltt_range_seam *x, const struct ltt_range_seam *y);
/* A range read to its end goes on decoding blocks [its end, end) (once); its exit state stays the
 * one at its first end, and its counters can no longer be added (ltt_range_add_counts: -EINVAL). */
int ltt_range_extend(struct ltt_range *g, uint64_t end);
/* The state a reader has before block k (k > 0) of tf as block k - 1's anchors tell it: previous cycle
 * count and latest time those of its block_end, next block_id its own + 1. Exact unless the clamp
 * lifted the block's events past its block_end or it holds blocks_lost records: compare it
 * (ltt_range_seam_follows) with the state a range really ended with. 0; -EAGAIN when block k - 1 is
 * damaged or a summary block, -EOPNOTSUPP for traces before format 2.10 (ltt_range_open decodes it). */
int ltt_range_seam_guess(struct ltt_reader *r, const struct ltt_tracefile_info *tf, uint64_t k,
			 struct ltt_range_seam *s);
/* ltt_range_open starting from the state s (s->block == first) instead of decoding block first - 1. */
int ltt_range_open_at(struct ltt_reader *r, const struct ltt_tracefile_info *tf, uint64_t first, uint64_t end,
		      const struct ltt_range_seam *s, struct ltt_range **out);
/* The tracefile's merge rank: ltt_reader_next yields events of equal times in increasing rank. */
uint64_t ltt_range_rank(const struct ltt_range *g);
/* 1 when r skips tf (ltt_reader_skip_tracefile). */
int ltt_reader_skips_tracefile(const struct ltt_reader *r, const struct ltt_tracefile_info *tf);
/* The time of block k's block_start as written (the events of a block are never earlier, nor those of
 * the blocks after it, once the reader's clamp has applied): 0, -EIO when the block is damaged. */
int ltt_range_block_time(struct ltt_reader *r, const struct ltt_tracefile_info *tf, uint64_t k, uint64_t *ns);

/* ---- reading fields ----------------------------------------------------------------------------- */

/* A view of one encoded value inside an event; a plain struct, copied freely, never allocated. */
struct ltt_value {
	const struct ltt_type_desc *type;
	const unsigned char *data;	/* first byte of the value */
	uint32_t size;			/* encoded bytes */
	uint32_t index;			/* position in the parent (field or element index) */
	const char *name;		/* field name for struct and union children, else NULL */
	uint8_t big_endian;		/* the trace's byte order */
	uint8_t arch;			/* the trace's enum ltt_arch_size */
};

/* The event's body (a struct for every event of ltt's own facilities); -ENOENT without payload. */
int ltt_event_body(const struct ltt_event *ev, struct ltt_value *out);

/* Children: struct fields, array and sequence elements, and the selected field of a union.
 * ltt_value_first returns -ENOENT when there are none; ltt_value_next advances child in place and
 * returns -ENOENT after the last. */
uint64_t ltt_value_nchildren(const struct ltt_value *v);
int ltt_value_first(const struct ltt_value *v, struct ltt_value *child);
int ltt_value_next(const struct ltt_value *parent, struct ltt_value *child);
/* Struct or union field by name (a union only has its selected field); -ENOENT if absent. */
int ltt_value_field(const struct ltt_value *v, const char *name, struct ltt_value *out);
/* Array or sequence element i; -ERANGE when out of range. */
int ltt_value_element(const struct ltt_value *v, uint64_t i, struct ltt_value *out);

/* Scalars. Integers and enums of any size; ltt_value_int sign-extends int, zero-extends the rest. */
uint64_t ltt_value_uint(const struct ltt_value *v);
int64_t ltt_value_int(const struct ltt_value *v);
double ltt_value_float(const struct ltt_value *v);
/* A string's bytes (NUL-terminated in the trace); len may be NULL. */
const char *ltt_value_string(const struct ltt_value *v, size_t *len);
/* An enum's label for its value, or NULL when none matches. */
const char *ltt_value_enum_label(const struct ltt_value *v);
/* A union's type code. */
uint64_t ltt_value_union_code(const struct ltt_value *v);

/* Real time of a builtin timespec, honouring the 2004 dialect's microseconds: seconds*1e9 + ns. */
uint64_t ltt_event_timespec_ns(const struct ltt_event *ev);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif
