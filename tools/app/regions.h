/* `ltt stats --regions`: time spent in the app facility's regions (eventdefs/app.xml), per category
 * and label: count, total, self (total minus the time in regions nested directly inside), min,
 * median and max, for each thread and for all threads together. A region's time is from its
 * region_enter to its region_leave on the same thread; a leave whose enter is not in the trace (a
 * flight-recorder snapshot, recording started inside the region) is not counted. */
#ifndef LTT_TOOLS_REGIONS_H
#define LTT_TOOLS_REGIONS_H

#include <stdio.h>

#include <ltt/reader.h>

/* Reads the remaining events of r (opened with the app facility's events visible) and prints the
 * tables on out, as text, or as one JSON object when json is nonzero. Returns 0, -ENOMEM, or the
 * reader's negative errno. */
int regions_report(struct ltt_reader *r, FILE *out, int json);

#endif
