/* SPDX-License-Identifier: MIT */
/* io_rotate: the writer of the rotation tests (tests/e2e/io_rotate.sh). Pinned to CPU 0, emits N
 * rtest.ev events (thread 0, seq 0 .. N-1), sleeping MS milliseconds after every EVERY events (so the
 * consumer, on a loaded machine, gets its turns; drops are counted anyway). With "thread", first starts
 * a thread named io-old-thread that lives until the end (a chunk begun later must list it). Usage:
 * io_rotate N EVERY MS [thread]. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rec_rtest.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int done;

static void *old_thread(void *arg)
{
	(void)arg;
	pthread_setname_np(pthread_self(), "io-old-thread");
	pthread_mutex_lock(&mu);
	while (!done)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long long n, every, ms;
	cpu_set_t set;
	pthread_t t;
	int th = argc > 4 && !strcmp(argv[4], "thread");

	if (argc < 4)
		return 2;
	n = strtoull(argv[1], NULL, 10);
	every = strtoull(argv[2], NULL, 10);
	ms = strtoull(argv[3], NULL, 10);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);	/* one CPU ring: the checker follows one stream */
	if (th && pthread_create(&t, NULL, old_thread, NULL))
		return 2;
	for (unsigned long long i = 0; i < n; i++) {
		rtest_ev(0, i, rtest_check(0, i));
		if (ms && every && (i + 1) % every == 0)
			nanosleep(&(struct timespec){ (time_t)(ms / 1000), (long)(ms % 1000) * 1000000 }, NULL);
	}
	if (th) {
		pthread_mutex_lock(&mu);
		done = 1;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&mu);
		pthread_join(t, NULL);
	}
	return 0;
}
