/* SPDX-License-Identifier: MIT */
/* recorder/blocking.c: the lossless mode of discard mode (LTT_BLOCKING, ltt_options.blocking,
 * `ltt record --blocking[=MS]`; doc/recorder.md "Blocking"), as LTTng-UST's blocking channels: a
 * writer that finds the next block's slot of its ring still waiting for the consumer sleeps until the
 * consumer frees it, at most the timeout, then drops the event (counted buffer_full) instead of
 * dropping at once. Only the full-ring slow path (recorder/ring.c reserve()) comes here: the inline
 * event path is unchanged, and a writer that does not block pays one load of ltt_blocking_ns on
 * a drop.
 *
 * The wait is a futex on the ring's wake_seq. Wake pair (W1): the writer adds itself to `waiters`
 * (a full barrier) before it reads `consumed` again, then sleeps only if wake_seq is still what it read
 * before; the consumer stores `consumed`, then a full barrier, then reads `waiters`, and if nonzero
 * bumps wake_seq and wakes every waiter of the ring (ltt_ring_wake). Either the writer sees the
 * slot free, or the consumer sees it waiting. Never blocked: the consumer thread itself (it writes
 * core events at a rotation), the kernel drain thread (reservations with a given time: the kernel's
 * own rings are its buffer), flight mode (its rings overwrite; ltt_blocking_ns stays 0), and a ring
 * whose last wait timed out while the consumer has not moved since (struct ltt_ring's stalled). */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "blocking.h"
#include "env_parse.h"
#include "func_internal.h"
#include "recorder.h"

uint64_t ltt_blocking_ns;
static uint64_t waits, waited_ns, timeouts;	/* since start (LTT_VERBOSE=1 says them at stop) */

#define SLICE_NS 100000000ull	/* a waiter looks again at least this often (closed ring, lost wake) */

int ltt_blocking_env(struct ltt_options *o, char *why, size_t n)
{
	uint64_t v;
	int rc = ltt_env_get(LTT_ENV_BLOCKING_ID, &v, why, n);

	if (rc > 0)
		o->blocking = v ? (int)v : -1;
	return rc < 0 ? rc : 0;
}

int ltt_blocking_start(const struct ltt_options *opt, char *why, size_t n)
{
	int ms = opt->blocking;

	if (opt->mode == LTT_MODE_FLIGHT && ms > 0) {
		snprintf(why, n, "LTT_BLOCKING is for discard mode: a flight recorder never blocks (its rings "
			 "overwrite their oldest blocks); LTT_BLOCKING=0 or discard mode");
		return -EINVAL;
	}
	if (!ms)	/* the default: a function-tracing run is an investigation, the record must be whole */
		ms = opt->mode == LTT_MODE_DISCARD && ltt_func_enabled() ? LTT_BLOCKING_DEFAULT_MS : -1;
	/* Relaxed: set before the region is published (release) or after the rings closed */
	__atomic_store_n(&ltt_blocking_ns, ms > 0 ? (uint64_t)ms * 1000000u : 0, __ATOMIC_RELAXED);
	__atomic_store_n(&waits, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&waited_ns, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&timeouts, 0, __ATOMIC_RELAXED);
	return 0;
}

void ltt_blocking_stop(int verbose)
{
	uint64_t w = __atomic_load_n(&waits, __ATOMIC_RELAXED);

	if (verbose && __atomic_load_n(&ltt_blocking_ns, __ATOMIC_RELAXED))
		ltt_warn("blocking: writers waited %llu times for the consumer, %.3f ms in all; %llu waits "
			 "timed out (%llu ms) and dropped", (unsigned long long)w,
			 (double)__atomic_load_n(&waited_ns, __ATOMIC_RELAXED) / 1e6,
			 (unsigned long long)__atomic_load_n(&timeouts, __ATOMIC_RELAXED),
			 (unsigned long long)(__atomic_load_n(&ltt_blocking_ns, __ATOMIC_RELAXED) / 1000000u));
	__atomic_store_n(&ltt_blocking_ns, 0, __ATOMIC_RELAXED);
}

/* Whether block nseq's slot is free now (the test of ring.c's slot_free() for discard mode). */
static int slot_released(struct ltt_ring *r, uint64_t nseq)
{
	return nseq <= r->slot_mask || ltt_read(&r->consumed) + r->slot_mask >= nseq;
}

int ltt_ring_wait(struct ltt_ring *r, uint64_t nseq, uint64_t *deadline)
{
	uint64_t now, st, t0;
	uint32_t seen;
	int e;

	if (ltt_tid() == ltt_consumer_tid())
		return 0;
	st = ltt_read(&r->stalled);
	if (st && st == ltt_read(&r->consumed) + 1)
		return 0;	/* the last wait timed out and the consumer has not moved since */
	now = ltt_mono_ns();
	if (!*deadline) {
		*deadline = now + __atomic_load_n(&ltt_blocking_ns, __ATOMIC_RELAXED);
		__atomic_add_fetch(&waits, 1, __ATOMIC_RELAXED);
	}
	t0 = now;
	e = errno;	/* the event path never changes errno */
	seen = ltt_read(&r->wake_seq);
	/* Full barrier (W1): waiters is counted before consumed is read again; pairs with the consumer's
	 * barrier between its store of consumed and its read of waiters (ltt_ring_wake). */
	ltt_add(&r->waiters, 1);
	if (!slot_released(r, nseq) && !(ltt_read(&r->write_off) & LTT_RING_CLOSED)) {
		/* the full blocks are sealed and the consumer was kicked then; again, in case it slept
		 * through a block still being committed */
		ltt_consumer_kick();
		if (now < *deadline) {
			uint64_t left = *deadline - now < SLICE_NS ? *deadline - now : SLICE_NS;
			struct timespec ts = { (time_t)(left / 1000000000u), (long)(left % 1000000000u) };

			syscall(SYS_futex, &r->wake_seq, FUTEX_WAIT_PRIVATE, seen, &ts, NULL, 0);
			now = ltt_mono_ns();
		}
	}
	__atomic_sub_fetch(&r->waiters, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&waited_ns, now - t0, __ATOMIC_RELAXED);
	errno = e;
	if (now < *deadline || slot_released(r, nseq))
		return 1;
	/* timed out: drop, and let the next writers drop at once until the consumer moves */
	ltt_set(&r->stalled, ltt_read(&r->consumed) + 1);
	__atomic_add_fetch(&timeouts, 1, __ATOMIC_RELAXED);
	return 0;
}

void ltt_ring_wake(struct ltt_ring *r)
{
	/* Full barrier (W1): the caller's store of consumed before the read of waiters; pairs with the
	 * writer's add to waiters before it reads consumed. */
	ltt_smp_mb();
	if (!ltt_read(&r->waiters))
		return;
	ltt_add(&r->wake_seq, 1);
	syscall(SYS_futex, &r->wake_seq, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
}
