/* SPDX-License-Identifier: MIT */
/* recorder/ring.h: the ring buffer's out-of-line operations (doc/recorder.md: the block state machine,
 * the barrier pairs). Used by the consumer, the control code and the flight recorder. */
#ifndef LTT_RECORDER_RING_H
#define LTT_RECORDER_RING_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt.h>

#include "common/format.h"

/* The installed event path (ltt/static/ring.h) repeats a few numbers of the format: they are the
 * format's (common/format.h). */
_Static_assert(LTT_EVENT_HEADER == LTT_FMT_HEADER, "ltt/static/ring.h: event header size");
_Static_assert(LTT_LOST_CAUSES == LTT_LOST_CAUSE_COUNT, "ltt/static/ring.h: lost causes");
_Static_assert(LTT_MIN_MAX_PAYLOAD == LTT_BLOCK_SIZE_MIN - LTT_BLOCK_ROOM - LTT_FMT_HEADER,
	       "ltt/static/ring.h: max_payload of the smallest block");
_Static_assert(sizeof(((struct ltt_ring *)0)->lost) / sizeof(uint64_t) >= LTT_LOST_CAUSE_COUNT,
	       "ltt/static/ring.h: a lost counter per cause");

/* Most drops one events_lost record written by an opener reports (the rest go in the next block): a
 * block's events and reported drops, counted together in its commit word's high half, stay below
 * 2^32 (5 causes x 2^28 + the events of a 256 MiB block). */
#define LTT_LOST_RECORD_MAX (1ull << 28)

struct ltt_region_geom {
	uint32_t ncpu;		/* CPU rings; LTT_CONTROL_RINGS more are added */
	uint32_t block_size;	/* power of two in [LTT_BLOCK_SIZE_MIN, LTT_BLOCK_SIZE_MAX] */
	uint32_t blocks;	/* per ring, power of two >= 2 */
	uint32_t flags;		/* LTT_REGION_OVERWRITE, LTT_REGION_KERNEL */
};

/* Bytes of a region of this geometry (page aligned). */
size_t ltt_region_size(const struct ltt_region_geom *g);
/* Maps and initialises a region: fd < 0 anonymous memory, else MAP_SHARED of the file (which must
 * already be ltt_region_size() bytes). Rings start empty with no block opened. */
int ltt_region_create(struct ltt_region **out, const struct ltt_region_geom *g, int fd);
/* Re-initialises the rings of a region (all blocks free, counters zero) for a new trace. Only when no
 * writer can reserve in it (the rings are closed). */
void ltt_region_reset(struct ltt_region *rg, uint32_t flags);
/* Releases the memory of the blocks (MADV_DONTNEED); the mapping and ring headers stay valid. */
void ltt_region_release_data(struct ltt_region *rg);

/* Rings of a region: CPU rings, control rings, then (LTT_REGION_KERNEL) one kernel ring per CPU. */
static inline unsigned ltt_region_rings(uint32_t ncpu, uint32_t flags)
{
	return ncpu + LTT_CONTROL_RINGS + ((flags & LTT_REGION_KERNEL) ? ncpu : 0);
}
/* The first kernel ring of rg (== rg->nrings when it has none). */
static inline unsigned ltt_region_kbase(const struct ltt_region *rg)
{
	return rg->ncpu + LTT_CONTROL_RINGS;
}
/* As ltt_ring_reserve_slow() with the event's time given (a cycle count not below the ring's
 * last_tsc): the drain thread's kernel events (recorder/kernel_drain.c). */
int ltt_ring_reserve_at(struct ltt_slot *s, struct ltt_ring *r, uint16_t id, size_t payload_len, uint64_t at);
/* Seals the open block of r (writes its block_end); close != 0 also closes the ring for good.
 * Safe against concurrent writers. Returns 1 if a block was sealed, else 0. */
int ltt_ring_flush(struct ltt_ring *r, int close);
/* Seals the open block of r (as ltt_ring_flush(r, 0)) and returns the sequence number of the first
 * block opened after the seal: the blocks before it hold the events reserved before, the others the
 * events reserved after (rotation, recorder/rotate.c). */
uint64_t ltt_ring_cut(struct ltt_ring *r);
/* Nonzero when every byte of block seq is committed (B2: the caller may then read it). */
int ltt_ring_block_complete(const struct ltt_ring *r, uint64_t seq);
/* The block slot that holds (or will hold) block seq. */
char *ltt_ring_block(const struct ltt_ring *r, uint64_t seq);
/* Non-builtin events committed in block seq plus the drops its events_lost records report (complete
 * blocks only): what is lost with the block when it is not copied. */
uint32_t ltt_ring_block_events(const struct ltt_ring *r, uint64_t seq);
/* Sequence number of the block write_off is in (the next to open when its position is 0). */
static inline uint64_t ltt_ring_head_seq(const struct ltt_ring *r)
{
	return (ltt_read(&r->write_off) & ~LTT_RING_CLOSED) >> r->shift;
}
/* Nonzero when block seq has been opened or passed (write_off beyond its start). */
int ltt_ring_block_opened(const struct ltt_ring *r, uint64_t seq);

/* recorder/flight_trigger.c: nonzero from a snapshot trigger's request until its snapshot is written
 * (or the request dropped); the rings' trig_hold apply only meanwhile. */
extern uint64_t ltt_trigger_pending;

/* Writes a block_start/block_end (id) at p: anchor of cycle count c, block_id. */
void ltt_block_mark(char *p, uint16_t id, uint64_t c, uint32_t block_id);
/* Builds in buf (block_size bytes) a summary block (doc/format.md section 7) whose anchor repeats the
 * block_start of next_block. */
void ltt_block_summary(char *buf, uint32_t block_size, const char *next_block, uint32_t blocks,
		       uint64_t events);
/* Builds in buf a block with block_id id holding one events_lost record per non-zero count of lost[]
 * (taken from the ring's counters) at cycle count c. Returns 1 if any count was non-zero, else 0. */
int ltt_block_lost_only(char *buf, struct ltt_ring *r, uint64_t c, uint32_t block_id);
/* Adds the counts of the events_lost records at the head of sealed block blk to lost[cause]. */
void ltt_block_drops(const char *blk, uint32_t block_size, uint64_t lost[LTT_LOST_CAUSES]);

/* recorder/consumer.c: called after a block was sealed and its seal committed (a full barrier);
 * wakes the consumer thread if it sleeps. No syscall when it is awake; errno unchanged. */
void ltt_consumer_kick(void);

/* Reserves an event of id (builtin or control events of the recorder): as ltt_event_reserve. */
static inline int ltt_ring_reserve(struct ltt_slot *s, struct ltt_ring *r, uint16_t id, size_t payload_len,
				   int counted)
{
	return ltt_ring_reserve_slow(s, r, id, payload_len, counted);
}

#endif
