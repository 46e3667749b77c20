/* SPDX-License-Identifier: MIT */
/* `ltt stats --io` (doc/cli.md): read and write system calls per process, thread and file, with bytes
 * and latency percentiles, from the kernel events and the fd facility (toolkit/io_model.h). */
#ifndef LTT_TOOLS_STATS_IO_H
#define LTT_TOOLS_STATS_IO_H

#include <stdio.h>

#include <ltt/reader.h>

/* Reads the remaining events of r and prints the tables on out, as text or one JSON object.
 * 0, -ENOMEM or the reader's errno. */
int stats_io_report(struct ltt_reader *r, FILE *out, int json);

#endif
