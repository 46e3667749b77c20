/* SPDX-License-Identifier: MIT */
/* spans_open N: N spantest.job_begin events (ids 1..N) never ended, for tests/e2e/spans_open.sh (issue
 * 34, point 7: the spans model in linear time and bounded memory per open span). Recording is started
 * by LTT_TRACE; it pauses 1 ms every 4096 begins so that discard mode's consumer keeps up. */
#include <stdlib.h>
#include <time.h>

#include "spantest.h"

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	const struct timespec ms = { 0, 1000000 };

	for (unsigned long i = 1; i <= n; i++) {
		trace_spantest_job_begin((uint32_t)i, "j");
		if (i % 4096 == 0)
			nanosleep(&ms, NULL);
	}
	return 0;
}
