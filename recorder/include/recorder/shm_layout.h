/* SPDX-License-Identifier: MIT */
/* recorder/shm_layout.h: the file a flight recorder keeps its rings in under LTT_SHM_DIR, as both libltt
 * (which writes it) and `ltt recover` (which reads it after the process died) see it. Structures and
 * static inline helpers only: nothing here needs a libltt symbol (doc/flight-recorder.md, "Recovery").
 *
 *   offset 0             struct ltt_region (ltt/static/ring.h); its reserved[] words hold
 *                        struct ltt_shm_meta
 *   ...                  rings, commit words, bases, blocks: exactly the region of doc/recorder.md,
 *                        mapped MAP_SHARED
 *   region->size         metadata records appended with pwrite, 8-byte aligned:
 *                        struct ltt_shm_rec, then len bytes, then zero padding to 8
 *
 * Everything is in the recording machine's byte order and sizes: recover on the same machine.
 */
#ifndef LTT_RECORDER_SHM_LAYOUT_H
#define LTT_RECORDER_SHM_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/static/ring.h>

#define LTT_SHM_MAGIC		"LTTSHM01"
#define LTT_SHM_PREFIX		"ltt-"		/* file names: ltt-PROGRAM-PID.ring */
#define LTT_SHM_SUFFIX		".ring"

enum ltt_shm_state {
	LTT_SHM_RECORDING = 1,	/* the process was recording (or died doing so) */
	LTT_SHM_STOPPED = 2,	/* ltt_stop() ran: the rings are closed */
};

/* In region->reserved[] (144 bytes). */
struct ltt_shm_meta {
	char magic[8];			/* LTT_SHM_MAGIC once the metadata is valid */
	uint64_t start_ticks;		/* the process's start time: field 22 of /proc/PID/stat */
	uint64_t meta_off;		/* offset of the first record: region->size */
	uint64_t meta_len;		/* bytes of records written (release store after each record) */
	uint32_t state;			/* enum ltt_shm_state */
	uint32_t meta_version;		/* 1 */
	char program[32];		/* /proc/self/comm, NUL-terminated */
	uint32_t threads;		/* threads that may have written: those of /proc/self/task at
					 * start, + 1 per thread libltt saw start (never less: an
					 * overcount, never under but for threads made by a raw clone()) */
	uint32_t threads_known;		/* 1: `threads` is kept (0 in files of earlier versions) */
	uint64_t unused[5];
};

_Static_assert(sizeof(struct ltt_shm_meta) <= sizeof(((struct ltt_region *)0)->reserved),
	       "shm metadata fits the region's reserved words");

enum ltt_shm_rec_type {
	LTT_SHM_REC_SYSTEM = 1,		/* info/system.xml, the text */
	LTT_SHM_REC_FACILITY = 2,	/* facility NAME '\0' XML text (eventdefs/NAME.xml) */
	LTT_SHM_REC_TRACE_PATH = 3,	/* the trace directory of the process (text) */
};

struct ltt_shm_rec {
	uint32_t type;			/* enum ltt_shm_rec_type */
	uint32_t len;			/* bytes following this header (without the padding) */
};

static inline struct ltt_shm_meta *ltt_shm_meta_of(struct ltt_region *rg)
{
	return (struct ltt_shm_meta *)(void *)rg->reserved;
}

static inline uint64_t ltt_shm_rec_span(uint32_t len)
{
	return (sizeof(struct ltt_shm_rec) + (uint64_t)len + 7) & ~(uint64_t)7;
}

/* Low half of a slot's commit word once block seq of ring r is complete (doc/recorder.md). */
static inline uint32_t ltt_shm_complete_mark(const struct ltt_ring *r, uint64_t seq)
{
	return (uint32_t)(((seq >> r->blocks_log2) + 1) << r->shift);
}

/* Bytes of block seq committed so far, given its slot's commit word w (valid while the slot holds
 * seq: at most block_size). */
static inline uint32_t ltt_shm_committed(const struct ltt_ring *r, uint64_t seq, uint64_t w)
{
	return (uint32_t)w - (uint32_t)((seq >> r->blocks_log2) << r->shift);
}

#endif
