/* SPDX-License-Identifier: MIT */
/* recorder/sample_stack.c: stack sampling (LTT_STACK_SAMPLE_HZ). Each thread of the program gets a POSIX
 * timer on its own CPU-time clock that signals that very thread (SIGEV_THREAD_ID) every 1/hz s of the
 * CPU time it uses; the handler unwinds the interrupted stack with libunwind's local unwinder
 * (unw_init_local2 on the signal's context, unw_step: async-signal-safe for the local address space,
 * no allocation, no lock with the per-thread cache) and records core.stack_sample holding only what
 * changed since the thread's previous sample, as TraceLog's `sam str`: the number of unchanged frames
 * from the bottom, the previous depth, then the new frames, bottom to top. The signal is a real-time
 * one (SIGRTMIN + 4 unless LTT_STACK_SIGNAL / ltt_options.stack_signal says otherwise), so that a
 * program's own SIGPROF and timers are left alone; a signal the program already handles is refused.
 * Everything but the handler runs on the sampler thread (sampler.c), which creates and deletes the
 * timers as threads come and go. */
#define UNW_LOCAL_ONLY
#include <errno.h>
#include <libunwind.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <time.h>

#include "profile.h"
#include "recorder.h"
#include "stackdelta.h"

#define MAX_SLOTS	4096u	/* threads sampled at once; more are not sampled (and said so once) */
#define FULL_EVERY	64u	/* a full stack (match 0) every this many samples of a thread: a reader
				 * starting in the middle (a flight snapshot) finds its footing again */
#define DEPTH_UNKNOWN	0xFFFFu	/* `depth` of a sample after a lost one: the reader starts over */

struct stack_slot {
	uint32_t tid;		/* 0: free */
	uint32_t seen;		/* scan generation */
	timer_t timer;
	uint32_t nsamples;
	uint16_t depth;		/* frames of the previous sample as recorded; DEPTH_UNKNOWN after a loss */
	uint64_t frames[LTT_STACK_MAX_DEPTH];	/* the previous sample, bottom first */
};

static struct stack_slot *slots;
static unsigned nslots;		/* slots in use or used: [0, nslots) */
static uint32_t gen;
static int sig, on, warned;
static long period_ns;

/* ---- the handler (async-signal-safe) ------------------------------------------------------------ */

static void on_sample(int s, siginfo_t *si, void *ucv)
{
	uint64_t ips[LTT_STACK_MAX_DEPTH], *prev;
	unsigned n = 0, match = 0, k, len;
	struct stack_slot *st;
	unw_cursor_t cur;
	struct ltt_slot ev;
	uint16_t depth;
	int e = errno;

	(void)s;
	if (si->si_code != SI_TIMER || (unsigned)si->si_value.sival_int >= MAX_SLOTS)
		goto out;
	st = &slots[si->si_value.sival_int];
	if (!__atomic_load_n(&st->tid, __ATOMIC_ACQUIRE) || !ltt_is_recording())
		goto out;
	if (unw_init_local2(&cur, (unw_context_t *)ucv, UNW_INIT_SIGNAL_FRAME) == 0) {
		do {
			unw_word_t ip;

			if (unw_get_reg(&cur, UNW_REG_IP, &ip) || !ip)
				break;
			ips[n++] = ip;
		} while (n < LTT_STACK_MAX_DEPTH && unw_step(&cur) > 0);
	}
	/* ips[] is top first; the trace keeps stacks bottom first */
	for (k = 0; k < n / 2; k++) {
		uint64_t t = ips[k];

		ips[k] = ips[n - 1 - k];
		ips[n - 1 - k] = t;
	}
	prev = st->frames;
	depth = st->depth;
	if (depth != DEPTH_UNKNOWN && st->nsamples % FULL_EVERY)
		match = ltt_stack_match(prev, depth, ips, n);
	len = 12 + 2 + 8 * (n - match);
	if (ltt_event_reserve(&ev, &ltt_core_facility, LTT_CORE_STACK_SAMPLE, len, 0)) {
		uint32_t ticks = 1 + (uint32_t)(si->si_overrun > 0 ? si->si_overrun : 0);
		uint16_t m16 = (uint16_t)match, d16 = depth, c16 = (uint16_t)(n - match);
		char *p = ev.payload;

		memcpy(p, &st->tid, 4);
		memcpy(p + 4, &ticks, 4);
		memcpy(p + 8, &m16, 2);
		memcpy(p + 10, &d16, 2);
		memcpy(p + 12, &c16, 2);
		memcpy(p + 14, ips + match, 8 * (size_t)(n - match));
		ltt_event_commit(&ev);
		memcpy(prev + match, ips + match, 8 * (size_t)(n - match));
		st->depth = (uint16_t)n;
	} else {
		st->depth = DEPTH_UNKNOWN;	/* the reader did not get it: the next one is whole */
	}
	st->nsamples++;
out:
	errno = e;
}

/* ---- timers (sampler thread) -------------------------------------------------------------------- */

static clockid_t thread_clock(uint32_t tid)
{
	return (clockid_t)((~tid << 3) | 6u);
}

static void arm(unsigned k, uint32_t tid)
{
	struct stack_slot *st = &slots[k];
	struct sigevent sev;
	struct itimerspec its = {
		.it_interval = { .tv_sec = period_ns / 1000000000L, .tv_nsec = period_ns % 1000000000L },
		.it_value = { .tv_sec = period_ns / 1000000000L, .tv_nsec = period_ns % 1000000000L },
	};

	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = sig;
	sev.sigev_value.sival_int = (int)k;
	sev._sigev_un._tid = (pid_t)tid;
	st->depth = 0;
	st->nsamples = 0;
	st->seen = gen;
	/* Release: the slot is initialised before the handler can find it (pairs with its acquire). */
	__atomic_store_n(&st->tid, tid, __ATOMIC_RELEASE);
	if (timer_create(thread_clock(tid), &sev, &st->timer)) {
		__atomic_store_n(&st->tid, 0, __ATOMIC_RELEASE);
		return;
	}
	if (timer_settime(st->timer, 0, &its, NULL)) {
		timer_delete(st->timer);
		__atomic_store_n(&st->tid, 0, __ATOMIC_RELEASE);
	}
}

static void disarm(unsigned k)
{
	timer_delete(slots[k].timer);
	__atomic_store_n(&slots[k].tid, 0, __ATOMIC_RELEASE);
}

static int own_thread(uint32_t tid)
{
	return tid == ltt_consumer_tid() || tid == ltt_sampler_tid();
}

void ltt_stack_scan(void)
{
	DIR *d;
	struct dirent *e;

	if (!on || !(d = opendir("/proc/self/task")))
		return;
	gen++;
	while ((e = readdir(d))) {
		uint32_t tid;
		unsigned k, fr = MAX_SLOTS;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		tid = (uint32_t)strtoul(e->d_name, NULL, 10);
		if (own_thread(tid))
			continue;
		for (k = 0; k < nslots; k++) {
			if (slots[k].tid == tid)
				break;
			if (!slots[k].tid && fr == MAX_SLOTS)
				fr = k;
		}
		if (k < nslots) {
			slots[k].seen = gen;
			continue;
		}
		if (fr == MAX_SLOTS && nslots < MAX_SLOTS)
			fr = nslots++;
		if (fr == MAX_SLOTS) {
			if (!warned++)
				ltt_warn("stack sampling: more than %u threads; the others are not sampled", MAX_SLOTS);
			continue;
		}
		arm(fr, tid);
	}
	closedir(d);
	for (unsigned k = 0; k < nslots; k++)
		if (slots[k].tid && slots[k].seen != gen)
			disarm(k);	/* the thread ended */
}

int ltt_stack_start(unsigned hz, int signo, char *why, size_t n)
{
	struct sigaction sa, old;

	if (sigaction(signo, NULL, &old) == 0 && old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN &&
	    old.sa_sigaction != on_sample) {
		snprintf(why, n, "signal %d is the program's (choose another with LTT_STACK_SIGNAL)", signo);
		return -EBUSY;
	}
	if (!slots) {
		void *m = mmap(NULL, MAX_SLOTS * sizeof(struct stack_slot), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED) {
			snprintf(why, n, "stack slots: %s", strerror(errno));
			return -ENOMEM;
		}
		slots = m;
	}
	/* per-thread caches: no lock is taken in the handler */
	unw_set_caching_policy(unw_local_addr_space, UNW_CACHE_PER_THREAD);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_sample;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(signo, &sa, NULL)) {
		snprintf(why, n, "signal %d: %s", signo, strerror(errno));
		return -errno;
	}
	sig = signo;
	period_ns = (long)(1000000000L / hz);
	if (period_ns < 1)
		period_ns = 1;
	nslots = 0;
	on = 1;
	ltt_stack_scan();	/* the threads alive now; new ones at the sampler's next scans */
	return 0;
}

/* The handler stays installed (a signal already queued must not meet the default action, which for a
 * real-time signal ends the process); it records nothing once the trace stopped. */
void ltt_stack_stop(void)
{
	if (!on)
		return;
	for (unsigned k = 0; k < nslots; k++)
		if (slots[k].tid)
			disarm(k);
	nslots = 0;
	on = 0;
}
