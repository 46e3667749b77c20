/* SPDX-License-Identifier: MIT */
/* ltt/static/event.h: the inline event path of libltt (contract in ltt/ltt.h, algorithm in
 * doc/recorder.md). Reserve: a compare-then-store of the ring's write offset, the time read inside the
 * loop; commit: an add to the block's commit word. Both are restartable sequences on the ring's CPU
 * without lock prefix where rseq is available (ltt/static/rseq.h), else one lock cmpxchg and one lock
 * add. Everything rare (opening and closing blocks, heartbeats, drops, persistent events,
 * unregistered facilities, a writer that migrated) is out of line in recorder/ring.c and rseq.c. */
#ifndef LTT_STATIC_EVENT_H
#define LTT_STATIC_EVENT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef LTT_LTT_H
#include <ltt/ltt.h>	/* struct ltt_facility; includes this file back at its end */
#endif
#include <ltt/static/ring.h>
#include <ltt/static/rseq.h>
#include <ltt/static/str.h>

struct ltt_facility;

struct ltt_slot {
	char *payload;		/* where the caller writes the payload */
	uint64_t *commit;	/* the block slot's commit word */
	uint64_t delta;		/* what commit adds to it: bytes reserved + 2^32 per counted event */
	struct ltt_ring *ring;	/* the ring when it is cpu_owned (commit by rseq), else NULL */
};

#pragma GCC visibility push(default)
int ltt_event_reserve_slow(struct ltt_slot *s, struct ltt_facility *fac, unsigned event_index,
			   size_t payload_len, unsigned event_flags);
int ltt_ring_reserve_slow(struct ltt_slot *s, struct ltt_ring *r, uint16_t id, size_t payload_len,
			  int counted);
void ltt_ring_add(struct ltt_ring *r, uint64_t *w, uint64_t d);
/* The calling thread's kernel thread id, cached per thread (0: not read yet; reset in a fork child):
 * context="tid" events (recorder/tid.c). Initial-exec TLS: one %fs-relative load. */
extern __thread uint32_t ltt_tid_cache __attribute__((tls_model("initial-exec")));
uint32_t ltt_tid_slow(void);
#pragma GCC visibility pop

/* The calling thread's id (gettid()), no system call after the first in each thread. */
static ltt_always_inline uint32_t ltt_tid(void)
{
	uint32_t t = ltt_tid_cache;

	return ltt_likely(t) ? t : ltt_tid_slow();
}

/* Nonzero while a trace records (one relaxed load: the branch generated code takes first). */
static inline int ltt_is_recording(void)
{
	return ltt_read(&ltt_rt.recording);
}

#define LTT_EVENT_ON		1u	/* struct ltt_facility.enabled: the event records */
#define LTT_EVENT_TRIGGER	2u	/* ... and takes a flight snapshot (LTT_SNAPSHOT_ON) */

/* The flags of event index of a facility (its `enabled` array; libltt's own bits besides these):
 * LTT_EVENT_ON when it records now (a trace records, not paused, the event rules select it). One
 * load and one bit test, the branch generated code takes first.
 * Relaxed is enough: a flag is a hint written by the control side (recorder/rules.c) after what it
 * stands for is published; ltt_event_reserve() reloads the region and base code with acquire. */
static inline unsigned ltt_event_enabled(const uint8_t *enabled, unsigned index)
{
	return ltt_read(&enabled[index]);
}

/* Reserves LTT_EVENT_HEADER + payload_len bytes in the ring of this CPU, writes the header and
 * returns 1 with s->payload set, or 0 when the event is not recorded (dropped events are counted). */
static ltt_always_inline int ltt_event_reserve(struct ltt_slot *s, struct ltt_facility *fac, unsigned event_index,
				    size_t payload_len, unsigned event_flags)
{
	const size_t size = LTT_EVENT_HEADER + payload_len;
	struct ltt_region *rg;
	struct ltt_ring *r;
	uint64_t old, tsc, pos;
	unsigned cpu;
	uint16_t id;
	char *p;

	if (ltt_unlikely(event_flags & 1u /* LTT_EVENT_PERSISTENT */))
		return ltt_event_reserve_slow(s, fac, event_index, payload_len, event_flags);
	/* Acquire: pairs with the release store of the base code in ltt_facility_register(). */
	id = ltt_read(&fac->base_code);
	if (ltt_unlikely(!id))
		return ltt_event_reserve_slow(s, fac, event_index, payload_len, event_flags);
	id = (uint16_t)(id + event_index);
	/* Acquire: pairs with the release store of ltt_start() that publishes the initialised region. */
	rg = ltt_read(&ltt_rt.region);
	if (ltt_unlikely(!rg))
		return 0;
#ifdef LTT_RSEQ
	if (ltt_likely(ltt_rt.rseq)) {
		struct rseq *rs = ltt_rseq_area();
		int rc;

		for (;;) {
			int32_t c = ltt_rseq_cpu(rs);

			if (ltt_unlikely((uint32_t)c >= rg->ncpu)) {
				/* rseq not registered for this thread (or a CPU beyond the configured
				 * ones): the slow path's remote operations are correct from anywhere */
				cpu = ltt_cpu_id_slow() % rg->ncpu;
				return ltt_ring_reserve_slow(s, &rg->rings[cpu], id, payload_len, 1);
			}
			r = &rg->rings[c];
			old = *(volatile uint64_t *)&r->write_off;
			pos = old & r->pos_mask;
			if (ltt_unlikely(pos == 0 || (payload_len > LTT_MIN_MAX_PAYLOAD && payload_len > r->max_payload) ||
					 pos + size > r->limit))
				return ltt_ring_reserve_slow(s, r, id, payload_len, 1);
			tsc = ltt_clock_now();	/* after the load of write_off, before the store: time order */
			if (ltt_unlikely((int64_t)(tsc - *(volatile uint64_t *)&r->last_tsc) >= (int64_t)LTT_HEARTBEAT_CYCLES))
				return ltt_ring_reserve_slow(s, r, id, payload_len, 1);
			/* R1 (doc/recorder.md): write_off still old on this CPU, no remote operation:
			 * the plain store is the reservation. */
			rc = ltt_cs_cas(rs, (uint32_t)c, &r->remote, &r->write_off, old, old + size);
			if (ltt_likely(rc == LTT_CS_DONE))
				break;
			/* R2: a remote operation (flush) is in progress: locked, on this CPU. */
			if (rc == LTT_CS_REMOTE && ltt_cs_cas_locked(rs, (uint32_t)c, &r->write_off, old, old + size) ==
			    LTT_CS_DONE)
				break;
			/* changed, restarted or migrated: again, on the CPU we are on now */
		}
		s->ring = r;
	} else
#endif
	{
	cpu = ltt_cpu_id();
	if (ltt_unlikely(cpu >= rg->ncpu))
		cpu %= rg->ncpu;
	r = &rg->rings[cpu];
	do {
		old = ltt_read(&r->write_off);
		pos = old & r->pos_mask;	/* LTT_RING_CLOSED makes pos too large to fit */
		/* (the size check folds away for fixed-size events that fit the smallest block); tested
		 * before the clock is read: a full ring's drops read no clock */
		if (ltt_unlikely(pos == 0 || (payload_len > LTT_MIN_MAX_PAYLOAD && payload_len > r->max_payload) ||
				 pos + size > r->limit))
			return ltt_ring_reserve_slow(s, r, id, payload_len, 1);
		tsc = ltt_clock_now();	/* after the load of write_off, before the CAS: time order */
		if (ltt_unlikely((int64_t)(tsc - ltt_read(&r->last_tsc)) >= (int64_t)LTT_HEARTBEAT_CYCLES))
			return ltt_ring_reserve_slow(s, r, id, payload_len, 1);
		/* Full barrier (B6): orders this reservation with flushes and other writers of the ring. */
	} while (ltt_unlikely(ltt_cmpxchg(&r->write_off, old, old + size) != old));
	s->ring = NULL;
	}
	ltt_set(&r->last_tsc, tsc);
	p = r->data + (old & r->ring_mask);
	memcpy(p, &id, 2);
	{
		uint32_t t32 = (uint32_t)tsc;	/* a variable, not a compound literal: C++ includes this */

		memcpy(p + 2, &t32, 4);
	}
	s->payload = p + LTT_EVENT_HEADER;
	s->commit = &r->commit[(old >> r->shift) & r->slot_mask];
	s->delta = size + (1ull << 32);
	return 1;
}

/* Publishes the event reserved in s. */
static ltt_always_inline void ltt_event_commit(struct ltt_slot *s)
{
#ifdef LTT_RSEQ
	if (ltt_likely(s->ring != NULL)) {
		/* B1 (rseq): the plain add is a store after the event's bytes; x86 keeps stores in
		 * order (the sequence's "memory" clobber keeps the compiler from moving them), so the
		 * consumer's acquire load that sees the block complete (B2) sees the bytes. */
		if (ltt_likely(ltt_cs_add(ltt_rseq_area(), s->ring->index, &s->ring->remote, s->commit, s->delta) ==
			       LTT_CS_DONE))
			return;
#ifdef LTT_RSEQ_TEST_SPIN
		ltt_rseq_test_slow++;
#endif
		/* migrated since the reservation, restarted, or a remote operation in progress */
		ltt_ring_add(s->ring, s->commit, s->delta);
		return;
	}
#endif
	/* Full barrier (B1): the event's bytes are written before the commit count says so; pairs with
	 * the consumer's read barrier after it sees the block complete (B2). */
	ltt_add(s->commit, s->delta);
}

#endif
