/* SPDX-License-Identifier: MIT */
/* The cost of a region enter and leave of the application API (include/ltt/app.h, issue 9).
 * Usage: bench_region PAIRS. Recording or not is decided by the environment (LTT_TRACE).
 * Output, one line: ns_per_event=F pairs=N cpu_ns_per_event=F
 * (one call: an enter or a leave, the pair's time / 2; wall time, then the thread's CPU time) */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ltt/app.h>

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long n, i;
	uint64_t t0, t1, c0, c1;
	char *end;

	errno = 0;
	if (argc != 2 || (n = strtoull(argv[1], &end, 10), errno || *end || n == 0)) {
		fprintf(stderr, "usage: %s PAIRS\n", argv[0]);
		return 2;
	}
	ltt_cmd_start(argc, argv);
	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	t0 = now_ns(CLOCK_MONOTONIC);
	for (i = 0; i < n; i++) {
		ltt_region_enter("bench", "pair");
		ltt_region_leave("bench", "pair");
	}
	t1 = now_ns(CLOCK_MONOTONIC);
	c1 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	printf("ns_per_event=%.3f pairs=%llu cpu_ns_per_event=%.3f\n", (double)(t1 - t0) / (double)n / 2, n,
	       (double)(c1 - c0) / (double)n / 2);
	return 0;
}
