/* SPDX-License-Identifier: MIT */
/* Regions of a known shape for `ltt stats --regions` (tests/e2e/regions_stats.sh): the main thread
 * runs main/all around two worker threads, started and joined one after the other; each worker runs
 * 3 work/outer, each holding 5 work/inner, each holding 2 work/leaf (some arithmetic in each leaf, so
 * that durations differ). Counts per thread: outer 3 (children 15), inner 15 (children 30), leaf 30. */
#include <pthread.h>
#include <stdint.h>

#include <ltt/app.h>

static volatile uint64_t sink;

static void *worker(void *arg)
{
	(void)arg;
	ltt_thread_start("worker");
	for (int o = 0; o < 3; o++) {
		ltt_region_enter("work", "outer");
		for (int i = 0; i < 5; i++) {
			ltt_region_enter("work", "inner");
			for (int l = 0; l < 2; l++) {
				ltt_region_enter("work", "leaf");
				for (int k = 0; k < 100 * (o * 10 + i * 2 + l + 1); k++)
					sink += (uint64_t)k * 2654435761u;
				ltt_region_leave("work", "leaf");
			}
			ltt_region_leave("work", "inner");
		}
		ltt_region_leave("work", "outer");
	}
	ltt_thread_exit();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th;

	ltt_cmd_start(argc, argv);
	ltt_region_enter("main", "all");
	for (int t = 0; t < 2; t++) {
		if (pthread_create(&th, NULL, worker, NULL))
			return 1;
		pthread_join(th, NULL);
	}
	ltt_region_leave("main", "all");
	return 0;
}
