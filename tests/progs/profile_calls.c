/* SPDX-License-Identifier: MIT */
/* profile_calls: known call chains for the stack-sampling and CPU-usage tests (tests/e2e/profile_*.sh).
 *
 *   profile_calls chains MS     main spins MS ms of CPU in a() -> b() -> c(), then MS ms in d() -> c()
 *   profile_calls cpu MS        a thread "spinner" spins MS ms of CPU, a thread "sleeper" sleeps as
 *                               long; both stay alive until main has stopped the trace
 *   profile_calls pausesig MS   as pause, but pausing and resuming with raise(SIGUSR1) (LTT_PAUSE_SIGNAL)
 *   profile_calls events N      N events (gentypes.ints) in a loop (mostly in libltt's event path)
 *                               while the program's own SIGPROF timer (setitimer ITIMER_PROF, 5 ms)
 *                               runs a handler that spins 1 ms in handler_work() and records
 *                               gentypes.noargs; at least N events, more until the handler ran 5
 *                               times; prints "sigprof K events E" (fails if K < 5 after 5 s of CPU)
 *   profile_calls pause MS      spins MS ms, ltt_pause(), spins MS ms calling an event each microsecond
 *                               (none recorded), ltt_resume(), spins MS ms
 *   profile_calls pauseloop N   N times: spins 0.3 ms, ltt_pause(), spins 0.3 ms, ltt_resume() (for
 *                               LTT_CPU_SAMPLE_MS=1: the sampler meets pauses at every point)
 * Functions are noinline and not static, so that the symbolizer finds them by name. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt.h>
#include "gentypes.h"

#define NOINLINE __attribute__((noinline, noclone))

volatile unsigned long sink;

static double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

NOINLINE void c(double until_ms);
NOINLINE void c(double until_ms)
{
	while (thread_cpu_ms() < until_ms)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i * 7;
	__asm__ volatile("");
}

NOINLINE void b(double until_ms);
NOINLINE void b(double until_ms)
{
	c(until_ms);
	__asm__ volatile("");
}

NOINLINE void a(double until_ms);
NOINLINE void a(double until_ms)
{
	b(until_ms);
	__asm__ volatile("");
}

NOINLINE void d(double until_ms);
NOINLINE void d(double until_ms)
{
	c(until_ms);
	__asm__ volatile("");
}

static double ms_arg;
static volatile sig_atomic_t nprof;

NOINLINE void handler_work(void);
NOINLINE void handler_work(void)
{
	c(thread_cpu_ms() + 1.0);
	__asm__ volatile("");
}

NOINLINE void on_prof(int sig);
NOINLINE void on_prof(int sig)
{
	(void)sig;
	nprof++;
	handler_work();
	trace_gentypes_noargs();
}

/* n events, and more until the program's SIGPROF handler ran at least 5 times (the CPU
 * time that takes depends on the machine's load: ITIMER_PROF counts at the kernel's tick) or 5 s of
 * CPU passed; returns the number of events. */
NOINLINE unsigned long event_loop(unsigned long n);
NOINLINE unsigned long event_loop(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n || (nprof < 5 && thread_cpu_ms() < 5000); i++) {
		trace_gentypes_ints(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
		if (i % 64 == 0)
			for (int k = 0; k < 20000; k++)
				sink += (unsigned long)k;
	}
	return i;
}
static pthread_barrier_t done;

static void *spinner(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "spinner");
	c(thread_cpu_ms() + ms_arg);
	pthread_barrier_wait(&done);	/* alive until main stopped the trace */
	pthread_barrier_wait(&done);
	return NULL;
}

static void *sleeper(void *arg)
{
	struct timespec ts = { .tv_sec = (time_t)(ms_arg / 1000), .tv_nsec = (long)((ms_arg - (long)(ms_arg / 1000) * 1000) * 1e6) };

	(void)arg;
	pthread_setname_np(pthread_self(), "sleeper");
	nanosleep(&ts, NULL);
	pthread_barrier_wait(&done);
	pthread_barrier_wait(&done);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3)
		return 2;
	ms_arg = atof(argv[2]);
	if (!strcmp(argv[1], "chains")) {
		a(thread_cpu_ms() + ms_arg);
		d(thread_cpu_ms() + ms_arg);
	} else if (!strcmp(argv[1], "cpu")) {
		pthread_t t[2];

		pthread_barrier_init(&done, NULL, 3);
		pthread_create(&t[0], NULL, spinner, NULL);
		pthread_create(&t[1], NULL, sleeper, NULL);
		pthread_barrier_wait(&done);
		ltt_stop();
		pthread_barrier_wait(&done);
		pthread_join(t[0], NULL);
		pthread_join(t[1], NULL);
	} else if (!strcmp(argv[1], "pause") || !strcmp(argv[1], "pausesig")) {
		int sig = !strcmp(argv[1], "pausesig");
		unsigned long n = 0;
		double end;

		c(thread_cpu_ms() + ms_arg);
		trace_gentypes_noargs();
		if (sig ? raise(SIGUSR1) || !ltt_paused() : ltt_pause())
			return 3;
		end = thread_cpu_ms() + ms_arg;
		while (thread_cpu_ms() < end) {
			trace_gentypes_noargs();
			n++;
		}
		if (!ltt_paused() || (sig ? raise(SIGUSR1) : ltt_resume()) || ltt_paused())
			return 4;
		trace_gentypes_noargs();
		c(thread_cpu_ms() + ms_arg);
		printf("%lu calls while paused\n", n);
	} else if (!strcmp(argv[1], "pauseloop")) {
		for (unsigned long i = 0; i < ms_arg; i++) {
			c(thread_cpu_ms() + 0.3);
			if (ltt_pause())
				return 3;
			c(thread_cpu_ms() + 0.3);
			if (ltt_resume())
				return 4;
		}
	} else if (!strcmp(argv[1], "events")) {
		struct sigaction sa = { .sa_handler = on_prof, .sa_flags = SA_RESTART };
		struct itimerval it = { .it_interval = { 0, 5000 }, .it_value = { 0, 5000 } };
		struct itimerval off = { { 0, 0 }, { 0, 0 } };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGPROF, &sa, NULL);
		setitimer(ITIMER_PROF, &it, NULL);
		unsigned long nev = event_loop((unsigned long)ms_arg);

		setitimer(ITIMER_PROF, &off, NULL);
		printf("sigprof %d events %lu\n", (int)nprof, nev);
		if (nprof < 5)
			return 5;
	} else {
		return 2;
	}
	return 0;
}
