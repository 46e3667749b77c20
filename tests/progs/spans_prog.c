/* SPDX-License-Identifier: MIT */
/* spans_prog: helper of tests/e2e/spans.sh (the spans of tests/eventdefs/spantest.xml). Recording is
 * started by LTT_TRACE. Prints "main TID", then "cross TID" and "worker TID" for its threads. Spans:
 *   main thread: job 1 and job 2 overlap without nesting (1 begins, 2 begins, 1 ends, ... 2 ends);
 *                req "alpha" and "beta" the same way (string keys);
 *                job 7 twice, nested (the second begin's end comes first);
 *   job 3: begun by the main thread, ended by the "cross" thread;
 *   4 worker threads: 25 jobs each, keys 1000 + 100 * worker + i, each inside the previous one's
 *                     interval half of the time (odd i end before the even i - 1 they follow);
 *   an end without a begin: job 42 and req "zeta"; never ended: job 9 and req "gamma".
 * job_end's status is 10 x the id; job_begin's what is "job-ID". Every job_begin is followed by a
 * spantest.mark of the same id (an event of no span). Closed: 5 + 100 jobs, 2 reqs; open 2; unmatched 2. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "spantest.h"

static void job_begin(uint32_t id)
{
	char what[32];

	snprintf(what, sizeof(what), "job-%u", id);
	trace_spantest_job_begin(id, what);
	trace_spantest_mark(id);
}

static void job_end(uint32_t id)
{
	trace_spantest_job_end(id, (int32_t)(id * 10));
}

static void *cross(void *arg)
{
	(void)arg;
	printf("cross %d\n", gettid());
	job_end(3);
	return NULL;
}

static void *worker(void *arg)
{
	uint32_t base = 1000 + 100 * (uint32_t)(uintptr_t)arg;

	printf("worker %d\n", gettid());
	for (uint32_t i = 0; i < 25; i += 2) {
		job_begin(base + i);
		if (i + 1 < 25) {	/* i + 1 begins inside i and ends first */
			job_begin(base + i + 1);
			job_end(base + i + 1);
		}
		job_end(base + i);
	}
	return NULL;
}

int main(void)
{
	pthread_t th[4];

	printf("main %d\n", gettid());
	fflush(stdout);
	job_begin(1);
	job_begin(2);
	job_end(1);
	trace_spantest_req_open("alpha");
	trace_spantest_req_open("beta");
	trace_spantest_req_close("alpha");
	trace_spantest_req_close("beta");
	job_begin(7);
	job_begin(7);
	job_end(7);
	job_end(7);
	job_begin(3);
	if (pthread_create(&th[0], NULL, cross, NULL))
		return 1;
	pthread_join(th[0], NULL);
	fflush(stdout);
	job_end(2);
	for (uintptr_t t = 0; t < 4; t++)
		if (pthread_create(&th[t], NULL, worker, (void *)t))
			return 1;
	for (unsigned t = 0; t < 4; t++)
		pthread_join(th[t], NULL);
	job_end(42);
	trace_spantest_req_close("zeta");
	job_begin(9);
	trace_spantest_req_open("gamma");
	return 0;
}
