/* SPDX-License-Identifier: MIT */
/* stress_check: the checking side of `make stress` (tests/stress/run.sh). Reads a trace written while
 * stress_emit ran and checks every event: each rtest.ev has a thread below THREADS, a seq below EVENTS
 * and the check value of that (thread, seq) (a torn or mixed event would not), and no (thread, seq) of
 * rtest.ev or rtest.sig appears twice; then that events in the trace + events counted lost (events_lost
 * and blocks_lost records, overwritten blocks of a flight snapshot) == events emitted, exactly. Reader
 * problems fail the check.
 *   stress_check TRACE THREADS EVENTS SIG SIGMAX       (EVENTS per thread; SIG, SIGMAX from stress_emit)
 * Prints one line of figures; exit 0 when every check holds. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/reader.h>

#include "rec_rtest.h"

static uint64_t problems;

static void problem(void *arg, const struct ltt_problem *p)
{
	char buf[1024];

	(void)arg;
	if (problems++ < 10)
		fprintf(stderr, "stress_check: %s\n", ltt_problem_format(p, buf, sizeof(buf)));
}

/* Sets bit i; returns its old value. */
static int test_and_set(uint8_t *map, uint64_t i)
{
	int old = (map[i >> 3] >> (i & 7)) & 1;

	map[i >> 3] |= (uint8_t)(1u << (i & 7));
	return old;
}

static uint64_t u(const unsigned char *p, unsigned n, int be)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[be ? n - 1 - i : i] << (8 * i);
	return v;
}

int main(int argc, char **argv)
{
	struct ltt_reader_options opt = { .flags = LTT_READ_UNORDERED, .problem = problem };
	uint64_t threads, events, sig, sigmax, n_ev = 0, n_sig = 0, lost = 0, bad = 0, dup = 0;
	const char *paths[1];
	struct ltt_reader *r;
	struct ltt_event ev;
	uint8_t **evmap, **sigmap;
	char err[512];
	int ret;

	if (argc != 6) {
		fprintf(stderr, "usage: stress_check TRACE THREADS EVENTS SIG SIGMAX\n");
		return 2;
	}
	paths[0] = argv[1];
	threads = strtoull(argv[2], NULL, 10);
	events = strtoull(argv[3], NULL, 10);
	sig = strtoull(argv[4], NULL, 10);
	sigmax = strtoull(argv[5], NULL, 10);
	evmap = calloc(threads, sizeof(*evmap));
	sigmap = calloc(threads, sizeof(*sigmap));
	for (uint64_t t = 0; evmap && sigmap && t < threads; t++) {
		evmap[t] = calloc(events / 8 + 1, 1);
		sigmap[t] = calloc(sigmax / 8 + 1, 1);
		if (!evmap[t] || !sigmap[t])
			evmap = NULL;
	}
	if (!evmap || !sigmap) {
		fprintf(stderr, "stress_check: out of memory\n");
		return 1;
	}
	if (ltt_reader_open(&r, paths, 1, &opt, err, sizeof(err))) {
		fprintf(stderr, "stress_check: %s\n", err);
		return 1;
	}
	while ((ret = ltt_reader_next(r, &ev)) == 1) {
		const struct ltt_event_type *ty = ev.type;
		uint64_t th, seq;

		if (strcmp(ty->facility, "rtest"))
			continue;
		th = u(ev.payload, 4, ev.big_endian);
		seq = u(ev.payload + 4, 8, ev.big_endian);
		if (!strcmp(ty->name, "ev")) {
			n_ev++;
			if (ev.size != 20 || th >= threads || seq >= events ||
			    u(ev.payload + 12, 8, ev.big_endian) != rtest_check((uint32_t)th, seq)) {
				if (bad++ < 10)
					fprintf(stderr, "stress_check: offset %" PRIu64 " of %s: torn rtest.ev "
						"(thread %" PRIu64 ", seq %" PRIu64 ")\n", ev.offset, ev.tracefile->name,
						th, seq);
			} else if (test_and_set(evmap[th], seq) && dup++ < 10) {
				fprintf(stderr, "stress_check: rtest.ev thread %" PRIu64 " seq %" PRIu64 " twice\n", th,
					seq);
			}
		} else if (!strcmp(ty->name, "sig")) {
			n_sig++;
			if (ev.size != 12 || th >= threads || seq >= sigmax) {
				if (bad++ < 10)
					fprintf(stderr, "stress_check: torn rtest.sig (thread %" PRIu64 ", seq %"
						PRIu64 ")\n", th, seq);
			} else if (test_and_set(sigmap[th], seq) && dup++ < 10) {
				fprintf(stderr, "stress_check: rtest.sig thread %" PRIu64 " seq %" PRIu64 " twice\n",
					th, seq);
			}
		}
	}
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *ti = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < ti->ntracefiles; k++) {
			const struct ltt_tracefile_info *tf = ti->tracefiles[k];

			for (unsigned c = 0; c < LTT_LOST_NCAUSES; c++)
				lost += tf->events_lost[c];
			lost += tf->blocks_lost_events;
		}
	}
	ltt_reader_close(r);
	printf("emitted %" PRIu64 " (ev %" PRIu64 ", sig %" PRIu64 "); trace %" PRIu64 " (ev %" PRIu64
	       ", sig %" PRIu64 ") + lost %" PRIu64 " = %" PRIu64 "; torn %" PRIu64 ", duplicated %" PRIu64
	       ", reader problems %" PRIu64 "\n", threads * events + sig, threads * events, sig,
	       n_ev + n_sig, n_ev, n_sig, lost, n_ev + n_sig + lost, bad, dup, problems);
	return ret < 0 || bad || dup || problems || n_ev + n_sig + lost != threads * events + sig;
}
