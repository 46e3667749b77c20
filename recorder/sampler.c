/* SPDX-License-Identifier: MIT */
/* recorder/sampler.c: libltt's sampler thread (doc/recorder.md "Profiling"), started with a trace when
 * CPU usage or stack sampling is on: every cpu_sample_ms it records the CPU usage (sample_cpu.c), at
 * once after a resume (pause.c), and every SCAN_MS it gives new threads their stack-sampling timer and
 * records the memory map again if a library was loaded or unloaded. It is not a thread of the traced
 * program (its CPU time is in the process's usage, and in its own thread_cpu events). */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "env_parse.h"
#include "flight.h"
#include "profile.h"
#include "recorder.h"
#include "threads.h"

#define SCAN_NS		20000000ull	/* new threads, library loads: looked for every 20 ms */

static struct {
	pthread_t thread;
	int running;		/* the thread exists (joined at stop) */
	int stop;		/* asks it to end */
	int efd;		/* eventfd: wakes it (stop, resume) */
	uint32_t tid;
	unsigned cpu_ms, hz;
	int sig;
} S = { .efd = -1 };

uint32_t ltt_sampler_tid(void)
{
	return __atomic_load_n(&S.tid, __ATOMIC_RELAXED);
}

void ltt_sampler_wake(void)
{
	uint64_t one = 1;
	int e = errno;

	if (S.efd >= 0 && write(S.efd, &one, sizeof(one)) < 0) {
		/* the counter is full: it is awake anyway */
	}
	errno = e;
}

/* A CPU sample unless paused; a pause coming meanwhile waits for it (pause.c). */
static void sample_unpaused(void)
{
	if (ltt_pause_sample_begin()) {
		ltt_cpu_sample(1);
		ltt_pause_sample_end();
	}
}

static void *sampler_main(void *arg)
{
	uint64_t now = ltt_mono_ns(), period = (uint64_t)S.cpu_ms * 1000000ull;
	uint64_t next_cpu = now + period, next_scan = now;
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	prctl(PR_SET_NAME, "ltt-sampler");
		__atomic_store_n(&S.tid, (uint32_t)syscall(SYS_gettid), __ATOMIC_RELAXED);
	/* The stack timers are this thread's alone (created, deleted, scanned here). */
	if (S.hz) {
		char why[256] = "";

		if (ltt_stack_start(S.hz, S.sig, why, sizeof(why))) {
			ltt_warn("profiling: %s; no stack samples", why);
			S.hz = 0;
		}
	}
	while (!__atomic_load_n(&S.stop, __ATOMIC_ACQUIRE)) {
		uint64_t wake = UINT64_MAX, v;
		struct pollfd pfd = { .fd = S.efd, .events = POLLIN };
		struct timespec ts;

		now = ltt_mono_ns();
		if (S.hz && now >= next_scan) {
			ltt_stack_scan();
			ltt_maps_poll();
			next_scan = now + SCAN_NS;
		}
		if (S.cpu_ms) {
			if (ltt_pause_take_resume()) {
				sample_unpaused();	/* covers the pause: the baseline did not move */
				next_cpu = now + period;
			} else if (now >= next_cpu) {
				sample_unpaused();
				next_cpu += period;
				if (next_cpu <= now)
					next_cpu = now + period;	/* late: no burst of samples */
			}
			wake = next_cpu;
		}
		if (S.hz && next_scan < wake)
			wake = next_scan;
		now = ltt_mono_ns();
		v = wake > now ? wake - now : 0;
		ts.tv_sec = (time_t)(v / 1000000000ull);
		ts.tv_nsec = (long)(v % 1000000000ull);
		if (ppoll(&pfd, 1, &ts, NULL) > 0 && read(S.efd, &v, sizeof(v)) < 0) {
			/* nothing to drain */
		}
	}
	ltt_stack_stop();
	return NULL;
}

int ltt_profile_env(struct ltt_options *o, char *why, size_t n)
{
	static const enum ltt_env_id ids[] = { LTT_ENV_CPU_SAMPLE_MS_ID, LTT_ENV_STACK_SAMPLE_HZ_ID };
	unsigned *dst[] = { &o->cpu_sample_ms, &o->stack_sample_hz };
	const char *sig = secure_getenv("LTT_STACK_SIGNAL");

	for (unsigned i = 0; i < 2; i++) {
		uint64_t x;
		int rc = ltt_env_get(ids[i], &x, why, n);

		if (rc < 0)
			return rc;
		if (rc)
			*dst[i] = (unsigned)x;
	}
	if (sig && *sig) {
		o->stack_signal = ltt_signal_number(sig);
		if (o->stack_signal < 0) {
			ltt_env_why(why, n, "LTT_STACK_SIGNAL", sig, "not a signal name or number");
			return -EINVAL;
		}
	}
	return ltt_pause_signal_parse(why, n);
}

int ltt_profile_check(const struct ltt_options *o, char *why, size_t n)
{
	if (o->cpu_sample_ms > LTT_CPU_SAMPLE_MS_MAX) {
		snprintf(why, n, "CPU sample period %u ms: more than an hour", o->cpu_sample_ms);
		return -EINVAL;
	}
	if (o->stack_sample_hz > LTT_STACK_HZ_MAX) {
		snprintf(why, n, "stack sampling at %u Hz: more than %u", o->stack_sample_hz, LTT_STACK_HZ_MAX);
		return -EINVAL;
	}
	if (o->stack_signal && (o->stack_signal < 1 || o->stack_signal >= NSIG || o->stack_signal == SIGKILL ||
				o->stack_signal == SIGSTOP)) {
		snprintf(why, n, "stack signal %d: not a signal that can be caught", o->stack_signal);
		return -EINVAL;
	}
	return 0;
}

static void emit_sampling(const struct ltt_options *o, int sig)
{
	uint32_t v[3] = { o->cpu_sample_ms, o->stack_sample_hz, (uint32_t)sig };

	ltt_core_emit(LTT_CORE_SAMPLING, v, sizeof(v), LTT_EVENT_PERSISTENT);
}

void ltt_profile_start(const struct ltt_options *o)
{
	int sig = o->stack_signal ? o->stack_signal : SIGRTMIN + 4;

	ltt_pause_start();
	S.cpu_ms = o->cpu_sample_ms;
	S.hz = o->stack_sample_hz;
	S.sig = sig;
	if (!S.cpu_ms && !S.hz)
		return;
	emit_sampling(o, S.hz ? sig : 0);
	if (S.hz)
		ltt_maps_emit();
	if (S.cpu_ms)
		ltt_cpu_sample_init();
	S.efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	S.stop = 0;
	S.tid = 0;
	if (S.efd < 0 || ltt_real_pthread_create(&S.thread, NULL, sampler_main, NULL)) {
		ltt_warn("profiling: cannot start the sampler thread; no CPU usage or stack samples");
		if (S.efd >= 0)
			close(S.efd);
		S.efd = -1;
		S.cpu_ms = S.hz = 0;
		return;
	}
	S.running = 1;
	ltt_shm_threads_add(1);	/* a writer of the rings (recover: recorder/shm_layout.h) */
}

void ltt_profile_stop(void)
{
	int paused = ltt_is_paused();

	ltt_pause_stop();
	if (!S.running)
		return;
	__atomic_store_n(&S.stop, 1, __ATOMIC_RELEASE);	/* pairs with the acquire load of the loop */
	ltt_sampler_wake();
	pthread_join(S.thread, NULL);
	S.running = 0;
	if (S.cpu_ms && !paused)
		ltt_cpu_sample(1);	/* the last interval, up to the stop */
	ltt_cpu_sample_fini();
	close(S.efd);
	S.efd = -1;
	S.tid = 0;
	S.cpu_ms = S.hz = 0;
}

void ltt_profile_fork_child(void)
{
	/* The sampler thread and the timers are the parent's; the child's copies of the tables are
	 * dropped (no thread to join, timers are not inherited by fork); pause and resume say -ENODEV. */
	ltt_pause_stop();
	S.running = 0;
	S.tid = 0;
	if (S.efd >= 0)
		close(S.efd);
	S.efd = -1;
	S.cpu_ms = S.hz = 0;
}
