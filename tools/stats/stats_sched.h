/* SPDX-License-Identifier: MIT */
/* `ltt stats --sched` (doc/cli.md): time per thread, process and CPU by mode and state, system calls,
 * switches, migrations and preemptions, from the kernel events (toolkit/sched_model.h). */
#ifndef LTT_TOOLS_STATS_SCHED_H
#define LTT_TOOLS_STATS_SCHED_H

#include <stdio.h>

#include <ltt/reader.h>

/* Reads the remaining events of r (merge order; the types the model does not take are hidden here)
 * and prints the tables on out, as text or one JSON object. 0, -ENOMEM or the reader's errno. */
int stats_sched_report(struct ltt_reader *r, FILE *out, int json);

#endif
