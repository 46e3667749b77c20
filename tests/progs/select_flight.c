/* SPDX-License-Identifier: MIT */
/* select_flight: helper of the snapshot trigger and `ltt snapshot` tests (tests/e2e/select_snapshot.sh,
 * select_trigger.sh). Recording is started by the environment (LTT_TRACE, LTT_MODE=flight, ...).
 *   select_flight run MS          seltest.b in bursts until SIGINT, SIGTERM or SIGHUP (then returns
 *                                 from main: the snapshot at exit, if any, is taken) or MS ms passed
 *   select_flight trigger N K     N events seltest.a(0, i), and seltest.c(0, K) right after a(K); then
 *                                 waits 300 ms (the recorder's thread takes the snapshot meanwhile)
 *   select_flight storm MS        seltest.c in bursts for MS ms, then waits 300 ms
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ltt/ltt.h>

#include "seltest.h"

static volatile sig_atomic_t stop;

static void on_stop(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void pause_ms(long ms)
{
	nanosleep(&(struct timespec){ ms / 1000, (ms % 1000) * 1000000 }, NULL);
}

int main(int argc, char **argv)
{
	uint64_t i = 0;

	if (argc == 3 && (!strcmp(argv[1], "run") || !strcmp(argv[1], "storm"))) {
		struct sigaction sa = { .sa_handler = on_stop };
		uint64_t end = now_ms() + (uint64_t)atol(argv[2]);
		int storm = !strcmp(argv[1], "storm");

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		sigaction(SIGHUP, &sa, NULL);
		while (!stop && now_ms() < end) {
			for (int k = 0; k < 100; k++, i++) {
				if (storm)
					trace_seltest_c(0, i);
				else
					trace_seltest_b(0, i);
			}
			pause_ms(1);
		}
		if (storm)
			pause_ms(300);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "trigger")) {
		uint64_t n = strtoull(argv[2], NULL, 10), k = strtoull(argv[3], NULL, 10);

		for (i = 0; i < n; i++) {
			trace_seltest_a(0, i);
			if (i == k)
				trace_seltest_c(0, i);
		}
		pause_ms(300);
		return 0;
	}
	fprintf(stderr, "usage: select_flight run MS | trigger N K | storm MS\n");
	return 2;
}
