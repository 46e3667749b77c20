/* SPDX-License-Identifier: MIT */
/* recorder/func_signal.c: the program's signal handlers while function tracing records (doc/recorder.md
 * "Function tracing", Safety). A handler that runs inside a hook of its thread and leaves by
 * siglongjmp (an interpreter's error recovery, a timeout) would leave the hook half done: its guard
 * set, a frame half pushed, an event reserved and never committed. So while LTT_FUNCTIONS is on, the
 * handlers the program installs with sigaction() or signal() (recorder/flight_handlers.c) are
 * installed behind libltt's own (tramp): a signal that arrives while a hook of the thread runs is held
 * (its siginfo kept) and raised again for the thread when the hook ends (ltt_func_sig_redeliver: a
 * few hundred nanoseconds later, with the same siginfo through rt_tgsigqueueinfo); any other signal
 * goes to the program's handler at once. Faults (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGSYS sent
 * by the kernel) are never held: they would come back at once. sigaction() reports the program's own
 * handler and flags; SA_RESETHAND is applied by tramp when it calls the handler (the kernel's would
 * reset the disposition before a held signal is raised again). */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "flight.h"
#include "func_internal.h"

#define NOINST __attribute__((no_instrument_function))

struct handler {
	void *fn;	/* the program's handler, NULL: not wrapped */
	int flags;	/* its sa_flags as it gave them */
};
static struct handler prog[NSIG];

static int is_fault(int sig, const siginfo_t *si)
{
	return si && si->si_code > 0 &&
	       (sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGTRAP || sig == SIGSYS);
}

static NOINST void tramp(int sig, siginfo_t *si, void *uc)
{
	struct ltt_func_thread *t = &ltt_func_self;
	/* Acquire: pairs with the release store of ltt_func_sigaction() (flags before fn). */
	void *fn = __atomic_load_n(&prog[sig].fn, __ATOMIC_ACQUIRE);
	int flags = __atomic_load_n(&prog[sig].flags, __ATOMIC_RELAXED);
	uint64_t here = (uint64_t)(uintptr_t)__builtin_frame_address(0);

	/* A hook of this thread runs (below us on the stack: we interrupted it; a guard left by an
	 * unwrapped handler's siglongjmp is stale, ltt_func_guard_stale() says so and clears it) */
	if (t->guard && t->guard != LTT_FUNC_GUARD_VFORK && !is_fault(sig, si) &&
	    !ltt_func_guard_stale(t, here)) {
		if (!t->deferred_sig) {
			t->deferred_sig = sig;
			memcpy(&t->deferred_info, si, sizeof(*si));
		}
		t->deferred |= 1ull << (sig - 1);
		return;
	}
	if (!fn)
		return;	/* the program set SIG_DFL or SIG_IGN meanwhile: raced with this delivery */
	if (flags & SA_RESETHAND) {
		struct sigaction dfl;

		memset(&dfl, 0, sizeof(dfl));
		dfl.sa_handler = SIG_DFL;
		ltt_real_sigaction(sig, &dfl, NULL);
		__atomic_store_n(&prog[sig].fn, NULL, __ATOMIC_RELAXED);
	}
	if (flags & SA_SIGINFO)
		((void (*)(int, siginfo_t *, void *))fn)(sig, si, uc);
	else
		((void (*)(int))fn)(sig);
}

NOINST void ltt_func_sig_redeliver(struct ltt_func_thread *t)
{
	int saved = errno, first = t->deferred_sig;
	uint64_t m = t->deferred;
	pid_t pid = getpid(), tid = (pid_t)ltt_tid();
	siginfo_t si;

	/* Taken first: a signal that arrives from here on finds the guard clear and runs. */
	memcpy(&si, &t->deferred_info, sizeof(si));
	t->deferred_sig = 0;
	t->deferred = 0;
	if (first) {
		m &= ~(1ull << (first - 1));
		/* to its own thread the kernel takes any si_code: the handler sees the original one */
		if (syscall(SYS_rt_tgsigqueueinfo, pid, tid, first, &si) < 0)
			syscall(SYS_tgkill, pid, tid, first);
	}
	for (int sig = 1; m; sig++, m >>= 1)
		if (m & 1)
			syscall(SYS_tgkill, pid, tid, sig);
	errno = saved;
}

int ltt_func_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct handler prev = { NULL, 0 };
	struct sigaction tmp;
	int rc, wrap = sig > 0 && sig < NSIG && ltt_func_enabled();

	if (wrap) {
		prev.fn = __atomic_load_n(&prog[sig].fn, __ATOMIC_ACQUIRE);
		prev.flags = prog[sig].flags;
	}
	if (wrap && act) {
		void *fn = (act->sa_flags & SA_SIGINFO) ? (void *)act->sa_sigaction : (void *)act->sa_handler;

		if (fn == (void *)SIG_DFL || fn == (void *)SIG_IGN) {
			__atomic_store_n(&prog[sig].fn, NULL, __ATOMIC_RELAXED);
		} else {
			__atomic_store_n(&prog[sig].flags, act->sa_flags, __ATOMIC_RELAXED);
			/* Release: the flags before the handler (pairs with tramp's acquire). */
			__atomic_store_n(&prog[sig].fn, fn, __ATOMIC_RELEASE);
			tmp = *act;
			tmp.sa_sigaction = tramp;
			tmp.sa_flags = (act->sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
			act = &tmp;
		}
	}
	rc = ltt_real_sigaction(sig, act, old);
	if (rc && wrap && act) {	/* refused: the program's handler is still the one before */
		__atomic_store_n(&prog[sig].flags, prev.flags, __ATOMIC_RELAXED);
		__atomic_store_n(&prog[sig].fn, prev.fn, __ATOMIC_RELEASE);
	}
	if (!rc && wrap && old && (old->sa_flags & SA_SIGINFO) && old->sa_sigaction == tramp && prev.fn) {
		old->sa_flags = prev.flags;
		if (prev.flags & SA_SIGINFO)
			old->sa_sigaction = (void (*)(int, siginfo_t *, void *))prev.fn;
		else
			old->sa_handler = (void (*)(int))prev.fn;
	}
	return rc;
}
