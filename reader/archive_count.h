/* SPDX-License-Identifier: MIT */
/* Per-tracefile counts (events, lost, overwritten) for the manifest of a packed trace. */
#ifndef LTT_READER_ARCHIVE_COUNT_H
#define LTT_READER_ARCHIVE_COUNT_H

#include "manifest.h"

/* Reads every event of the trace directory `dir` with the reader library and fills in the events,
 * lost and overwritten fields of m's tracefiles (struct ltt_counts) and m->reader_problems. A trace
 * the reader cannot open keeps LTT_MANIFEST_NO_COUNT everywhere: packing never fails because of the
 * trace's contents. */
void ltt_archive_count_events(const char *dir, struct ltt_manifest *m);

#endif
