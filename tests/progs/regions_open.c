/* SPDX-License-Identifier: MIT */
/* regions_open: helper of tests/e2e/regions_open.sh. Run in flight mode (LTT_MODE=flight): the main
 * thread completes main/done, then enters main/outer, main/middle and work/inner (nested, 3 deep) and,
 * inside them, takes a snapshot (ltt_snapshot) whose path it prints ("snapshot PATH"); then it leaves
 * the three and exits without a snapshot at exit. In the snapshot: 1 completed region, 3 open ones. */
#include <stdio.h>

#include <ltt/app.h>
#include <ltt/ltt.h>

int main(int argc, char **argv)
{
	char path[4096];
	int rc;

	ltt_snapshot_at_exit(0);
	ltt_cmd_start(argc, argv);
	ltt_region_enter("main", "done");
	ltt_region_leave("main", "done");
	ltt_region_enter("main", "outer");
	ltt_region_enter("main", "middle");
	ltt_region_enter("work", "inner");
	rc = ltt_snapshot(path, sizeof(path));
	if (rc < 0) {
		fprintf(stderr, "ltt_snapshot: %d\n", rc);
		return 1;
	}
	printf("snapshot %s\n", path);
	ltt_region_leave("work", "inner");
	ltt_region_leave("main", "middle");
	ltt_region_leave("main", "outer");
	return 0;
}
