/* SPDX-License-Identifier: MIT */
/* The traced program of the disk rows (bench/rows/io.sh, issue 17.3): THREADS threads, thread i pinned
 * to CPU i, emit bench.int3 events (the payload bench_count checks) for SECONDS, as fast as they can
 * (RATE 0: the consumer and the disk are the bottleneck) or paced at RATE events per second per
 * thread (each thread wakes every 100 us on the absolute clock and emits the events due by then).
 * Then ltt_stop() writes what is left. Recording is decided by the environment (LTT_TRACE, LTT_MODE,
 * LTT_BLOCK_SIZE, LTT_BLOCKS). Output, one line:
 *   emitted=N record_ns=N consumer_cpu_ms=F
 *   emitted          events emitted by every thread (in the trace + counted lost = emitted)
 *   record_ns        from the threads' release to the return of ltt_stop(): every block written
 *   consumer_cpu_ms  CPU time of libltt's consumer thread, plus that of ltt_stop()'s final drain
 * Usage: bench_io THREADS SECONDS RATE */
#include <dirent.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt.h>
#include "bench.h"

#define MAX_THREADS 64
#define PERIOD_NS 100000ull	/* paced threads wake this often */

struct worker {
	pthread_t tid;
	unsigned index;
	uint64_t end_ns;	/* CLOCK_MONOTONIC */
	double rate;		/* events per second; 0: as fast as possible */
	uint64_t emitted;
	pthread_barrier_t *go;
};

static uint64_t now_ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t i = 0, start, next;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(w->index % (unsigned)(ncpu > 0 ? ncpu : 1), &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_barrier_wait(w->go);
	start = next = now_ns(CLOCK_MONOTONIC);
	if (w->rate <= 0) {
		while (now_ns(CLOCK_MONOTONIC) < w->end_ns)
			for (uint64_t k = 0; k < 4096; k++, i++)
				trace_bench_int3(i, i * 3, (uint32_t)i);
	} else {
		for (uint64_t t = start; t < w->end_ns; t = now_ns(CLOCK_MONOTONIC)) {
			uint64_t due = (uint64_t)(w->rate * (double)(t - start) / 1e9);
			struct timespec ts;

			for (; i < due; i++)
				trace_bench_int3(i, i * 3, (uint32_t)i);
			next += PERIOD_NS;
			ts.tv_sec = (time_t)(next / 1000000000u);
			ts.tv_nsec = (long)(next % 1000000000u);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
	w->emitted = i;
	return NULL;
}

/* CPU ns of this process's thread named ltt-consumer (0 when there is none). */
static uint64_t consumer_cpu_ns(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	uint64_t ns = 0;

	while (d && (e = readdir(d))) {
		char p[300], name[32] = "";
		unsigned long long run = 0;
		FILE *f;

		snprintf(p, sizeof(p), "/proc/self/task/%s/comm", e->d_name);
		if (!(f = fopen(p, "r")))
			continue;
		if (!fgets(name, sizeof(name), f))
			name[0] = '\0';
		fclose(f);
		if (strcmp(name, "ltt-consumer\n"))
			continue;
		snprintf(p, sizeof(p), "/proc/self/task/%s/schedstat", e->d_name);
		if ((f = fopen(p, "r"))) {
			if (fscanf(f, "%llu", &run) == 1)
				ns = run;
			fclose(f);
		}
	}
	if (d)
		closedir(d);
	return ns;
}

int main(int argc, char **argv)
{
	struct worker w[MAX_THREADS];
	pthread_barrier_t go;
	unsigned n = argc == 4 ? (unsigned)strtoul(argv[1], NULL, 10) : 0;
	double secs = argc == 4 ? atof(argv[2]) : 0, rate = argc == 4 ? atof(argv[3]) : 0;
	uint64_t t0, t1, c0, cons, emitted = 0;

	if (n < 1 || n > MAX_THREADS || secs <= 0 || rate < 0) {
		fprintf(stderr, "usage: %s THREADS(1-%d) SECONDS RATE(events/s per thread, 0: flood)\n", argv[0],
			MAX_THREADS);
		return 2;
	}
	pthread_barrier_init(&go, NULL, n + 1);
	for (unsigned i = 0; i < n; i++) {
		w[i] = (struct worker){ .index = i, .rate = rate, .go = &go };
		if (pthread_create(&w[i].tid, NULL, worker_main, &w[i])) {
			fprintf(stderr, "%s: cannot start thread %u\n", argv[0], i);
			return 1;
		}
	}
	t0 = now_ns(CLOCK_MONOTONIC);
	for (unsigned i = 0; i < n; i++)
		w[i].end_ns = t0 + (uint64_t)(secs * 1e9);
	pthread_barrier_wait(&go);	/* a full barrier: the workers see end_ns */
	for (unsigned i = 0; i < n; i++) {
		pthread_join(w[i].tid, NULL);
		emitted += w[i].emitted;
	}
	cons = consumer_cpu_ns();
	c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
	ltt_stop();
	t1 = now_ns(CLOCK_MONOTONIC);
	cons += now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
	pthread_barrier_destroy(&go);
	printf("emitted=%llu record_ns=%llu consumer_cpu_ms=%.3f\n", (unsigned long long)emitted,
	       (unsigned long long)(t1 - t0), (double)cons / 1e6);
	return 0;
}
