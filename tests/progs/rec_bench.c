/* SPDX-License-Identifier: MIT */
/* rec_bench: quick local timing of the event path (the real benchmarks are in bench/):
 *   rec_bench THREADS EVENTS   -> "THREADS threads x EVENTS events: N ns/event per thread, M Mevents/s"
 * Records a 3-integer event (u32, u64, u64) of the test facility rtest; recording is started by
 * LTT_TRACE (without it, this measures the disabled path). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "rec_rtest.h"

static uint64_t nevents;
static double per_thread_ns[64];

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static void *worker(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg;
	double t0 = now();

	for (uint64_t i = 0; i < nevents; i++)
		rtest_ev(idx, i, i);
	per_thread_ns[idx] = (now() - t0) / (double)nevents;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[64];
	unsigned n = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
	double t0, total, avg = 0;

	nevents = argc > 2 ? strtoull(argv[2], NULL, 10) : 10000000;
	if (n < 1 || n > 64)
		return 2;
	t0 = now();
	for (unsigned i = 0; i < n; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
	for (unsigned i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	total = now() - t0;
	for (unsigned i = 0; i < n; i++)
		avg += per_thread_ns[i] / n;
	printf("%u threads x %llu events: %.2f ns/event per thread, %.1f Mevents/s\n", n,
	       (unsigned long long)nevents, avg, (double)n * (double)nevents / total * 1e3);
	return 0;
}
