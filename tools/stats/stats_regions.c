/* SPDX-License-Identifier: MIT */
/* `ltt stats --regions` (doc/cli.md): time in the app facility's regions per category and label, per
 * thread and for all threads; the model and its tables are toolkit/regions.c's (regions_report). */
#include "toolkit/regions.h"
#include "report.h"

static int regions_run(struct ltt_reader *r, const struct stats_args *a)
{
	return regions_report(r, a->out, a->json);
}

const struct stats_report stats_report_regions = {
	.option = "regions",
	.run = regions_run,
};
