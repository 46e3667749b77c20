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
 * for -pg, where to return. Every frame holds its stack position (-pg: the return address's slot;
 * -finstrument-functions: the hook's frame address), so frames a longjmp skipped are found below the
 * stack pointer and closed (their exit recorded) by the thread's next hook, in every build.
 *
 * Signals: the program's handlers are held while a hook of their thread runs (func_signal.c: the
 * handler runs when the hook ends), so a handler that siglongjmps never leaves a hook half done. A
 * handler libltt could not wrap (installed before tracing started, by the raw system call) that
 * interrupts a hook finds the guard (t->guard: the running hook's stack position) and does nothing:
 * the handler returns before the hook goes on, so its calls are skipped whole, entry and exit alike;
 * if it siglongjmps instead, the guard is found stale by position at the thread's next hook and
 * cleared. Nothing here is instrumented: libltt is never built with the hooks' flags, and every
 * function carries no_instrument_function besides. */
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "func_internal.h"
#include "ring.h"

/* The generated encoders of eventdefs/func.xml ($(BUILD)/gen/func.h). The facility is registered by
 * ltt_func_start() only (a trace of a program that does not trace functions does not list it). */
#define LTT_GEN_REGISTER(fac) 0
#include "func.h"

#define NOINST __attribute__((no_instrument_function))
#define barrier() __asm__ __volatile__("" ::: "memory")	/* orders the guard with the frames for
								 * this thread's signal handlers only */

_Static_assert(offsetof(struct ltt_func_thread, guard) == 16, "func_x86_64.S's vfork() reads guard at 16");

/* The hooks need libltt's longjmp and siglongjmp (func_jmp.c) linked too (func_x86_64.S's vfork comes
 * with ltt_func_pg_return, referenced below). */
__attribute__((used)) static const int *const func_jmp_keep = &ltt_func_jmp_linked;

/* A frame's stack position (its slot without the flag bits). */
static ltt_always_inline NOINST uint64_t pos_of(const struct ltt_func_frame *f)
{
	return f->slot & ~(uint64_t)LTT_FUNC_F_MASK;
}

/* Takes the guard for the hook at stack position pos: 0 when the hook must do nothing. */
static ltt_always_inline NOINST int guard_take(struct ltt_func_thread *t, uint64_t pos)
{
	if (ltt_unlikely(t->guard) && !ltt_func_guard_stale(t, pos))
		return 0;
	t->guard = pos;
	barrier();
	return 1;
}

static ltt_always_inline NOINST void guard_drop(struct ltt_func_thread *t)
{
	barrier();
	t->guard = 0;
	/* a signal held while the hook ran: its handler runs now (after the guard is clear) */
	if (ltt_unlikely(t->deferred))
		ltt_func_sig_redeliver(t);
}

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

/* Events a hook could not record: counted lost (cause internal) on this CPU's ring. */
static NOINST void func_lost(uint64_t n)
{
	struct ltt_region *rg = ltt_read(&ltt_rt.region);
	struct ltt_ring *r;

	if (!rg || !n)
		return;
	r = &rg->rings[ltt_cpu_id() % rg->ncpu];
	/* reported in the next block the ring opens (ring.c); a closed ring records nothing more */
	if (!(ltt_read(&r->write_off) & LTT_RING_CLOSED))
		ltt_add(&r->lost[LTT_LOST_CAUSE_INTERNAL], n);
}

NOINST int ltt_func_guard_stale(struct ltt_func_thread *t, uint64_t pos)
{
	uint64_t g = t->guard;
	stack_t ss;

	if (g == LTT_FUNC_GUARD_VFORK) {
		/* a vfork child runs on its parent's stack and thread state until it execs: its calls
		 * would be recorded as the parent's. Not recorded, counted (the parent adds them to the
		 * lost events when vfork returns to it: ltt_func_vfork_parent()). */
		t->vfork_lost++;
		return 0;
	}
	/* Positions compare on one stack only: a handler on the alternate signal stack that
	 * interrupted a hook on the thread's stack leaves it alone; a guard set on the alternate
	 * stack seen from the thread's stack is a handler's hook that was left. */
	if (!sigaltstack(NULL, &ss) && !(ss.ss_flags & SS_DISABLE)) {
		uint64_t lo = (uint64_t)(uintptr_t)ss.ss_sp;
		int on_alt = !!(ss.ss_flags & SS_ONSTACK), g_alt = g >= lo && g - lo < ss.ss_size;

		if (on_alt && !g_alt)
			return 0;
		if (!on_alt && g_alt)
			goto stale;
	}
	/* below the guard's hook: a signal handler that interrupted it (it returns first) */
	if (pos < g)
		return 0;
stale:
	/* At or above it: that hook is gone (a signal handler that interrupted it siglongjmp'd out).
	 * Its frames are consistent one by one; the recorded count is taken again from them. */
	t->guard = 0;
	if ((uintptr_t)t->stack > (uintptr_t)LTT_FUNC_DEAD) {
		uint32_t n = t->depth < LTT_FUNC_STACK ? t->depth : LTT_FUNC_STACK, r = 0;

		for (uint32_t i = 0; i < n; i++)
			r += (t->stack[i].slot & LTT_FUNC_F_REC) != 0;
		t->rec_depth = r;
	}
	return 1;
}

long ltt_func_vfork_parent(long ret, uint64_t guard)
{
	struct ltt_func_thread *t = &ltt_func_self;
	uint64_t n = t->vfork_lost;

	/* the child exec'd or exited: the thread's state is the parent's again */
	t->vfork_lost = 0;
	t->guard = guard;
	if (n)
		func_lost(n);
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

/* longjmp to a frame whose stack pointer is sp (func_jmp.c): the frames below it are gone; closed
 * now, their exit recorded at this time. A target not above us is another stack's (a handler on the
 * alternate signal stack jumping back, swapcontext): left to the hooks, which close by position. */
NOINST void ltt_func_longjmp(uint64_t sp)
{
	struct ltt_func_thread *t = &ltt_func_self;
	struct ltt_func_frame *s = t->stack;
	uint64_t here = (uint64_t)(uintptr_t)__builtin_frame_address(0);

	if (!t->depth || sp <= here || (uintptr_t)s <= (uintptr_t)LTT_FUNC_DEAD || !guard_take(t, here))
		return;
	if (t->depth > LTT_FUNC_STACK) {
		if (pos_of(&s[LTT_FUNC_STACK - 1]) >= sp)
			goto out;	/* entries beyond the stack: whether they are left is not known */
		t->depth = LTT_FUNC_STACK;
	}
	while (t->depth && pos_of(&s[t->depth - 1]) < sp)
		func_exit(t, &s[--t->depth]);
out:
	guard_drop(t);
}

/* ---- -finstrument-functions ------------------------------------------------------------------- */

__attribute__((visibility("default"))) NOINST void __cyg_profile_func_enter(void *fn, void *site);
__attribute__((visibility("default"))) NOINST void __cyg_profile_func_exit(void *fn, void *site);

/* A hook's stack position: the stack pointer of the function that called it (the hook's canonical
 * frame address: its frame pointer + 16). The same for the entry and the exit of one call; lower
 * for its callees; equal for the functions gcc inlined into it (their hooks stay in its body). */
#define CYG_POS() ((uint64_t)(uintptr_t)__builtin_frame_address(0) + 16)

/* Before the entry of fn at pos, called from site: closes the frames a longjmp left. Those below pos
 * are gone. At pos are the functions fn is inlined into (same stack pointer; gcc gives inlined hooks
 * the site of the function they are inlined into) and earlier calls at this very place that a longjmp
 * left: a frame of another site is one of those, and so is a frame of fn itself (a function is not
 * inlined into itself), with every frame above it. */
static NOINST void cyg_stale_enter(struct ltt_func_thread *t, struct ltt_func_frame *s, uint64_t pos,
				   uint64_t a, uint64_t site)
{
	uint32_t k, low = t->depth;

	while (t->depth && pos_of(&s[t->depth - 1]) < pos)
		func_exit(t, &s[--t->depth]);
	for (k = t->depth; k && pos_of(&s[k - 1]) == pos; k--)
		if (s[k - 1].ret != site || s[k - 1].addr == a)
			low = k - 1;
	while (t->depth > low)
		func_exit(t, &s[--t->depth]);
}

static NOINST void cyg_enter(struct ltt_func_thread *t, void *fn, void *site, uint64_t pos)
{
	struct ltt_func_frame *s;

	if (!guard_take(t, pos))
		return;
	s = func_stack(t);
	if (ltt_likely(s != NULL)) {
		uint64_t a = (uint64_t)(uintptr_t)fn;

		if (ltt_unlikely(ltt_func_cfg.args))
			ltt_func_args_cyg(a); /* the values are not at this hook: said once */

		/* entries beyond the stack (not kept) end where the last kept frame is: at or above
		 * it, they were left by a longjmp */
		if (ltt_unlikely(t->depth > LTT_FUNC_STACK) && pos >= pos_of(&s[LTT_FUNC_STACK - 1]))
			t->depth = LTT_FUNC_STACK;
		if (t->depth && t->depth <= LTT_FUNC_STACK && ltt_unlikely(pos_of(&s[t->depth - 1]) <= pos))
			cyg_stale_enter(t, s, pos, a, (uint64_t)(uintptr_t)site);
		if (ltt_likely(t->depth < LTT_FUNC_STACK)) {
			struct ltt_func_frame *f = &s[t->depth];

			f->addr = a;
			f->ret = (uint64_t)(uintptr_t)site;
			f->slot = pos;
			f->slot = pos | func_entry(t, f);
		}
		t->depth++;	/* entries beyond the stack are counted, not recorded */
	}
	guard_drop(t);
}

void __cyg_profile_func_enter(void *fn, void *site)
{
	/* Off: one load and one branch. Relaxed: a hint, like the generated events' flags. */
	if (ltt_likely(!ltt_read(&ltt_func_on)))
		return;
	cyg_enter(&ltt_func_self, fn, site, CYG_POS());
}

static NOINST void cyg_exit(struct ltt_func_thread *t, void *fn, uint64_t pos)
{
	uint64_t a = (uint64_t)(uintptr_t)fn;
	struct ltt_func_frame *s = t->stack;

	if (!guard_take(t, pos))
		return;
	if (ltt_unlikely(t->depth > LTT_FUNC_STACK)) {
		if (pos < pos_of(&s[LTT_FUNC_STACK - 1])) {
			t->depth--;	/* an entry beyond the stack returns */
			goto out;
		}
		t->depth = LTT_FUNC_STACK;	/* those entries were left by a longjmp */
	}
	/* callees a longjmp left: below this call's position */
	while (t->depth && pos_of(&s[t->depth - 1]) < pos)
		func_exit(t, &s[--t->depth]);
	if (ltt_likely(t->depth) && ltt_likely(s[t->depth - 1].addr == a)) {
		t->depth--;
		func_exit(t, &s[t->depth]);
	} else {
		uint32_t k = t->depth;

		/* Not on top: the frames above fn's were left; no frame of fn: an exit whose entry was
		 * not seen (tracing started inside the call), nothing popped. */
		while (k && s[k - 1].addr != a)
			k--;
		if (k) {
			while (t->depth > k)
				func_exit(t, &s[--t->depth]);
			func_exit(t, &s[k - 1]);
			t->depth = k - 1;
		}
	}
out:
	guard_drop(t);
}

void __cyg_profile_func_exit(void *fn, void *site)
{
	struct ltt_func_thread *t = &ltt_func_self;

	(void)site;
	/* No frame open on this thread (tracing never on here): one load and one branch. An exit
	 * after tracing stopped still pops its frame (its event is not recorded any more). */
	if (ltt_likely(!t->depth))
		return;
	cyg_exit(t, fn, CYG_POS());
}

/* ---- -pg (mcount, __fentry__) ----------------------------------------------------------------- */

/* self: the hook's call site in the function (its first instruction with __fentry__); slot: where
 * the function's return address is (its position). Called with tracing on. */
NOINST void ltt_func_pg_entry(uint64_t self, uint64_t *slot, const uint64_t *regs)
{
	struct ltt_func_thread *t = &ltt_func_self;
	struct ltt_func_frame *s;
	uint64_t at = (uint64_t)(uintptr_t)slot;

	if (!guard_take(t, at)) {
		if (t->guard == LTT_FUNC_GUARD_VFORK)
			t->vfork_lost++;	/* and its exit */
		return;
	}
	s = func_stack(t);
	if (ltt_likely(s != NULL)) {
		if (ltt_unlikely(t->depth > LTT_FUNC_STACK))
			t->depth = LTT_FUNC_STACK;	/* -finstrument-functions entries not kept, below */
		/* Frames of the caller's callees that never returned through us (longjmp): their
		 * position is below this slot, in stack memory given up, or at this slot when it holds
		 * a return address again (a call made there since). A frame at this slot that still
		 * returns through ltt_func_pg_return is a tail call's caller: it returns after this
		 * function, through the same slot. */
		while (t->depth && (pos_of(&s[t->depth - 1]) < at ||
				    (pos_of(&s[t->depth - 1]) == at && *slot != (uint64_t)(uintptr_t)ltt_func_pg_return)))
			func_exit(t, &s[--t->depth]);
		if (ltt_likely(t->depth < LTT_FUNC_STACK)) {
			struct ltt_func_frame *f = &s[t->depth];

			f->addr = self;
			f->ret = *slot;
			f->slot = at | LTT_FUNC_F_PG;
			f->slot |= func_entry(t, f);
			if (ltt_unlikely(ltt_func_cfg.args) && (f->slot & LTT_FUNC_F_REC))
				f->slot |= ltt_func_args_entry(self, regs, slot);
			t->depth++;
			*slot = (uint64_t)(uintptr_t)ltt_func_pg_return;
		}
	}
	guard_drop(t);
}

/* sp: the stack pointer after the function returned (its slot + 8); regs: its return value registers
 * (rax, xmm0 at 2). Returns where it returns to. */
NOINST uint64_t ltt_func_pg_exit(uint64_t sp, const uint64_t *regs)
{
	struct ltt_func_thread *t = &ltt_func_self;
	struct ltt_func_frame *s = t->stack;
	uint64_t at = sp - 8;
	uint64_t guard = t->guard;

	/* Runs whatever the guard (the return address must be given back); holds it meanwhile, at
	 * the returning function's position, and gives the one it found back. */
	t->guard = at;
	barrier();
	if (ltt_unlikely(t->depth > LTT_FUNC_STACK))
		t->depth = LTT_FUNC_STACK;
	while (t->depth && (uintptr_t)s > (uintptr_t)LTT_FUNC_DEAD) {
		struct ltt_func_frame *f = &s[t->depth - 1];

		t->depth--;
		if ((f->slot & LTT_FUNC_F_PG) && pos_of(f) == at) {
			uint64_t ret = f->ret;

			if (ltt_unlikely(f->slot & LTT_FUNC_F_RET))
				ltt_func_args_return(f->addr, regs);
			func_exit(t, f);

			barrier();
			t->guard = guard;
			if (ltt_unlikely(t->deferred) && !guard)
				ltt_func_sig_redeliver(t);
			return ret;
		}
		/* below: a frame left by longjmp, closed on the way */
		func_exit(t, f);
	}
	/* A replaced return address with no frame: cannot go on (never seen; would be a bug). */
	static const char msg[] = "ltt: function tracing: a return through ltt_func_pg_return with no "
				  "frame on this thread's shadow stack; aborting\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		abort();
	abort();
}
