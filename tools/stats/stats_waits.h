/* SPDX-License-Identifier: MIT */
/* `ltt stats --waits` (doc/cli.md): waits on locks (ltt.wait events, LTT_WAITS=1) ranked per lock. */
#ifndef LTT_TOOLS_STATS_WAITS_H
#define LTT_TOOLS_STATS_WAITS_H

#include <stdio.h>

#include <ltt/reader.h>

/* Reads the remaining events of r (hiding all but ltt.wait) and prints the locks, text or one JSON
 * object. 0, -ENOMEM or the reader's errno. */
int stats_waits_report(struct ltt_reader *r, FILE *out, int json);

#endif
