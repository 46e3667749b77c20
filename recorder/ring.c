/* SPDX-License-Identifier: MIT */
/* recorder/ring.c: the out-of-line half of the ring buffer: opening and sealing blocks, heartbeats,
 * drops, flushes, and the region's memory (doc/recorder.md). */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "blocking.h"
#include "clock.h"
#include "ring.h"
#include "rseq.h"

#define ALIGN_UP(x, a) (((x) + (a) - 1) & ~((uint64_t)(a) - 1))

static unsigned log2u(uint64_t v)
{
	return (unsigned)__builtin_ctzll(v);
}

static uint64_t region_page(void)
{
	long p = sysconf(_SC_PAGESIZE);

	return p > 0 ? (uint64_t)p : 4096u;
}

/* Offsets of the region's parts. */
struct layout {
	uint64_t commit_off, base_off, data_off, size;
};

static void layout_of(const struct ltt_region_geom *g, struct layout *l)
{
	uint64_t nrings = ltt_region_rings(g->ncpu, g->flags);
	uint64_t slots = nrings * g->blocks;
	uint64_t page = region_page();

	l->commit_off = ALIGN_UP(sizeof(struct ltt_region) + nrings * sizeof(struct ltt_ring), 64);
	l->base_off = ALIGN_UP(l->commit_off + slots * sizeof(uint64_t), 64);
	l->data_off = ALIGN_UP(l->base_off + slots * sizeof(uint32_t), page);
	l->size = l->data_off + slots * g->block_size;
}

size_t ltt_region_size(const struct ltt_region_geom *g)
{
	struct layout l;

	layout_of(g, &l);
	return l.size;
}

static void ring_init(struct ltt_region *rg, unsigned i, uint32_t flags)
{
	struct ltt_ring *r = &rg->rings[i];
	char *base = (char *)rg;
	struct layout l;
	struct ltt_region_geom g = { rg->ncpu, rg->block_size, rg->blocks, flags };
	uint32_t bs = rg->block_size;

	layout_of(&g, &l);
	memset(r, 0, sizeof(*r));
	r->index = i;
	r->block_size = bs;
	r->shift = log2u(bs);
	r->blocks_log2 = log2u(rg->blocks);
	r->slot_mask = rg->blocks - 1;
	r->ring_mask = (uint64_t)rg->blocks * bs - 1;
	r->pos_mask = (uint64_t)(bs - 1) | LTT_RING_CLOSED;
	r->limit = (uint32_t)ltt_block_end_max(bs);
	r->max_payload = ltt_block_max_payload(bs);
	/* Control rings never overwrite: the state they hold must survive (doc/format.md s. 8). Kernel
	 * rings overwrite as the CPU rings do; their events come late (struct ltt_ring's late). */
	r->late = i >= ltt_region_kbase(rg);
	r->overwrite = (flags & LTT_REGION_OVERWRITE) && (i < rg->ncpu || r->late);
	/* Control rings take events from every CPU: always the locked path. */
	r->cpu_owned = i < rg->ncpu && ltt_rseq_mode();
	r->data_off = l.data_off + (uint64_t)i * rg->blocks * bs;
	r->commit_off = l.commit_off + (uint64_t)i * rg->blocks * sizeof(uint64_t);
	r->base_off = l.base_off + (uint64_t)i * rg->blocks * sizeof(uint32_t);
	r->data = base + r->data_off;
	r->commit = (uint64_t *)(base + r->commit_off);
	r->base = (uint32_t *)(base + r->base_off);
	memset(r->commit, 0, rg->blocks * sizeof(uint64_t));
	memset(r->base, 0, rg->blocks * sizeof(uint32_t));
}

void ltt_region_reset(struct ltt_region *rg, uint32_t flags)
{
	rg->flags = flags;
	rg->nrings = ltt_region_rings(rg->ncpu, flags);
	for (unsigned i = 0; i < rg->nrings; i++)
		ring_init(rg, i, flags);
}

int ltt_region_create(struct ltt_region **out, const struct ltt_region_geom *g, int fd)
{
	struct ltt_region *rg;
	struct layout l;
	void *m;

	if (g->ncpu == 0 || g->block_size < LTT_BLOCK_SIZE_MIN || g->block_size > LTT_BLOCK_SIZE_MAX ||
	    (g->block_size & (g->block_size - 1)) || g->blocks < 2 || (g->blocks & (g->blocks - 1)))
		return -EINVAL;
	layout_of(g, &l);
	if (fd < 0)
		m = mmap(NULL, l.size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	else
		m = mmap(NULL, l.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	rg = m;
	memset(rg, 0, sizeof(*rg));
	memcpy(rg->magic, LTT_REGION_MAGIC, sizeof(rg->magic));
	rg->version = 1;
	rg->ncpu = g->ncpu;
	rg->nrings = ltt_region_rings(g->ncpu, g->flags);
	rg->block_size = g->block_size;
	rg->blocks = g->blocks;
	rg->size = l.size;
	rg->pid = (int32_t)getpid();
	ltt_region_reset(rg, g->flags);
	*out = rg;
	return 0;
}

void ltt_region_release_data(struct ltt_region *rg)
{
	char *data = (char *)rg + rg->rings[0].data_off;
	size_t len = (size_t)rg->nrings * rg->blocks * rg->block_size;

	/* Pages read back as zeros; a late writer of a closed ring never gets to write there. */
	madvise(data, len, MADV_DONTNEED);
}

/* ---- blocks --------------------------------------------------------------------------------------- */

/* Anchors by the trace's clock map (recorder/clock.c); the records' layout is common/format.h's. */
void ltt_block_mark(char *p, uint16_t id, uint64_t c, uint32_t block_id)
{
	uint32_t sec, nsec;

	ltt_clock_anchor(c, &sec, &nsec);
	ltt_fmt_block_mark(p, id, c, sec, nsec, block_id);
}

static void heartbeat(char *p, uint64_t c)
{
	uint32_t sec, nsec;

	ltt_clock_anchor(c, &sec, &nsec);
	ltt_fmt_heartbeat(p, c, sec, nsec);
}

/* Adds the counts of the events_lost records at the head of sealed block blk (right after its
 * block_start, where an opener and ltt_block_lost_only() write them) to lost[cause]:
 * what the consumer sums for the line said at stop (recorder/loss_report.c). */
void ltt_block_drops(const char *blk, uint32_t bs, uint64_t lost[LTT_LOST_CAUSES])
{
	uint32_t end = ltt_fmt_trailer_get(blk, bs, LTT_HOST_BE);

	if (end > bs)
		return;
	for (uint32_t p = LTT_BLOCK_MARK_SIZE; p + LTT_LOST_RECORD_SIZE <= end; p += LTT_LOST_RECORD_SIZE) {
		uint8_t cause = ltt_fmt_lost_cause(blk + p);

		if (ltt_fmt_id(blk + p, LTT_HOST_BE) != LTT_B_EVENTS_LOST)
			break;
		if (cause < LTT_LOST_CAUSE_COUNT)
			lost[cause] += ltt_fmt_lost_count(blk + p, LTT_HOST_BE);
	}
}

#define ZPAGE 4096u	/* the unit zero_fill() leaves alone when it reads as zeros */

/* Whether the ZPAGE bytes at p are all zero (p aligned to 8). */
static int page_is_zero(const char *p)
{
	const uint64_t *w = (const uint64_t *)(const void *)p;

	for (size_t i = 0; i < ZPAGE / 8; i += 16) {
		uint64_t acc = 0;

		for (unsigned k = 0; k < 16; k++)
			acc |= w[i + k];
		if (acc)
			return 0;
	}
	return 1;
}

/* Makes the n bytes at p zero (a sealed block's zero fill, doc/format.md section 4) without writing
 * the whole pages that already read as zeros: a page of the ring that no writer touched since the
 * region was mapped is not resident, reading it maps the kernel's zero page, and writing it would
 * make it resident. A quiet ring sealed by the flush timer every LTT_FLUSH_MS (and every control ring,
 * sealed at start) then costs the pages its events use, not a whole block per seal. */
static void zero_fill(char *p, size_t n)
{
	char *end = p + n, *pg = (char *)ALIGN_UP((uintptr_t)p, ZPAGE);

	if (pg + ZPAGE > end) {
		memset(p, 0, n);
		return;
	}
	memset(p, 0, (size_t)(pg - p));
	for (; pg + ZPAGE <= end; pg += ZPAGE)
		if (!page_is_zero(pg))
			memset(pg, 0, ZPAGE);
	memset(pg, 0, (size_t)(end - pg));
}

/* Writes block_end at pos, the zero fill and the trailer of block seq (its slot at blk). */
static void seal(char *blk, uint32_t bs, uint64_t pos, uint64_t c, uint64_t seq)
{
	ltt_block_mark(blk + pos, LTT_B_BLOCK_END, c, (uint32_t)seq);
	zero_fill(blk + pos + LTT_BLOCK_MARK_SIZE, ltt_block_fill(bs, pos));
	ltt_fmt_trailer(blk, bs, (uint32_t)pos);
}

void ltt_block_summary(char *buf, uint32_t bs, const char *next_block, uint32_t blocks, uint64_t events)
{
	ltt_fmt_summary_block(buf, bs, next_block, blocks, events);
}

int ltt_block_lost_only(char *buf, struct ltt_ring *r, uint64_t c, uint32_t block_id)
{
	uint64_t n[LTT_LOST_CAUSE_COUNT];
	uint32_t pos;

	for (unsigned i = 0; i < LTT_LOST_CAUSE_COUNT; i++)
		n[i] = ltt_xchg(&r->lost[i], 0);
	memset(buf, 0, r->block_size);
	ltt_block_mark(buf, LTT_B_BLOCK_START, c, block_id);
	pos = ltt_fmt_lost_records(buf + LTT_BLOCK_MARK_SIZE, c, n);
	seal(buf, r->block_size, LTT_BLOCK_MARK_SIZE + pos, c, block_id);
	return pos != 0;
}

char *ltt_ring_block(const struct ltt_ring *r, uint64_t seq)
{
	return r->data + ((seq & r->slot_mask) << r->shift);
}

/* Low half of a slot's commit word once block seq (of lap seq >> blocks_log2) is complete. */
static uint32_t complete_mark(const struct ltt_ring *r, uint64_t seq)
{
	return (uint32_t)(((seq >> r->blocks_log2) + 1) << r->shift);
}

int ltt_ring_block_complete(const struct ltt_ring *r, uint64_t seq)
{
	/* Acquire (B2): pairs with the committers' full barriers (B1, B4); the caller reads the block
	 * after this returns 1. */
	uint64_t w = ltt_read(&r->commit[seq & r->slot_mask]);
	int done = (uint32_t)w == complete_mark(r, seq);

	ltt_smp_rmb();
	return done;
}

uint32_t ltt_ring_block_events(const struct ltt_ring *r, uint64_t seq)
{
	uint64_t w = ltt_read(&r->commit[seq & r->slot_mask]);
	uint32_t carry = complete_mark(r, seq) == 0;

	return (uint32_t)(w >> 32) - ltt_read(&r->base[seq & r->slot_mask]) - carry;
}

int ltt_ring_block_opened(const struct ltt_ring *r, uint64_t seq)
{
	uint64_t w = ltt_read(&r->write_off) & ~LTT_RING_CLOSED;

	return (w >> r->shift) > seq || ((w >> r->shift) == seq && (w & (r->block_size - 1)));
}

/* ---- reservation ---------------------------------------------------------------------------------- */

/* Can block nseq be opened in its slot? *w gets the slot's commit word (stable when it can). */
static int slot_free(struct ltt_ring *r, uint64_t nseq, uint64_t *w)
{
	uint64_t slot = nseq & r->slot_mask;

	if (r->overwrite) {
		uint64_t hold = ltt_read(&r->snap_hold), th = ltt_read(&r->trig_hold);

		/* A trigger's snapshot is pending: its hold counts as a snapshot's until the snapshot
		 * is written (both keep blocks >= k: together, the lower k). Acquire: pairs with the
		 * exchange that ends the request in flight_trigger.c (the snapshot is written before
		 * an opener sees the request gone). */
		if (ltt_unlikely(th) && ltt_read(&ltt_trigger_pending) && (!hold || th < hold))
			hold = th;
		/* A snapshot is copying block nseq - n: drop rather than overwrite it. Read after
		 * write_off (acquire), so a snapshot's hold stored before its flush CAS (B6) is seen
		 * by every opener whose CAS comes after that flush (recorder/snapshot.c, F1). */
		if (hold && nseq > r->slot_mask && nseq - r->slot_mask - 1 >= hold - 1)
			return 0;
		/* Acquire: pairs with B1/B4 of the writers of the slot's previous block. */
		*w = ltt_read(&r->commit[slot]);
		return (uint32_t)*w == (uint32_t)((nseq >> r->blocks_log2) << r->shift);
	}
	if (nseq > r->slot_mask && ltt_read(&r->consumed) + r->slot_mask < nseq)
		return 0;
	/* Read barrier (B5): the consumer's release of the slot (B3) is seen before its commit word. */
	ltt_smp_rmb();
	*w = ltt_read(&r->commit[slot]);
	return 1;
}

static int reserve(struct ltt_slot *s, struct ltt_ring *r, uint16_t id, size_t payload_len, int counted,
		   uint64_t at);

/* A full ring (block nseq's slot taken): 1 when the writer waited for the consumer and should look
 * again (blocking mode, discard mode only), 0 to drop. Events with a given time (the kernel drain
 * thread) never wait. */
static int full_wait(struct ltt_ring *r, uint64_t nseq, uint64_t at, uint64_t *deadline)
{
	if (ltt_likely(!__atomic_load_n(&ltt_blocking_ns, __ATOMIC_RELAXED)) || r->overwrite || at)
		return 0;
	return ltt_ring_wait(r, nseq, deadline);
}

int ltt_ring_reserve_slow(struct ltt_slot *s, struct ltt_ring *r, uint16_t id, size_t payload_len,
			  int counted)
{
	return reserve(s, r, id, payload_len, counted, 0);
}

int ltt_ring_reserve_at(struct ltt_slot *s, struct ltt_ring *r, uint16_t id, size_t payload_len, uint64_t at)
{
	return reserve(s, r, id, payload_len, 1, at ? at : 1);
}

/* at: the event's time, or 0 to read the clock. */
static int reserve(struct ltt_slot *s, struct ltt_ring *r, uint16_t id, size_t payload_len, int counted,
		   uint64_t at)
{
	uint64_t old, nw, tsc, pos, seq, nseq = 0, w = 0, hb, drops, deadline = 0;
	uint64_t size = LTT_FMT_HEADER + (uint64_t)payload_len;
	unsigned pending = 0, npending = 0;
	uint32_t bs = r->block_size;
	char *p;

	if (payload_len > r->max_payload) {
		if (!(ltt_read(&r->write_off) & LTT_RING_CLOSED))
			ltt_add(&r->lost[LTT_LOST_CAUSE_TOO_BIG], 1);
		return 0;
	}
	for (;;) {
		old = ltt_read(&r->write_off);
		if (old & LTT_RING_CLOSED)
			return 0;	/* the event began after stop: not recorded, not lost */
		pos = old & (bs - 1);
		seq = old >> r->shift;
		/* A full ring drops without reading the clock (half the cost of a drop): the event
		 * needs the next block whatever its heartbeat, and that block's slot is not free. The
		 * check is repeated below before the CAS (B5). */
		if ((!pos || pos + size > r->limit) && !slot_free(r, pos ? seq + 1 : seq, &w)) {
			/* blocking mode: wait for the consumer, then look again (recorder/blocking.c) */
			if (full_wait(r, pos ? seq + 1 : seq, at, &deadline))
				continue;
			ltt_add(&r->lost[LTT_LOST_CAUSE_BUFFER_FULL], 1);
			return 0;
		}
		tsc = at ? at : ltt_clock_now();
		hb = 0;
		/* signed: a last_tsc a few cycles ahead of ours (rdtsc is not ordered with the loads
		 * around it, CPUs' counters differ by a few cycles) needs no heartbeat */
		if (pos && (int64_t)(tsc - ltt_read(&r->last_tsc)) >= (int64_t)LTT_HEARTBEAT_CYCLES)
			hb = LTT_HEARTBEAT_SIZE;
		if (pos && pos + hb + size <= r->limit) {
			nw = old + hb + size;
		} else {
			nseq = pos ? seq + 1 : seq;
			if (!slot_free(r, nseq, &w)) {
				if (full_wait(r, nseq, at, &deadline))
					continue;
				ltt_add(&r->lost[LTT_LOST_CAUSE_BUFFER_FULL], 1);
				return 0;
			}
			pending = npending = 0;
			for (unsigned i = 0; i < LTT_LOST_CAUSE_COUNT; i++)
				if (ltt_read(&r->lost[i])) {
					pending |= 1u << i;
					npending++;
				}
			/* the records must leave room for the event (5 records and the largest event
			 * would not fit): the others wait for the next block */
			for (unsigned i = LTT_LOST_CAUSE_COUNT;
			     i-- > 0 &&
			     LTT_BLOCK_MARK_SIZE + npending * LTT_LOST_RECORD_SIZE + size > r->limit;)
				if (pending & (1u << i)) {
					pending &= ~(1u << i);
					npending--;
				}
			hb = LTT_BLOCK_MARK_SIZE + npending * LTT_LOST_RECORD_SIZE;
			nw = (nseq << r->shift) + hb + size;
		}
		/* A late ring (one writer, the drain thread): last_tsc before the CAS, which is a full
		 * barrier; pairs with flush_at()'s read of last_tsc after its own CAS, so that a seal
		 * never ends a block before an event reserved in it. */
		if (at)
			ltt_set(&r->last_tsc, tsc);
		/* Full barrier (B5, B6): the slot was seen free before we write into it; orders us with
		 * other writers and flushes of the ring. */
		if (ltt_ring_cas(r, old, nw))
			break;
	}
	ltt_set(&r->last_tsc, tsc);
	if (nw >> r->shift == seq && pos) {
		/* In the open block: an optional heartbeat, then the event. */
		p = r->data + (old & r->ring_mask);
		if (hb) {
			heartbeat(p, tsc);
			p += LTT_HEARTBEAT_SIZE;
		}
	} else {
		char *blk = ltt_ring_block(r, nseq);
		uint64_t slot = nseq & r->slot_mask;

		if (pos) {
			/* Seal the block that was open; full barrier (B4): block_end and the trailer are
			 * written before they are counted. */
			seal(ltt_ring_block(r, seq), bs, pos, tsc, seq);
			ltt_ring_add(r, &r->commit[seq & r->slot_mask], bs - pos);
			/* Full barrier: the per-CPU path's plain add is none; the commit is visible
			 * before ltt_consumer_kick() reads `sleeping` (pairs with wait_for_work()). */
			if (r->cpu_owned)
				ltt_smp_mb();
			ltt_consumer_kick();
		}
		if (r->overwrite && nseq > r->slot_mask) {
			uint32_t carry = complete_mark(r, nseq - r->slot_mask - 1) == 0;

			/* Events first, then the block, each a full barrier: a snapshot that reads
			 * overwritten_blocks == k then sees the events of all k blocks (F2). */
			ltt_add(&r->overwritten_events,
				(uint32_t)(w >> 32) - ltt_read(&r->base[slot]) - carry);
			ltt_add(&r->overwritten_blocks, 1);
		}
		ltt_set(&r->base[slot], (uint32_t)(w >> 32));
		ltt_block_mark(blk, LTT_B_BLOCK_START, tsc, (uint32_t)nseq);
		p = blk + LTT_BLOCK_MARK_SIZE;
		drops = 0;
		for (unsigned i = 0; i < LTT_LOST_CAUSE_COUNT; i++) {
			uint64_t k;

			if (!(pending & (1u << i)))
				continue;
			k = ltt_xchg(&r->lost[i], 0);
			if (k > LTT_LOST_RECORD_MAX) {
				/* the rest waits for the next block: a block's count stays below 2^32 */
				ltt_add(&r->lost[i], k - LTT_LOST_RECORD_MAX);
				k = LTT_LOST_RECORD_MAX;
			}
			ltt_fmt_events_lost(p, tsc, k, (uint8_t)i);
			p += LTT_LOST_RECORD_SIZE;
			drops += k;
		}
		/* The drops reported here count as events of the block (its commit word's high half):
		 * whoever cannot copy or write the block (an overwriting opener, a snapshot or the
		 * consumer facing an incomplete block, `ltt recover`) counts them with its events, so
		 * they are never forgotten with it (doc/recorder.md "Accounting"). Before our own
		 * commit, which completes the block: full barrier on the locked path, a store in
		 * program order before it on the per-CPU one (B4); pairs with B2. */
		if (drops)
			ltt_ring_add(r, &r->commit[slot], drops << 32);
		old = nseq << r->shift;
	}
	ltt_fmt_header(p, id, tsc);
	s->payload = p + LTT_FMT_HEADER;
	s->commit = &r->commit[(old >> r->shift) & r->slot_mask];
	s->delta = hb + size + (counted ? 1ull << 32 : 0);
	s->ring = r->cpu_owned ? r : NULL;
	return 1;
}

/* ltt_ring_flush(), and *next (if not NULL) = the first block sequence number after the seal: every
 * block before it was opened before the flush's CAS, every later one after it. */
static int flush_at(struct ltt_ring *r, int close, uint64_t *next)
{
	uint64_t old, nw, tsc, pos, seq;
	uint32_t bs = r->block_size;

	/* A remote operation (R3, R4): the owner CPU's writers use locked instructions until its end. */
	ltt_ring_remote_begin(r);
	for (;;) {
		old = ltt_read(&r->write_off);
		if (next)
			*next = (old & ~LTT_RING_CLOSED) >> r->shift;
		if (old & LTT_RING_CLOSED) {
			ltt_ring_remote_end(r);
			return 0;
		}
#if defined(__x86_64__)
		/* rdtsc only after the load of write_off: a flush runs on another CPU than the writers,
		 * and an early rdtsc would give block_end a time before the last event's */
		__builtin_ia32_lfence();
#endif
		tsc = ltt_clock_now();
		pos = old & (bs - 1);
		seq = old >> r->shift;
		if (!pos && !close) {
			ltt_ring_remote_end(r);
			return 0;
		}
		nw = pos ? (seq + 1) << r->shift : old;
		if (close)
			nw |= LTT_RING_CLOSED;
		/* Full barrier (B6): pairs with the writers' CAS on the same word. */
		if (ltt_cmpxchg(&r->write_off, old, nw) == old)
			break;
	}
	if (!pos) {
		ltt_ring_remote_end(r);
		return 0;	/* block seq not opened: it comes after the flush */
	}
	if (next)
		*next = seq + 1;
	/* A late ring's block ends at its last event (the events still to come are older than the
	 * present: struct ltt_ring's late). Read after our CAS (full barrier): pairs with reserve()'s
	 * store of last_tsc before its CAS. */
	if (r->late)
		tsc = ltt_read(&r->last_tsc);
	seal(ltt_ring_block(r, seq), bs, pos, tsc, seq);
	/* Full barrier (B4): pairs with B2 of the consumer. */
	ltt_add(&r->commit[seq & r->slot_mask], bs - pos);
	ltt_ring_remote_end(r);
	ltt_consumer_kick();	/* after the full barrier of the add */
	return 1;
}

int ltt_ring_flush(struct ltt_ring *r, int close)
{
	return flush_at(r, close, NULL);
}

uint64_t ltt_ring_cut(struct ltt_ring *r)
{
	uint64_t next = 0;

	flush_at(r, 0, &next);
	return next;
}
