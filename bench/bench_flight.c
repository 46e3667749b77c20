/* SPDX-License-Identifier: MIT */
/* bench_flight: what a flight snapshot costs the program (bench/rows/flight.sh). Recording is started by
 * the environment (LTT_TRACE, LTT_MODE=flight). One thread sleeps 1 ms and records a bench.int3 event,
 * for SECONDS, as a server answering pings would; the row's driver asks for snapshots meanwhile (or not).
 *   bench_flight SECONDS   prints "ready", then at the end "n=N eintr=E p50_us=F p99_us=F max_us=F": the
 *                          time each iteration took beyond its 1 ms, and the sleeps cut short (EINTR)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <ltt/ltt.h>

#include "bench.h"

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double seconds = argc == 2 ? atof(argv[1]) : 0;
	size_t cap = (size_t)(seconds * 1000) + 16, n = 0;
	long long *d, end;
	int eintr = 0;

	if (seconds <= 0 || seconds > 3600 || !(d = malloc(cap * sizeof(*d)))) {
		fprintf(stderr, "usage: bench_flight SECONDS\n");
		return 2;
	}
	printf("ready\n");
	fflush(stdout);
	end = now_ns() + (long long)(seconds * 1e9);
	while (n < cap && now_ns() < end) {
		struct timespec ts = { 0, 1000000 };
		long long t0 = now_ns();

		if (nanosleep(&ts, NULL) && errno == EINTR)
			eintr++;
		trace_bench_int3(n, (uint64_t)t0, 3);
		d[n++] = now_ns() - t0 - 1000000;
	}
	qsort(d, n, sizeof(*d), cmp_ll);
	printf("n=%zu eintr=%d p50_us=%.1f p99_us=%.1f max_us=%.1f\n", n, eintr, d[n / 2] / 1e3, d[n * 99 / 100] / 1e3,
	       d[n - 1] / 1e3);
	free(d);
	return 0;
}
