/* SPDX-License-Identifier: MIT */
/* The CPU-bound workload of the stack-sampling rows (bench/rows/profile.sh): ITERATIONS of about a
 * microsecond of arithmetic each, four calls deep (so that samples unwind a few frames), in one thread
 * of a program linked with libltt; whether it records and samples is the environment's business
 * (LTT_TRACE, LTT_STACK_SAMPLE_HZ).
 *   bench_profile work 1 ITERATIONS
 *   bench_profile sample 1 N    the cost of one stack sample: N times, the stack-sampling signal of
 *                               libltt (SIGRTMIN+4) queued to this thread as its timer would
 *                               (rt_tgsigqueueinfo, si_code SI_TIMER, the slot of the main thread): each
 *                               is delivered at once and runs libltt's handler (unwind, event)
 *   bench_profile signal 1 N    the same with SIGRTMIN+5 and an empty handler of ours: the part of the
 *                               above that is the system call and the signal delivery
 * Output as the other bench programs (bench/workload.h): ns_per_event=F ... cpu_ns_per_event=F, an
 * "event" being one iteration. */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt.h>

#define NOINLINE __attribute__((noinline))

static volatile uint64_t sink;

static uint64_t now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

NOINLINE static uint64_t leaf(uint64_t x)
{
	for (int i = 0; i < 300; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x;
}

NOINLINE static uint64_t mid(uint64_t x)
{
	return leaf(x) ^ leaf(x + 1);
}

NOINLINE static uint64_t top(uint64_t x)
{
	return mid(x) + mid(x >> 1);
}

static void empty_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
}

/* Queues sig to this thread n times as a timer of slot 0 would signal it. */
static void send_n(int sig, uint64_t n)
{
	siginfo_t si;
	pid_t pid = getpid(), tid = (pid_t)syscall(SYS_gettid);

	for (uint64_t i = 0; i < n; i++) {
		memset(&si, 0, sizeof(si));
		si.si_signo = sig;
		si.si_code = SI_TIMER;
		si.si_value.sival_int = 0;
		syscall(SYS_rt_tgsigqueueinfo, pid, tid, sig, &si);
	}
}

int main(int argc, char **argv)
{
	uint64_t n, w0, c0, w1, c1, x = 1;
	int mode;

	if (argc != 4 || strcmp(argv[2], "1")) {
		fprintf(stderr, "usage: %s work|sample|signal 1 N\n", argv[0]);
		return 2;
	}
	mode = !strcmp(argv[1], "work") ? 0 : !strcmp(argv[1], "sample") ? 1 : !strcmp(argv[1], "signal") ? 2 : -1;
	if (mode < 0) {
		fprintf(stderr, "usage: %s work|sample|signal 1 N\n", argv[0]);
		return 2;
	}
	n = strtoull(argv[3], NULL, 10);
	if (mode == 1) {
		struct timespec ts = { 0, 100000000 };
		struct sigaction sa;

		nanosleep(&ts, NULL);	/* the sampler gives this thread its slot (0: the first) */
		if (sigaction(SIGRTMIN + 4, NULL, &sa) || !(sa.sa_flags & SA_SIGINFO)) {
			fprintf(stderr, "%s: no stack-sampling handler (LTT_STACK_SAMPLE_HZ not set?)\n", argv[0]);
			return 1;
		}
	} else if (mode == 2) {
		struct sigaction sa = { .sa_sigaction = empty_handler, .sa_flags = SA_SIGINFO | SA_RESTART };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGRTMIN + 5, &sa, NULL);
	}
	w0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_THREAD_CPUTIME_ID);
	if (mode == 0)
		for (uint64_t i = 0; i < n; i++)
			x = top(x + i);
	else
		send_n(mode == 1 ? SIGRTMIN + 4 : SIGRTMIN + 5, n);
	c1 = now(CLOCK_THREAD_CPUTIME_ID);
	w1 = now(CLOCK_MONOTONIC);
	sink = x;
	/* (ltt_recording() also links libltt in: the trace starts from its constructor) */
	printf("ns_per_event=%.3f events=%" PRIu64 " threads=1 wall_ns=%" PRIu64 " recording=%d cpu_ns_per_event=%.3f\n",
	       (double)(w1 - w0) / (double)n, n, w1 - w0, ltt_recording(), (double)(c1 - c0) / (double)n);
	return 0;
}
