/* Event and lost-event counts per tracefile for manifests, read through the public reader API. */
#include <stdlib.h>
#include <string.h>

#include <ltt/reader.h>

#include "archive_count.h"

static void count_problem(void *arg, const struct ltt_problem *p)
{
	(void)p;
	(*(uint64_t *)arg)++;
}

/* Index of tf in the trace's tracefiles; `hint` is the last answer (events come in runs). */
static unsigned tracefile_index(const struct ltt_trace_info *t, const struct ltt_tracefile_info *tf,
				unsigned hint)
{
	if (hint < t->ntracefiles && t->tracefiles[hint] == tf)
		return hint;
	for (unsigned i = 0; i < t->ntracefiles; i++)
		if (t->tracefiles[i] == tf)
			return i;
	return t->ntracefiles;
}

void ltt_archive_count_events(const char *dir, struct ltt_manifest *m)
{
	uint64_t problems = 0, *events;
	struct ltt_reader_options ro = { .flags = 0, .problem = count_problem, .problem_arg = &problems };
	struct ltt_reader *r;
	const struct ltt_trace_info *t;
	struct ltt_event ev;
	unsigned hint = 0;
	int ret;

	if (ltt_reader_open(&r, &dir, 1, &ro, NULL, 0) < 0)
		return;
	t = ltt_reader_trace(r, 0);
	events = t ? calloc(t->ntracefiles + 1, sizeof(*events)) : NULL;
	if (!events) {
		ltt_reader_close(r);
		return;
	}
	/* Builtin records are hidden (no LTT_READ_BUILTIN): what is yielded is the trace's events. */
	while ((ret = ltt_reader_next(r, &ev)) > 0) {
		hint = tracefile_index(t, ev.tracefile, hint);
		events[hint]++;
	}
	if (ret < 0)
		problems++;
	for (unsigned i = 0; i < t->ntracefiles; i++) {
		const struct ltt_tracefile_info *tf = t->tracefiles[i];
		uint64_t lost = tf->blocks_lost_events;

		for (unsigned c = 0; c < LTT_LOST_NCAUSES; c++)
			lost += tf->events_lost[c];
		for (size_t k = 0; k < m->n; k++) {
			if (strcmp(m->files[k].path, tf->name))
				continue;
			m->files[k].events = events[i];
			m->files[k].lost = lost;
		}
	}
	m->reader_problems = problems;
	free(events);
	ltt_reader_close(r);
}
