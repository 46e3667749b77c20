/* SPDX-License-Identifier: MIT */
/* The rows of waits on locks (bench/rows/waits.sh, doc/recorder.md "Waits on locks"): lock/unlock
 * pairs of a pthread mutex in a program linked with libltt (whose pthread_mutex_lock interposes the C
 * library's); whether waits are recorded is the environment's business (LTT_WAITS, LTT_TRACE).
 *   bench_waits lock 1 N       N uncontended pairs through pthread_mutex_lock (libltt's)
 *   bench_waits direct 1 N     N uncontended pairs through the C library's own pthread_mutex_lock
 *                              (dlsym RTLD_NEXT: no interposition), the floor of the above
 *   bench_waits contended 2 N  two threads, N pairs each on one mutex with a short critical
 *                              section: most acquisitions find it held and wait
 * A second thread, idle, is started first in every mode: glibc locks a mutex without an atomic
 * instruction while a process has one thread (SINGLE_THREAD_P), which a trylock never does; the
 * comparison is made where locks matter, in a process of several threads.
 * Output as the other bench programs (bench/workload.h): ns_per_event=F ... cpu_ns_per_event=F, an
 * "event" being one lock/unlock pair (wall time per pair of one thread). */
#include <dlfcn.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ltt/ltt.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int (*direct_lock)(pthread_mutex_t *);
static uint64_t n;
static volatile uint64_t sink;

static uint64_t now(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static pthread_mutex_t idle_m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_c = PTHREAD_COND_INITIALIZER;
static int idle_done;

static void *idle(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&idle_m);
	while (!idle_done)
		pthread_cond_wait(&idle_c, &idle_m);
	pthread_mutex_unlock(&idle_m);
	return NULL;
}

static void *contend(void *arg)
{
	(void)arg;
	for (uint64_t i = 0; i < n; i++) {
		pthread_mutex_lock(&m);
		for (int k = 0; k < 20; k++)
			sink += (uint64_t)k;
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	uint64_t w0, c0, w1, c1;
	int mode = argc == 4 ? (!strcmp(argv[1], "lock") ? 0 : !strcmp(argv[1], "direct") ? 1
				: !strcmp(argv[1], "contended") ? 2 : -1) : -1;
	pthread_t th, th_idle;

	if (mode < 0 || strcmp(argv[2], mode == 2 ? "2" : "1")) {
		fprintf(stderr, "usage: %s lock|direct 1 N, %s contended 2 N\n", argv[0], argv[0]);
		return 2;
	}
	n = strtoull(argv[3], NULL, 10);
	direct_lock = (int (*)(pthread_mutex_t *))dlsym(RTLD_NEXT, "pthread_mutex_lock");
	if (!direct_lock) {
		fprintf(stderr, "%s: no pthread_mutex_lock after this program's\n", argv[0]);
		return 1;
	}
	if (pthread_create(&th_idle, NULL, idle, NULL))
		return 1;
	w0 = now(CLOCK_MONOTONIC);
	c0 = now(CLOCK_PROCESS_CPUTIME_ID);
	if (mode == 0) {
		for (uint64_t i = 0; i < n; i++) {
			pthread_mutex_lock(&m);
			pthread_mutex_unlock(&m);
		}
	} else if (mode == 1) {
		for (uint64_t i = 0; i < n; i++) {
			direct_lock(&m);
			pthread_mutex_unlock(&m);
		}
	} else {
		if (pthread_create(&th, NULL, contend, NULL))
			return 1;
		contend(NULL);
		pthread_join(th, NULL);
	}
	c1 = now(CLOCK_PROCESS_CPUTIME_ID);
	w1 = now(CLOCK_MONOTONIC);
	pthread_mutex_lock(&idle_m);
	idle_done = 1;
	pthread_cond_signal(&idle_c);
	pthread_mutex_unlock(&idle_m);
	pthread_join(th_idle, NULL);
	printf("ns_per_event=%.3f events=%" PRIu64 " threads=%d wall_ns=%" PRIu64 " recording=%d cpu_ns_per_event=%.3f\n",
	       (double)(w1 - w0) / (double)n, n, mode == 2 ? 2 : 1, w1 - w0, ltt_recording(),
	       (double)(c1 - c0) / (double)n / (mode == 2 ? 2 : 1));
	return 0;
}
