/* SPDX-License-Identifier: MIT */
/* recorder/func_open.c: the calls open on each thread, written with every flight snapshot and the
 * crash snapshot (doc/recorder.md "Function tracing", doc/format.md "The func facility"). A snapshot
 * keeps what the rings hold: in a long run the entries of the calls that lead to the crashing function
 * were overwritten long before, and their chain would be lost. Each thread's shadow stack holds them:
 * before the rings are copied, the snapshot records one func.open (tid, addr, depth) per recorded
 * frame of every thread, outermost first, which readers join to what the rings show.
 *
 * Threads are found through a registry of fixed size (LTT_FUNC_THREADS slots, taken by compare-and-
 * swap at a thread's first hook: no lock, no allocation, async-signal-safe). A thread that ends clears
 * its slot and waits until no snapshot reads (readers) before its frames are unmapped; a snapshot
 * never waits. Threads beyond LTT_FUNC_THREADS with frames at once are not written (said in
 * doc/recorder.md). */
#include <sched.h>
#include <string.h>

#include "func_internal.h"
#include "ring.h"

#define LTT_GEN_REGISTER(fac) 0
#include "func.h"

#define LTT_FUNC_THREADS 4096
#define NOINST __attribute__((no_instrument_function))

struct reg {
	struct ltt_func_thread *t;	/* NULL: free */
	uint32_t tid;
};
static struct reg reg[LTT_FUNC_THREADS];
static uint32_t readers;

NOINST void ltt_func_open_register(struct ltt_func_thread *t)
{
	uint32_t tid = ltt_tid();

	for (unsigned i = 0; i < LTT_FUNC_THREADS; i++) {
		struct ltt_func_thread *z = NULL;

		if (__atomic_load_n(&reg[i].t, __ATOMIC_RELAXED))
			continue;
		__atomic_store_n(&reg[i].tid, tid, __ATOMIC_RELAXED);
		/* Release: the tid before the pointer (pairs with the acquire load of the snapshot); a
		 * reader that sees a slot taken between these is harmless (it skips a NULL t). */
		if (__atomic_compare_exchange_n(&reg[i].t, &z, t, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
			return;
	}
}

NOINST void ltt_func_open_unregister(struct ltt_func_thread *t)
{
	for (unsigned i = 0; i < LTT_FUNC_THREADS; i++)
		if (__atomic_load_n(&reg[i].t, __ATOMIC_RELAXED) == t) {
			/* Sequentially consistent with the readers' increment: either the snapshot sees
			 * the slot cleared, or this thread sees it reading and waits until it is done. */
			__atomic_store_n(&reg[i].t, NULL, __ATOMIC_SEQ_CST);
			while (__atomic_load_n(&readers, __ATOMIC_SEQ_CST))
				sched_yield();
			return;
		}
}

/* func.open of one frame, for thread tid. */
static NOINST void open_event(uint32_t tid, uint64_t addr, uint32_t depth)
{
	struct ltt_slot s;

	if (!(ltt_event_enabled(ltt_facility_func_enabled, 3) & LTT_EVENT_ON) ||
	    !ltt_event_reserve(&s, &ltt_facility_func, 3, 16, 0))
		return;
	memcpy(s.payload, &tid, 4);
	memcpy(s.payload + 4, &addr, 8);
	memcpy(s.payload + 12, &depth, 4);
	ltt_event_commit(&s);
}

NOINST void ltt_func_open_emit(void)
{
	if (!ltt_read(&ltt_func_on))
		return;
	__atomic_add_fetch(&readers, 1, __ATOMIC_SEQ_CST);
	for (unsigned i = 0; i < LTT_FUNC_THREADS; i++) {
		/* Acquire: pairs with the registration's release (tid set before). */
		struct ltt_func_thread *t = __atomic_load_n(&reg[i].t, __ATOMIC_ACQUIRE);
		struct ltt_func_frame *s;
		uint32_t n, d = 0, tid;

		if (!t)
			continue;
		tid = __atomic_load_n(&reg[i].tid, __ATOMIC_RELAXED);
		/* Another thread's frames, read while it runs: each frame is read once, whole words;
		 * a frame it pushes or pops meanwhile is written or not, as the snapshot's cut falls. */
		s = __atomic_load_n(&t->stack, __ATOMIC_RELAXED);
		n = __atomic_load_n(&t->depth, __ATOMIC_RELAXED);
		if ((uintptr_t)s <= (uintptr_t)LTT_FUNC_DEAD)
			continue;
		if (n > LTT_FUNC_STACK)
			n = LTT_FUNC_STACK;
		for (uint32_t k = 0; k < n; k++) {
			uint64_t slot = __atomic_load_n(&s[k].slot, __ATOMIC_RELAXED);
			uint64_t addr = __atomic_load_n(&s[k].addr, __ATOMIC_RELAXED);

			/* recorded frames only (a frame the depth or the rules left out has no calls) */
			if (slot & LTT_FUNC_F_REC)
				open_event(tid, addr, d++);
		}
	}
	__atomic_sub_fetch(&readers, 1, __ATOMIC_SEQ_CST);
}
