/* SPDX-License-Identifier: MIT */
/* flight_quiet: helper of tests/e2e/flight_quiet.sh and of the measures of doc/flight-recorder.md ("What
 * a snapshot costs the program"). Recording is started by LTT_TRACE / LTT_MODE=flight.
 *   flight_quiet sleep SNAPDIR   ticks, "ready" on stdout, then 1 s nanosleeps on the main thread (the
 *                                one a signal sent to the process reaches) until SNAPDIR exists (at
 *                                most 30): prints "sleeps=N eintr=E short=S", short counting sleeps
 *                                under 1 s; EINTR is not retried, as a program that counts on a sleep
 *                                would not
 *   flight_quiet slow MS         50 nanosleeps of 1 ms, then one of MS ms, then 50 of 1 ms and a 2 s
 *                                spin without system calls (the snapshot a duration trigger takes
 *                                for the slow one)
 *   flight_quiet regions MS      regions "work" of 1 ms (50), one of MS ms, 50 more, inside a region
 *                                "main"; then spins 2 s (a region trigger's snapshot is taken)
 *   flight_quiet latency SECONDS 1 ms sleeps and a tick each, for SECONDS: prints "n=N eintr=E
 *                                p50_us=.. p99_us=.. max_us=.." of the time each iteration took
 *                                beyond its 1 ms (a server's ping, roughly)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ltt/app.h>
#include <ltt/ltt.h>

#include "flighttest.h"

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static int sleeps(const char *snapdir)
{
	struct stat st;
	int n = 0, eintr = 0, shortn = 0;

	for (uint64_t i = 0; i < 1000; i++)
		trace_flighttest_tick(0, i);
	printf("ready\n");
	fflush(stdout);
	while (n < 30) {
		struct timespec ts = { 1, 0 };
		long long t0 = now_ns(), t1;
		int rc = nanosleep(&ts, NULL);

		t1 = now_ns();
		n++;
		if (rc && errno == EINTR)
			eintr++;
		if (t1 - t0 < 1000000000ll)
			shortn++;
		trace_flighttest_tick(0, 1000 + (uint64_t)n);
		if (!stat(snapdir, &st))
			break;
	}
	printf("sleeps=%d eintr=%d short=%d\n", n, eintr, shortn);
	return 0;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

static int latency(double seconds)
{
	size_t cap = (size_t)(seconds * 1000) + 16, n = 0;
	long long *d = malloc(cap * sizeof(*d)), end = now_ns() + (long long)(seconds * 1e9);
	int eintr = 0;

	if (!d)
		return 1;
	printf("ready\n");
	fflush(stdout);
	while (n < cap && now_ns() < end) {
		struct timespec ts = { 0, 1000000 };
		long long t0 = now_ns();

		if (nanosleep(&ts, NULL) && errno == EINTR)
			eintr++;
		trace_flighttest_tick(0, n);
		d[n++] = now_ns() - t0 - 1000000;
	}
	qsort(d, n, sizeof(*d), cmp_ll);
	printf("n=%zu eintr=%d p50_us=%lld p99_us=%lld max_us=%lld\n", n, eintr, d[n / 2] / 1000,
	       d[n * 99 / 100] / 1000, d[n - 1] / 1000);
	free(d);
	return 0;
}

static int slow(long ms)
{
	for (int i = 0; i < 101; i++) {
		struct timespec ts = { i == 50 ? ms / 1000 : 0, i == 50 ? ms % 1000 * 1000000 : 1000000 };

		nanosleep(&ts, NULL);
		trace_flighttest_tick(0, (uint64_t)i);
	}
	/* 2 s without a system call (clock_gettime is the vDSO's): the trigger's snapshot is taken */
	for (long long end = now_ns() + 2000000000ll; now_ns() < end;)
		;
	return 0;
}

static int regions(long ms)
{
	ltt_region_enter("quiet", "main");
	for (int i = 0; i < 101; i++) {
		struct timespec ts = { i == 50 ? ms / 1000 : 0, i == 50 ? ms % 1000 * 1000000 : 1000000 };

		ltt_region_enter("quiet", "work");
		nanosleep(&ts, NULL);
		trace_flighttest_tick(0, (uint64_t)i);
		ltt_region_leave("quiet", "work");
	}
	for (long long end = now_ns() + 2000000000ll; now_ns() < end;)
		;
	ltt_region_leave("quiet", "main");
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "regions"))
		return regions(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "slow"))
		return slow(atol(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "sleep"))
		return sleeps(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "latency"))
		return latency(atof(argv[2]));
	fprintf(stderr, "usage: flight_quiet sleep SNAPDIR | latency SECONDS\n");
	return 2;
}
