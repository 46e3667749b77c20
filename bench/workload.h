/* SPDX-License-Identifier: MIT */
/* The benchmark workload shared by every tracer's bench program (bench/bench_*.c).
 *
 * A program defines, before including this header,
 *
 *     static inline void bench_emit_int3(uint64_t a, uint64_t b, uint32_t c);   // one 3-integer event
 *     static inline void bench_emit_str(uint64_t v, const char *s);             // u64 + 16-char string
 *
 * and calls bench_run(). The loops are expanded here, in the program's own compilation unit, so each
 * tracer's fast path is inlined exactly as it would be in a traced program: no indirect call is
 * measured. bench_run() starts THREADS threads, pins thread i to CPU i % ncpu, releases them together,
 * and times each thread's loop alone (CLOCK_MONOTONIC), so that process start, tracer start and
 * flush at exit are not part of the figure.
 *
 * Usage of every bench program: PROG int3|str|empty THREADS EVENTS_PER_THREAD
 * Output, one line: ns_per_event=F events=N threads=T wall_ns=N cpu_ns_per_event=F
 *   ns_per_event  the slowest thread's loop time / EVENTS_PER_THREAD (time per event per thread)
 *   wall_ns       from the release of the threads to the end of the slowest one
 *   cpu_ns_per_event  the largest thread CPU time in the loop / EVENTS_PER_THREAD
 */
#ifndef LTT_BENCH_WORKLOAD_H
#define LTT_BENCH_WORKLOAD_H

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BENCH_MAX_THREADS 64

enum bench_kind { BENCH_INT3, BENCH_STR, BENCH_EMPTY };

struct bench_result {
	enum bench_kind kind;
	unsigned threads;
	uint64_t events;	/* per thread */
	uint64_t wall_ns;
	double ns_per_event;
	double cpu_ns_per_event;	/* the largest thread CPU time / events: what preemption by other
					 * processes does not inflate */
};

/* Four distinct 16-character strings, picked by the loop index, so no compiler folds strlen(). */
static const char *const bench_strings[4] = {
	"abcdefghijklmnop", "ponmlkjihgfedcba", "0123456789abcdef", "fedcba9876543210",
};

struct bench_thread {
	pthread_t tid;
	unsigned index;
	enum bench_kind kind;
	uint64_t events;
	uint64_t start_ns, end_ns;
	uint64_t cpu_ns;	/* CPU time of the thread in its loop (CLOCK_THREAD_CPUTIME_ID) */
	pthread_barrier_t *go;
	int pin_err;
};

static inline uint64_t bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline uint64_t bench_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The loop body of the empty row: the same payload computed, handed to nothing. The asm keeps the
 * values live without emitting any instruction, so this is the cost of the loop alone. */
static inline void bench_emit_empty(uint64_t a, uint64_t b, uint32_t c)
{
	__asm__ __volatile__("" : : "r"(a), "r"(b), "r"(c));
}

static void bench_loop(struct bench_thread *t)
{
	uint64_t n = t->events, i;

	switch (t->kind) {
	case BENCH_INT3:
		for (i = 0; i < n; i++)
			bench_emit_int3(i, i * 3, (uint32_t)i);
		break;
	case BENCH_STR:
		for (i = 0; i < n; i++)
			bench_emit_str(i, bench_strings[i & 3]);
		break;
	case BENCH_EMPTY:
		for (i = 0; i < n; i++)
			bench_emit_empty(i, i * 3, (uint32_t)i);
		break;
	}
}

static void *bench_thread_main(void *arg)
{
	struct bench_thread *t = arg;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t set;
	uint64_t cpu0;

	CPU_ZERO(&set);
	CPU_SET(t->index % (unsigned)(ncpu > 0 ? ncpu : 1), &set);
	t->pin_err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	pthread_barrier_wait(t->go);
	cpu0 = bench_cpu_ns();
	t->start_ns = bench_now_ns();
	bench_loop(t);
	t->end_ns = bench_now_ns();
	t->cpu_ns = bench_cpu_ns() - cpu0;
	return NULL;
}

static int bench_parse(int argc, char **argv, struct bench_result *r)
{
	char *end;
	unsigned long th;
	unsigned long long ev;

	if (argc != 4)
		goto usage;
	if (!strcmp(argv[1], "int3"))
		r->kind = BENCH_INT3;
	else if (!strcmp(argv[1], "str"))
		r->kind = BENCH_STR;
	else if (!strcmp(argv[1], "empty"))
		r->kind = BENCH_EMPTY;
	else
		goto usage;
	errno = 0;
	th = strtoul(argv[2], &end, 10);
	if (errno || *end || th < 1 || th > BENCH_MAX_THREADS)
		goto usage;
	ev = strtoull(argv[3], &end, 10);
	if (errno || *end || ev < 1)
		goto usage;
	r->threads = (unsigned)th;
	r->events = ev;
	return 0;
usage:
	fprintf(stderr, "usage: %s int3|str|empty THREADS(1-%d) EVENTS_PER_THREAD\n", argv[0],
		BENCH_MAX_THREADS);
	return -EINVAL;
}

/* Parses the arguments, runs the loops, fills r. 0, or a negative errno value (message printed). */
static int bench_run(int argc, char **argv, struct bench_result *r)
{
	struct bench_thread t[BENCH_MAX_THREADS];
	pthread_barrier_t go;
	uint64_t first = UINT64_MAX, last = 0, slowest = 0, cpu = 0;
	unsigned i, started = 0;
	int err;

	memset(r, 0, sizeof(*r));
	if (bench_parse(argc, argv, r))
		return -EINVAL;
	if (pthread_barrier_init(&go, NULL, r->threads + 1))
		return -ENOMEM;
	for (i = 0; i < r->threads; i++) {
		t[i] = (struct bench_thread){ .index = i, .kind = r->kind, .events = r->events, .go = &go };
		err = pthread_create(&t[i].tid, NULL, bench_thread_main, &t[i]);
		if (err) {
			fprintf(stderr, "%s: cannot start thread %u: %s\n", argv[0], i, strerror(err));
			/* the barrier needs threads + 1 arrivals: the started ones are released by none;
			 * exit without joining, nothing has been measured. */
			return -err;
		}
		started++;
	}
	pthread_barrier_wait(&go);
	for (i = 0; i < started; i++) {
		pthread_join(t[i].tid, NULL);
		if (t[i].pin_err)
			fprintf(stderr, "%s: warning: thread %u not pinned: %s\n", argv[0], i,
				strerror(t[i].pin_err));
		if (t[i].start_ns < first)
			first = t[i].start_ns;
		if (t[i].end_ns > last)
			last = t[i].end_ns;
		if (t[i].end_ns - t[i].start_ns > slowest)
			slowest = t[i].end_ns - t[i].start_ns;
		if (t[i].cpu_ns > cpu)
			cpu = t[i].cpu_ns;
	}
	pthread_barrier_destroy(&go);
	r->wall_ns = last - first;
	r->ns_per_event = (double)slowest / (double)r->events;
	r->cpu_ns_per_event = (double)cpu / (double)r->events;
	return 0;
}

static void bench_print(const struct bench_result *r)
{
	printf("ns_per_event=%.3f events=%" PRIu64 " threads=%u wall_ns=%" PRIu64 " cpu_ns_per_event=%.3f\n",
	       r->ns_per_event, r->events * r->threads, r->threads, r->wall_ns, r->cpu_ns_per_event);
}

#endif
