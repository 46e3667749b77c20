/* SPDX-License-Identifier: MIT */
/* io_chunkcheck: reads the chunks of a rotating trace given in order (each on its own, with
 * libltt-reader) and follows the rtest.ev stream of io_rotate (thread 0, seq 0, 1, ...) through them.
 * Prints one line:
 *   events=N lost=N lost_before=N first=S last=S dup=N bad=N problems=N all=N blost=N
 * events: rtest.ev events; lost: the events_lost counts of the cpu tracefiles; lost_before: those
 * counted before the first rtest.ev (drops before the span); first/last: seq of the first and last
 * event; dup: events whose seq is not above the previous one (duplicated or out of order); bad:
 * events whose check field is wrong; problems: reader problems. For the span the chunks cover,
 * events + lost - lost_before == last - first + 1 when no event is lost unaccounted. all: rtest events
 * of every thread (ev and sig) in the cpu tracefiles; blost: events of the blocks the recorder could not
 * write (blocks_lost records of the cpu tracefiles): all + lost + blost == emitted.
 * Usage: io_chunkcheck CHUNK... */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <ltt/reader.h>

#include "rec_rtest.h"

static void problem(void *arg, const struct ltt_problem *p)
{
	char buf[512];
	uint64_t *n = arg;

	if ((*n)++ < 3)
		fprintf(stderr, "io_chunkcheck: %s\n", ltt_problem_format(p, buf, sizeof(buf)));
}

int main(int argc, char **argv)
{
	uint64_t events = 0, lost = 0, lost_before = 0, first = 0, last = 0, dup = 0, bad = 0, problems = 0;
	uint64_t all = 0, blost = 0;

	for (int a = 1; a < argc; a++) {
		struct ltt_reader_options opt = { .flags = LTT_READ_BUILTIN | LTT_READ_UNORDERED,
						  .problem = problem, .problem_arg = &problems };
		const char *paths[1] = { argv[a] };
		struct ltt_reader *r;
		struct ltt_event ev;
		char err[512];
		int rc;

		if (ltt_reader_open(&r, paths, 1, &opt, err, sizeof(err))) {
			fprintf(stderr, "io_chunkcheck: %s\n", err);
			return 1;
		}
		while ((rc = ltt_reader_next(r, &ev)) == 1) {
			uint64_t seq, check, count;
			uint32_t thread;

			if (ev.tracefile->cpu < 0)
				continue;
			if (ev.id == LTT_ID_EVENTS_LOST && ev.size >= 9) {
				memcpy(&count, ev.payload, 8);
				lost += count;
				if (!events)
					lost_before += count;
				continue;
			}
			if (ev.type->builtin || strcmp(ev.type->facility, "rtest"))
				continue;
			all++;
			if (strcmp(ev.type->name, "ev"))
				continue;
			memcpy(&thread, ev.payload, 4);
			memcpy(&seq, ev.payload + 4, 8);
			memcpy(&check, ev.payload + 12, 8);
			if (check != rtest_check(thread, seq))
				bad++;
			if (thread)
				continue;	/* the stream followed is thread 0's */
			if (!events)
				first = seq;
			else if (seq <= last)
				dup++;
			last = seq;
			events++;
		}
		if (rc == 0) {
			const struct ltt_trace_info *t = ltt_reader_trace(r, 0);

			for (unsigned k = 0; k < t->ntracefiles; k++)
				if (t->tracefiles[k]->cpu >= 0)
					blost += t->tracefiles[k]->blocks_lost_events;
		}
		ltt_reader_close(r);
		if (rc < 0)
			return 1;
	}
	printf("events=%" PRIu64 " lost=%" PRIu64 " lost_before=%" PRIu64 " first=%" PRIu64 " last=%" PRIu64
	       " dup=%" PRIu64 " bad=%" PRIu64 " problems=%" PRIu64 " all=%" PRIu64 " blost=%" PRIu64 "\n",
	       events, lost, lost_before, first, last, dup, bad, problems, all, blost);
	return 0;
}
