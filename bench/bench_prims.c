/* SPDX-License-Identifier: MIT */
/* The price of the primitives a tracer's event path is made of, on this machine: reading the TSC,
 * reading CLOCK_MONOTONIC (LTTng-UST's default clock), a locked add and a compare-and-swap on an
 * uncontended cache line. doc/performance.md uses them to say where the nanoseconds go.
 *
 * Usage: bench_prims rdtsc|clock|add|cas N
 * Output, one line: ns_per_event=F (wall) cpu_ns_per_event=F (thread CPU time), per operation. */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define PRIMS_HAVE_TSC 1
#endif

static uint64_t ns_of(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t prims_word;	/* the target of the atomics, touched by this thread only */

/* Runs N operations; 0, or -EINVAL for an unknown operation. *sink keeps the results live. */
static int run(const char *what, uint64_t n, uint64_t *sink)
{
	uint64_t i, old;
	struct timespec ts;

	if (!strcmp(what, "rdtsc")) {
#ifdef PRIMS_HAVE_TSC
		for (i = 0; i < n; i++)
			*sink += __rdtsc();
#else
		return -EINVAL;
#endif
	} else if (!strcmp(what, "clock")) {
		for (i = 0; i < n; i++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			*sink += (uint64_t)ts.tv_nsec;
		}
	} else if (!strcmp(what, "add")) {
		for (i = 0; i < n; i++)
			__atomic_fetch_add(&prims_word, 26, __ATOMIC_SEQ_CST);
	} else if (!strcmp(what, "cas")) {
		for (i = 0; i < n; i++) {
			old = __atomic_load_n(&prims_word, __ATOMIC_RELAXED);
			__atomic_compare_exchange_n(&prims_word, &old, old + 26, 0, __ATOMIC_SEQ_CST,
						    __ATOMIC_RELAXED);
		}
	} else {
		return -EINVAL;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long n;
	uint64_t w0, c0, w1, c1, sink = 0;
	cpu_set_t set;
	char *end;
	int err;

	errno = 0;
	if (argc != 3 || (n = strtoull(argv[2], &end, 10), errno || *end || n == 0))
		goto usage;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "%s: warning: not pinned to CPU 0: %s\n", argv[0], strerror(errno));
	w0 = ns_of(CLOCK_MONOTONIC);
	c0 = ns_of(CLOCK_THREAD_CPUTIME_ID);
	err = run(argv[1], n, &sink);
	c1 = ns_of(CLOCK_THREAD_CPUTIME_ID);
	w1 = ns_of(CLOCK_MONOTONIC);
	if (err)
		goto usage;
	printf("ns_per_event=%.3f cpu_ns_per_event=%.3f\n", (double)(w1 - w0) / (double)n,
	       (double)(c1 - c0) / (double)n);
	/* the sum is printed to stderr only if asked, so the loop cannot be dropped */
	if (getenv("BENCH_PRIMS_SINK"))
		fprintf(stderr, "%llu\n", (unsigned long long)sink);
	return 0;
usage:
	fprintf(stderr, "usage: %s rdtsc|clock|add|cas N\n", argv[0]);
	return 2;
}
