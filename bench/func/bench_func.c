/* SPDX-License-Identifier: MIT */
/* bench/func/bench_func.c: function tracing's bench program (bench/rows/func.sh). Built with -pg (not
 * linked with libltt: run plain, under ltt record --functions, under uftrace record) and with
 * -finstrument-functions (linked with libltt). Modes:
 *   calls N   N calls of a tiny function leaf() (a call and a return each)
 *   paced N NS  N calls of leaf(), one every NS ns of wall time (a spin on the clock between calls, not
 *             traced): a rate the disk can follow (bench/rows/blocking.sh)
 *   libcalls N  N calls of sched_getcpu() through the PLT (a library call: the vDSO, no system call;
 *             recorded by ltt record --functions and uftrace record by default)
 *   floor N   N iterations of what a call and return cost at least when recorded: two cycle-counter
 *             reads and two 16-byte stores into a 1 MiB buffer (no function call)
 * Prints the loop's wall time per iteration as the other bench programs do (ns_per_event=...). */
#define _GNU_SOURCE	/* sched_getcpu */
#include <inttypes.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

volatile uint64_t sink;
static unsigned char buf[1 << 20];

__attribute__((noinline)) void leaf(uint64_t i)
{
	sink += i;
}

static uint64_t mono_ns(clockid_t c)
{
	struct timespec t;

	clock_gettime(c, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

__attribute__((noinline)) void run_calls(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		leaf(i);
}

__attribute__((noinline)) void run_libcalls(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		sink += (uint64_t)sched_getcpu();
}

__attribute__((noinline)) void run_paced(uint64_t n, uint64_t ns)
{
	uint64_t t0 = mono_ns(CLOCK_MONOTONIC);

	for (uint64_t i = 0; i < n; i++) {
		leaf(i);
		while (mono_ns(CLOCK_MONOTONIC) - t0 < (i + 1) * ns)
			;
	}
}

__attribute__((noinline)) void run_floor(uint64_t n)
{
	size_t off = 0;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t rec[2];

		rec[0] = __rdtsc();
		rec[1] = i;
		memcpy(buf + off, rec, 16);
		rec[0] = __rdtsc();
		memcpy(buf + off + 16, rec, 16);
		off = (off + 32) & (sizeof(buf) - 1);
	}
	sink += buf[off];
}

int main(int argc, char **argv)
{
	uint64_t n, t0, c0, t1, c1;

	if ((argc != 3 || (strcmp(argv[1], "calls") && strcmp(argv[1], "floor") && strcmp(argv[1], "libcalls"))) &&
	    (argc != 4 || strcmp(argv[1], "paced"))) {
		fprintf(stderr, "usage: %s calls|libcalls|floor N, or paced N NS\n", argv[0]);
		return 2;
	}
	n = strtoull(argv[2], NULL, 10);
	t0 = mono_ns(CLOCK_MONOTONIC);
	c0 = mono_ns(CLOCK_THREAD_CPUTIME_ID);
	if (!strcmp(argv[1], "calls"))
		run_calls(n);
	else if (!strcmp(argv[1], "libcalls"))
		run_libcalls(n);
	else if (!strcmp(argv[1], "paced"))
		run_paced(n, strtoull(argv[3], NULL, 10));
	else
		run_floor(n);
	t1 = mono_ns(CLOCK_MONOTONIC);
	c1 = mono_ns(CLOCK_THREAD_CPUTIME_ID);
	printf("ns_per_event=%.3f events=%" PRIu64 " threads=1 wall_ns=%" PRIu64 " cpu_ns_per_event=%.3f\n",
	       (double)(t1 - t0) / (double)n, n, t1 - t0, (double)(c1 - c0) / (double)n);
	return 0;
}
