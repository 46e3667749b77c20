/* SPDX-License-Identifier: MIT */
/* recorder/func_hooks.c: the compiler hooks of function tracing (doc/recorder.md "Function tracing").
 * -finstrument-functions calls __cyg_profile_func_enter/exit around every function; -pg calls mcount
 * (after the prologue) or, with -mfentry, __fentry__ (first instruction) at entry only: the assembly
 * halves of those (func_x86_64.S) call ltt_func_pg_entry() here, which replaces the function's return
 * address with ltt_func_pg_return, whose C half ltt_func_pg_exit() records the exit and gives the
 * original address back.
 *
 * Each thread keeps a shadow stack (struct ltt_func_thread): one frame per call entered while tracing
 * was on, so that an exit knows whether its entry was recorded, when it began (minimum duration) and,
 * for -pg, where to return. Safe in signal handlers: a hook that interrupts another hook of the same
 * thread (t->busy) does nothing, and since a handler returns before the hook it interrupted goes on,
 * its calls are skipped as a whole, entry and exit alike; a handler that interrupts the program
 * between hooks pushes and pops above the interrupted frames. Nothing here is instrumented: libltt is
 * never built with the hooks' flags, and every function carries no_instrument_function besides. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "func_internal.h"

/* The generated encoders of eventdefs/func.xml ($(BUILD)/gen/func.h). The facility is registered by
 * ltt_func_start() only (a trace of a program that does not trace functions does not list it). */
#define LTT_GEN_REGISTER(fac) 0
#include "func.h"

#define NOINST __attribute__((no_instrument_function))
#define barrier() __asm__ __volatile__("" ::: "memory")	/* orders the busy flag with the frames for
								 * this thread's signal handlers only */

/* The calling thread's frames, NULL when it has none. */
static ltt_always_inline NOINST struct ltt_func_frame *func_stack(struct ltt_func_thread *t)
{
	struct ltt_func_frame *s = t->stack;

	if (ltt_likely((uintptr_t)s > (uintptr_t)LTT_FUNC_DEAD))
		return s;
	return s ? NULL : ltt_func_stack_slow(t);
}

/* The entry of frame f (its addr set): recorded or held when the depth and the rules let it; returns
 * the frame's flags. */
static ltt_always_inline NOINST unsigned func_entry(struct ltt_func_thread *t, struct ltt_func_frame *f)
{
	if (ltt_unlikely(t->rec_depth >= ltt_func_cfg.max_depth) ||
	    (ltt_unlikely(ltt_func_cfg.rules) && !ltt_func_selected(f->addr)))
		return 0;
	t->rec_depth++;
	if (ltt_unlikely(ltt_func_cfg.min_cycles))
		f->tsc = ltt_clock_now();	/* held: func.call at the exit if long enough */
	else
		trace_func_entry(f->addr);
	return LTT_FUNC_F_REC;
}

/* func.call of a call long enough (minimum-duration mode), encoded here rather than by the generated
 * trace_func_call(): its `cycles` run from the entry to the event's own time (the cycle count its
 * header carries, read inside the reservation), so that a reader's start (time - cycles) is the
 * entry's time exactly, even when the thread was preempted between the hook's test and the event. */
static NOINST void func_call(const struct ltt_func_frame *f)
{
	const unsigned on = ltt_event_enabled(ltt_facility_func_enabled, 2);
	struct ltt_slot s;
	uint64_t now, full, d;
	uint32_t tid, t32;

	if (!(on & LTT_EVENT_ON))
		return;
	tid = ltt_tid();
	now = ltt_clock_now();	/* at or before the reservation's own read */
	if (!ltt_event_reserve(&s, &ltt_facility_func, 2, 20, 0))
		return;
	memcpy(&t32, s.payload - 4, 4);	/* the header's low 32 bits of the cycle count */
	full = now + (uint64_t)(int64_t)(int32_t)(t32 - (uint32_t)now);
	d = full - f->tsc;
	memcpy(s.payload, &tid, 4);
	memcpy(s.payload + 4, &f->addr, 8);
	memcpy(s.payload + 12, &d, 8);
	ltt_event_commit(&s);
	if (on & LTT_EVENT_TRIGGER)
		ltt_snapshot_trigger(&ltt_facility_func, 2);
}

static ltt_always_inline NOINST void func_exit(struct ltt_func_thread *t, const struct ltt_func_frame *f)
{
	uint64_t min = ltt_func_cfg.min_cycles;

	if (!(f->slot & LTT_FUNC_F_REC))
		return;
	t->rec_depth--;
	if (ltt_likely(!min)) {
		trace_func_exit(f->addr);
	} else if (ltt_clock_now() - f->tsc >= min) {
		func_call(f);
	}
}

/* ---- -finstrument-functions ------------------------------------------------------------------- */

__attribute__((visibility("default"))) NOINST void __cyg_profile_func_enter(void *fn, void *site);
__attribute__((visibility("default"))) NOINST void __cyg_profile_func_exit(void *fn, void *site);

static NOINST void cyg_enter(void *fn)
{
	struct ltt_func_thread *t = &ltt_func_self;
	struct ltt_func_frame *s;

	if (t->busy)
		return;
	t->busy = 1;
	barrier();
	s = func_stack(t);
	if (ltt_likely(s != NULL)) {
		if (ltt_likely(t->depth < LTT_FUNC_STACK)) {
			struct ltt_func_frame *f = &s[t->depth];

			f->addr = (uint64_t)(uintptr_t)fn;
			f->slot = 0;
			f->slot = func_entry(t, f);
		}
		t->depth++;	/* entries beyond the stack are counted, not recorded */
	}
	barrier();
	t->busy = 0;
}

void __cyg_profile_func_enter(void *fn, void *site)
{
	(void)site;
	/* Off: one load and one branch. Relaxed: a hint, like the generated events' flags. */
	if (ltt_likely(!ltt_read(&ltt_func_on)))
		return;
	cyg_enter(fn);
}

static NOINST void cyg_exit(struct ltt_func_thread *t, void *fn)
{
	uint64_t a = (uint64_t)(uintptr_t)fn;

	if (t->busy)
		return;
	t->busy = 1;
	barrier();
	if (ltt_likely(t->depth <= LTT_FUNC_STACK)) {
		struct ltt_func_frame *s = t->stack;
		uint32_t k = t->depth;

		/* A frame left by longjmp (its exit never came): the calls above the one returning now
		 * are closed with it. No frame for fn: an exit whose entry was not seen; nothing popped. */
		while (k && s[k - 1].addr != a)
			k--;
		if (k) {
			while (t->depth > k)
				func_exit(t, &s[--t->depth]);
			func_exit(t, &s[k - 1]);
			t->depth = k - 1;
		}
	} else {
		t->depth--;
	}
	barrier();
	t->busy = 0;
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	struct ltt_func_thread *t = &ltt_func_self;

	(void)site;
	/* No frame open on this thread (tracing never on here): one load and one branch. An exit
	 * after tracing stopped still pops its frame (its event is not recorded any more). */
	if (ltt_likely(!t->depth))
		return;
	cyg_exit(t, fn);
}

/* ---- -pg (mcount, __fentry__) ----------------------------------------------------------------- */

/* self: the hook's call site in the function (its first instruction with __fentry__); slot: where
 * the function's return address is. Called with tracing on. */
NOINST void ltt_func_pg_entry(uint64_t self, uint64_t *slot)
{
	struct ltt_func_thread *t = &ltt_func_self;
	struct ltt_func_frame *s;
	uint64_t at = (uint64_t)(uintptr_t)slot;

	if (t->busy)
		return;
	t->busy = 1;
	barrier();
	s = func_stack(t);
	if (ltt_likely(s != NULL)) {
		/* Frames of the caller's callees that never returned through us (longjmp): their slot
		 * is below this one, in stack memory given up. (A slot equal to this one is a tail
		 * call's caller: it returns after this function, through the same slot.) */
		while (t->depth && (s[t->depth - 1].slot & LTT_FUNC_F_PG) &&
		       (s[t->depth - 1].slot & ~(uint64_t)LTT_FUNC_F_MASK) < at)
			func_exit(t, &s[--t->depth]);
		if (ltt_likely(t->depth < LTT_FUNC_STACK)) {
			struct ltt_func_frame *f = &s[t->depth];

			f->addr = self;
			f->ret = *slot;
			f->slot = at | LTT_FUNC_F_PG;
			f->slot |= func_entry(t, f);
			t->depth++;
			*slot = (uint64_t)(uintptr_t)ltt_func_pg_return;
		}
	}
	barrier();
	t->busy = 0;
}

/* sp: the stack pointer after the function returned (its slot + 8). Returns where it returns to. */
NOINST uint64_t ltt_func_pg_exit(uint64_t sp)
{
	struct ltt_func_thread *t = &ltt_func_self;
	struct ltt_func_frame *s = t->stack;
	uint64_t at = sp - 8;
	uint32_t busy = t->busy;

	t->busy = 1;
	barrier();
	while (t->depth && (uintptr_t)s > (uintptr_t)LTT_FUNC_DEAD) {
		struct ltt_func_frame *f = &s[t->depth - 1];
		uint64_t fs = f->slot & ~(uint64_t)LTT_FUNC_F_MASK;

		t->depth--;
		func_exit(t, f);
		if ((f->slot & LTT_FUNC_F_PG) && fs == at) {
			barrier();
			t->busy = busy;
			return f->ret;
		}
		/* below: a frame left by longjmp, closed on the way */
	}
	/* A replaced return address with no frame: cannot go on (never seen; would be a bug). */
	static const char msg[] = "ltt: function tracing: a return through ltt_func_pg_return with no "
				  "frame on this thread's shadow stack; aborting\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		abort();
	abort();
}
