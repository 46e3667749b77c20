/* SPDX-License-Identifier: MIT */
/* The reports of `ltt stats` (report.h): adding one is its file and a row here. */
#include "report.h"

const struct stats_report *const stats_reports[] = {
	&stats_report_regions,
	&stats_report_profile,
	&stats_report_sched,
	&stats_report_io,
	&stats_report_waits,
	&stats_report_functions,
	&stats_report_per_thread,
};

const unsigned stats_nreports = sizeof(stats_reports) / sizeof(stats_reports[0]);
