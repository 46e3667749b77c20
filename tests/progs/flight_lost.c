/* SPDX-License-Identifier: MIT */
/* flight_lost: drops in flight mode, for tests/e2e/flight_lost.sh. ltt_start() from code, 4 KiB blocks.
 *   flight_lost TRACE big      2 notes too big for a block (too_big), snapshot 1, snapshot 2 (the
 *                              drops still unreported in the ring: both snapshots report them), then
 *                              ticks until the ring opens new blocks (the opener reports them in the
 *                              ring), snapshot 3; prints "too_big=2"
 *   flight_lost TRACE threads N   LTT_BLOCKS=2: N threads started and joined one after another (their
 *                              thread_start/thread_exit fill control/processes, the rest is dropped),
 *                              snapshot 1; prints "threads=N" */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt.h>

#include "flighttest.h"

static void *nothing(void *arg)
{
	return arg;
}

int main(int argc, char **argv)
{
	struct ltt_options o;
	char snap[4096];
	int rc;

	if (argc < 3)
		return 2;
	memset(&o, 0, sizeof(o));
	o.path = argv[1];
	o.mode = LTT_MODE_FLIGHT;
	o.block_size = 4096;
	o.blocks = !strcmp(argv[2], "threads") ? 2 : 8;
	ltt_snapshot_at_exit(0);
	rc = ltt_start(&o);
	if (rc) {
		fprintf(stderr, "ltt_start: %d\n", rc);
		return 2;
	}
	if (!strcmp(argv[2], "big")) {
		char *s = malloc(10000);

		if (!s)
			return 2;
		memset(s, 'a', 9999);
		s[9999] = 0;
		trace_flighttest_tick(0, 0);
		trace_flighttest_note(1, s);
		trace_flighttest_note(2, s);
		if (ltt_snapshot(snap, sizeof(snap)) || ltt_snapshot(snap, sizeof(snap)))
			return 3;
		for (uint64_t i = 1; i < 1000; i++)
			trace_flighttest_tick(0, i);
		if (ltt_snapshot(snap, sizeof(snap)))
			return 3;
		printf("too_big=2\n");
		free(s);
	} else if (argc == 4) {
		unsigned n = (unsigned)atoi(argv[3]);

		for (unsigned i = 0; i < n; i++) {
			pthread_t t;

			if (pthread_create(&t, NULL, nothing, NULL))
				return 4;
			pthread_join(t, NULL);
		}
		if (ltt_snapshot(snap, sizeof(snap)))
			return 3;
		printf("threads=%u\n", n);
	}
	ltt_stop();
	return 0;
}
