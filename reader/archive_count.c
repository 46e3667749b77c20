/* SPDX-License-Identifier: MIT */
/* The counts per tracefile for manifests (struct ltt_counts of ltt/reader.h: events, lost,
 * overwritten), read through the public reader API. */
#include <string.h>

#include <ltt/reader.h>

#include "archive_count.h"
#include "reader/write_losses.h"

static void count_problem(void *arg, const struct ltt_problem *p)
{
	(void)p;
	(*(uint64_t *)arg)++;
}

void ltt_archive_count_events(const char *dir, struct ltt_manifest *m)
{
	uint64_t problems = 0;
	struct ltt_reader_options ro = { .flags = 0, .problem = count_problem, .problem_arg = &problems };
	struct ltt_reader *r;
	const struct ltt_trace_info *t;
	struct ltt_event ev;
	int ret;

	if (ltt_reader_open(&r, &dir, 1, &ro, NULL, 0) < 0)
		return;
	/* Read through: the tracefiles' counts are complete at the end (ltt/reader.h). */
	while ((ret = ltt_reader_next(r, &ev)) > 0)
		;
	if (ret < 0)
		problems++;
	t = ltt_reader_trace(r, 0);
	for (unsigned i = 0; t && i < t->ntracefiles; i++) {
		const struct ltt_tracefile_info *tf = t->tracefiles[i];
		struct ltt_counts c = { 0 };

		ltt_counts_add(&c, tf);
		for (size_t k = 0; k < m->n; k++) {
			if (strcmp(m->files[k].path, tf->name))
				continue;
			m->files[k].events = c.events;
			m->files[k].lost = c.lost;
			m->files[k].overwritten = c.overwritten;
		}
	}
	m->reader_problems = problems;
	m->not_stopped = ltt_trace_not_stopped(dir);
	ltt_reader_close(r);
}
