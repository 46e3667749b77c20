/* SPDX-License-Identifier: MIT */
/* rec_prctl: the main thread renames itself with prctl(PR_SET_NAME) (not pthread_setname_np) while a
 * trace records (LTT_TRACE), and a second thread does the same; tests/e2e/recorder_prctl.sh expects a
 * core.thread_name event for each. Prints "renamed". */
#include <pthread.h>
#include <stdio.h>
#include <sys/prctl.h>

#include "rec_rtest.h"

static void *worker(void *arg)
{
	(void)arg;
	prctl(PR_SET_NAME, "prctl-worker", 0, 0, 0);
	rtest_ev(1, 0, rtest_check(1, 0));
	return NULL;
}

int main(void)
{
	pthread_t t;

	if (prctl(PR_SET_NAME, "prctl-main") != 0)
		return 2;
	rtest_ev(0, 0, rtest_check(0, 0));
	if (pthread_create(&t, NULL, worker, NULL))
		return 2;
	pthread_join(t, NULL);
	printf("renamed\n");
	return 0;
}
