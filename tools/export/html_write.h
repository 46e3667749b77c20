/* SPDX-License-Identifier: MIT */
/* The HTML export's page (html_write.c): the viewer's HTML, CSS and JavaScript (tools/export/html/,
 * embedded at build time) around the trace's data, a gzip stream (zlib) in base64 that the browser's
 * DecompressionStream inflates. The data's layout (read by tools/export/html/data.js):
 *
 *     column bytes ... | JSON (the description: strings, processes, lanes, losses, and for each column
 *     its [offset, length] in the bytes before) | JSON's length, 4 bytes little-endian
 *
 * Columns are unsigned LEB128 varints (times as differences from the previous item of the lane) or
 * raw bytes (the summaries' levels). */
#ifndef LTT_TOOLS_EXPORT_HTML_WRITE_H
#define LTT_TOOLS_EXPORT_HTML_WRITE_H

#include <stdint.h>

#include "common/buf.h"
#include "toolkit/dump_out.h"
#include "html_model.h"

struct hw_loss {
	uint64_t t;			/* relative ns */
	uint64_t count;
	uint32_t lane, cause;		/* cause: a string */
};

struct hw_info {
	const char *title;		/* the first trace's path */
	unsigned ntraces;
	uint64_t t0;			/* absolute ns of relative time 0 */
	uint64_t events;		/* events read */
	uint64_t lost_total;
	const struct hw_loss *losses;
	size_t nlosses;
	uint64_t losses_merged;		/* loss records past the markers' budget, merged into the last */
	const uint32_t *node_parent, *node_func;	/* stack nodes: parent (+1, 0 root), function name */
	size_t nnodes;
	uint64_t samples_unknown;	/* stack samples whose stack was not known */
	int states;			/* kernel states were recorded */
	int runnable_source;		/* sched_model_runnable_source */
};

/* Writes the page to o: 0 or a negative errno (o->error for write errors). */
int html_write(struct dump_out *o, const struct hm *m, const struct hw_info *info);

#endif
