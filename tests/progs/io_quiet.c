/* SPDX-License-Identifier: MIT */
/* io_quiet: a quiet traced program (LTT_TRACE): emits N rtest.ev events (thread 0, seq 0 .. N-1), one
 * every MS milliseconds, prints "emitted" and then waits for a line on stdin before it exits, so that
 * tests/e2e/io_flush.sh can read the trace while the program still runs (the flush timer, not the
 * flush at exit, must have put the events on disk). Usage: io_quiet N MS [wait]. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rec_rtest.h"

int main(int argc, char **argv)
{
	unsigned long n, ms;
	char line[16];

	if (argc < 3)
		return 2;
	n = strtoul(argv[1], NULL, 10);
	ms = strtoul(argv[2], NULL, 10);
	for (unsigned long i = 0; i < n; i++) {
		rtest_ev(0, i, rtest_check(0, i));
		if (ms)
			nanosleep(&(struct timespec){ (time_t)(ms / 1000), (long)(ms % 1000) * 1000000 }, NULL);
	}
	printf("emitted\n");
	fflush(stdout);
	if (argc > 3 && !strcmp(argv[3], "wait") && !fgets(line, sizeof(line), stdin))
		return 0;
	return 0;
}
