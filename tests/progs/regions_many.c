/* SPDX-License-Identifier: MIT */
/* regions_many K: many regions of a known shape, for the memory of the regions table and export
 * (tests/e2e/regions_memory.sh). The main thread runs main/all around K iterations, each a
 * work/outer region entered with ltt_region_enter_printf("job %u", i) holding one work/inner region
 * (no message): 2K + 1 regions, at most 3 open at a time. It pauses 1 ms every 2048 iterations so
 * that discard mode's consumer keeps up (the test checks nothing was lost). */
#include <stdlib.h>
#include <time.h>

#include <ltt/app.h>

int main(int argc, char **argv)
{
	unsigned long k = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	const struct timespec ms = { 0, 1000000 };

	ltt_cmd_start(argc, argv);
	ltt_region_enter("main", "all");
	for (unsigned long i = 0; i < k; i++) {
		ltt_region_enter_printf("work", "outer", "job %lu", i);
		ltt_region_enter("work", "inner");
		ltt_region_leave("work", "inner");
		ltt_region_leave("work", "outer");
		if (i % 2048 == 2047)
			nanosleep(&ms, NULL);
	}
	ltt_region_leave("main", "all");
	return 0;
}
