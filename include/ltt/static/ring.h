/* SPDX-License-Identifier: MIT */
/* ltt/static/ring.h: the shared-memory layout of libltt's per-CPU ring buffers, the clock and the CPU
 * id, as the inline event path (ltt/static/event.h) needs them. Not an API: doc/recorder.md describes
 * the algorithm; recorder/ring.h has the out-of-line operations. */
#ifndef LTT_STATIC_RING_H
#define LTT_STATIC_RING_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/static/atomic.h>

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
#include <sys/rseq.h>
#define LTT_HAVE_RSEQ 1
#endif

#define ltt_likely(x)   __builtin_expect(!!(x), 1)
#define ltt_unlikely(x) __builtin_expect(!!(x), 0)
/* The event path is inlined into the caller even where the compiler would rather call it (the
 * generated code marks it unlikely, which makes GCC outline it): a call costs more than it saves. */
#define ltt_always_inline inline __attribute__((always_inline))

#pragma GCC visibility push(default)

#define LTT_EVENT_HEADER	6		/* uint16 id + uint32 time */
#define LTT_RING_CLOSED		(1ull << 63)	/* write_off: the ring takes no more reservations */
#define LTT_HEARTBEAT_CYCLES	(1ull << 30)	/* a heartbeat precedes an event this far after the last */
#define LTT_LOST_CAUSES		6		/* buffer_full too_big nested torn internal kernel */
#define LTT_MIN_MAX_PAYLOAD	(4096 - 128 - LTT_EVENT_HEADER)	/* max_payload of the smallest block */

enum ltt_clock_kind {
	LTT_CLOCK_TSC = 0,	/* rdtsc, inline */
	LTT_CLOCK_OTHER = 1,	/* ltt_clock_now_slow(): CLOCK_MONOTONIC, or a test clock */
};

/* One ring: n block slots of block_size bytes (doc/recorder.md, "The ring"). */
struct ltt_ring {
	/* Line 1: written by every writer (CAS on write_off), with what writers read. */
	uint64_t write_off;	/* seq << shift | pos; LTT_RING_CLOSED */
	uint64_t last_tsc;	/* cycle count of a recent reservation (a lower bound of the last) */
	char *data;		/* slot 0 (process-local pointer) */
	uint64_t *commit;	/* per slot: bytes (low 32) and events (high 32) committed, mod 2^32 */
	uint64_t pos_mask;	/* (block_size - 1) | LTT_RING_CLOSED */
	uint64_t ring_mask;	/* blocks * block_size - 1: data offset of write_off */
	uint32_t shift;		/* log2(block_size) */
	uint32_t slot_mask;	/* blocks - 1 */
	uint32_t limit;		/* block_size - 30: reservations end at or before it */
	uint32_t max_payload;	/* largest payload recorded: block_size - 128 - 6 */
	/* Line 2: read-only after creation. */
	uint32_t index;		/* ring number in the region */
	uint32_t blocks_log2;
	uint32_t overwrite;	/* flight mode: openers take the oldest complete block */
	uint32_t block_size;
	uint64_t data_off, commit_off, base_off;	/* offsets from the region start */
	uint32_t *base;		/* per slot: high half of commit when its block was opened */
	/* Per-CPU mode (ltt/static/rseq.h): nonzero when only restartable sequences on CPU `index`
	 * write write_off and commit[] without lock prefix; 0: every writer uses locked instructions
	 * (control rings, no rseq, LTT_RSEQ=0). */
	uint32_t cpu_owned;
	/* Kernel rings (kernel/N, recorder/kernel_drain.c): events arrive late, stamped with the time
	 * the kernel recorded them; a flush seals the open block at last_tsc (the last event's time),
	 * not at the present, so that later events never go back in time. */
	uint32_t late;
	/* Remote operations in progress on a cpu_owned ring (flushes from other threads, writers that
	 * migrated): while nonzero, the owner CPU's sequences use locked instructions too. */
	uint64_t remote;
	uint64_t pad1[1];
	/* Line 3: events dropped and not yet reported in an events_lost record, per cause. */
	uint64_t lost[8];
	/* Line 4: the consumer (discard mode): next block sequence number to write. */
	uint64_t consumed;
	/* Blocking mode (LTT_BLOCKING, recorder/blocking.c): writers waiting for the consumer to free a
	 * slot (futex word wake_seq, bumped by the consumer after it advances consumed), and, after a
	 * wait that timed out, consumed + 1 at that moment (0: none): later writers drop at once until
	 * the consumer moves again, so a stalled consumer costs the program one timeout, not one per event. */
	uint32_t waiters;
	uint32_t wake_seq;
	uint64_t stalled;
	uint64_t pad2[5];
	/* Line 5: flight mode accounting, by openers. */
	uint64_t overwritten_blocks;
	uint64_t overwritten_events;
	/* Flight snapshot in progress: nonzero k + 1 keeps blocks >= k from being overwritten (openers
	 * drop instead, counted buffer_full); 0: none. Written by the snapshot (recorder/snapshot.c). */
	uint64_t snap_hold;
	/* Snapshot trigger pending (recorder/flight_trigger.c): nonzero k + 1 keeps blocks >= k (the
	 * trigger event's block on) from being overwritten while ltt_trigger_pending is nonzero, as
	 * snap_hold does; a value left when no trigger is pending is ignored. Written by the raiser. */
	uint64_t trig_hold;
	uint64_t pad3[4];
} __attribute__((aligned(64)));

#define LTT_REGION_MAGIC	"LTTRING1"
#define LTT_REGION_OVERWRITE	1u	/* flags: flight mode (the CPU rings overwrite) */
#define LTT_REGION_KERNEL	2u	/* flags: ncpu kernel rings (kernel/N) follow the control rings */

/* The region: this header, the rings, then commit words, bases and blocks (doc/recorder.md). */
struct ltt_region {
	char magic[8];
	uint32_t version;	/* 1 */
	uint32_t flags;		/* LTT_REGION_* */
	uint32_t ncpu;		/* CPU rings 0 .. ncpu - 1 */
	uint32_t nrings;	/* ncpu + LTT_CONTROL_RINGS (+ ncpu kernel rings: LTT_REGION_KERNEL) */
	uint32_t block_size;
	uint32_t blocks;	/* per ring */
	uint64_t size;		/* bytes of the whole region */
	int32_t pid;		/* the recording process */
	uint32_t clock_kind;
	uint64_t cycles_per_second;
	uint64_t start_cycles;
	uint64_t start_time_ns;	/* CLOCK_REALTIME at start_cycles, ns since the Epoch */
	uint64_t reserved[18];	/* for the flight recorder (recovery metadata) */
	struct ltt_ring rings[];
} __attribute__((aligned(64)));

/* Control rings follow the CPU rings, in this order. */
enum ltt_control_ring {
	LTT_RING_FACILITIES,
	LTT_RING_PROCESSES,
	LTT_RING_INTERRUPTS,
	LTT_RING_PERSISTENT,
	LTT_CONTROL_RINGS
};

/* What the event path reads: one cache line. */
struct ltt_runtime {
	int recording;			/* ltt_is_recording() */
	uint32_t clock_kind;		/* enum ltt_clock_kind */
	struct ltt_region *region;	/* NULL when not recording; never unmapped (doc/recorder.md) */
	uint32_t rseq;			/* the CPU rings are cpu_owned (ltt/static/rseq.h); set with region */
};
extern struct ltt_runtime ltt_rt;

uint64_t ltt_clock_now_slow(void);
unsigned ltt_cpu_id_slow(void);

#pragma GCC visibility pop

/* The cycle counter (doc/format.md section 5). */
static ltt_always_inline uint64_t ltt_clock_now(void)
{
#if defined(__x86_64__)
	if (ltt_likely(ltt_rt.clock_kind == LTT_CLOCK_TSC))
		return __builtin_ia32_rdtsc();
#endif
	return ltt_clock_now_slow();
}

/* The CPU this thread runs on (a hint: the reservation stays correct if it migrates). */
static ltt_always_inline unsigned ltt_cpu_id(void)
{
#if defined(LTT_HAVE_RSEQ) && defined(__x86_64__)
	if (ltt_likely(__rseq_size != 0)) {
		char *tp;
		int32_t cpu;

		__asm__ ("mov %%fs:0, %0" : "=r"(tp));
		cpu = *(const volatile int32_t *)(tp + __rseq_offset + offsetof(struct rseq, cpu_id));
		if (ltt_likely(cpu >= 0))
			return (unsigned)cpu;
	}
#endif
	return ltt_cpu_id_slow();
}

#endif
