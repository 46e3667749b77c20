/* SPDX-License-Identifier: MIT */
/* `ltt stats --per-thread` (doc/cli.md): the events of each thread, by event type, with its name. */
#ifndef LTT_TOOLS_STATS_THREADS_H
#define LTT_TOOLS_STATS_THREADS_H

#include <ltt/reader.h>

#include "toolkit/dump_format.h"
#include "toolkit/event_tid.h"

/* Reads the remaining events of r (merged in time order, builtin records hidden) and prints per trace
 * its threads (those in tids only, when tids->n): tid, pid, name, events, first and last event time,
 * and the events per facility.event; as text, or one JSON object per trace. 0, -ENOMEM or the
 * reader's negative errno. */
int stats_threads_report(struct ltt_reader *r, struct dump_out *o, const struct tid_list *tids, int json);

#endif
