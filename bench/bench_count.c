/* SPDX-License-Identifier: MIT */
/* Counts what a recorded bench trace holds, through libltt-reader (include/ltt/reader.h), so that
 * bench/run.sh can report lost events and bytes per event without parsing `ltt stats` output, and
 * checks the payloads: a tracer that wrote garbage fast would otherwise look good.
 *
 * Usage: bench_count TRACE...
 * Output, one line: events=N lost=N overwritten=N bad=N problems=N
 *   events       events of the bench facility
 *   lost         sum of the events_lost records (every cause)
 *   overwritten  events of the blocks reported lost (flight mode: overwritten before the snapshot)
 *   bad          bench events whose payload is not what bench/workload.h emits (b = 3a, c = a mod 2^32,
 *                the string one of the four)
 *   problems     problems the reader reported (damaged blocks, unknown ids, ...)
 * Exit status 0 when the trace could be read, 1 otherwise (one line on stderr). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <ltt/reader.h>

struct count {
	uint64_t events, bad;
};

static void count_problem(void *arg, const struct ltt_problem *p)
{
	char buf[512];
	unsigned *shown = arg;

	if ((*shown)++ < 3)
		fprintf(stderr, "bench_count: %s\n", ltt_problem_format(p, buf, sizeof(buf)));
}

static int str_ok(const char *s, size_t len)
{
	static const char *const ok[4] = {
		"abcdefghijklmnop", "ponmlkjihgfedcba", "0123456789abcdef", "fedcba9876543210",
	};
	unsigned i;

	for (i = 0; i < 4; i++)
		if (len == 16 && !memcmp(s, ok[i], 16))
			return 1;
	return 0;
}

static void count_event(struct count *c, const struct ltt_event *ev)
{
	struct ltt_value body, f1, f2, f3;
	uint64_t a;
	size_t len;
	const char *s;

	c->events++;
	if (ltt_event_body(ev, &body) || ltt_value_first(&body, &f1)) {
		c->bad++;
		return;
	}
	a = ltt_value_uint(&f1);
	f2 = f1;
	if (ltt_value_next(&body, &f2)) {
		c->bad++;
		return;
	}
	if (!strcmp(ev->type->name, "int3")) {
		f3 = f2;
		if (ltt_value_next(&body, &f3) || ltt_value_uint(&f2) != a * 3 ||
		    ltt_value_uint(&f3) != (uint32_t)a)
			c->bad++;
	} else {
		s = ltt_value_string(&f2, &len);
		if (!s || !str_ok(s, len))
			c->bad++;
	}
}

int main(int argc, char **argv)
{
	struct ltt_reader_options opt = { .flags = LTT_READ_UNORDERED, .problem = count_problem };
	struct ltt_reader *r;
	struct ltt_event ev;
	struct count c = { 0, 0 };
	uint64_t lost = 0, overwritten = 0;
	unsigned shown = 0, i, j, k;
	char err[512];
	int ret;

	if (argc < 2) {
		fprintf(stderr, "usage: %s TRACE...\n", argv[0]);
		return 2;
	}
	opt.problem_arg = &shown;
	ret = ltt_reader_open(&r, (const char *const *)(argv + 1), (unsigned)(argc - 1), &opt, err,
			      sizeof(err));
	if (ret < 0) {
		fprintf(stderr, "bench_count: %s\n", err);
		return 1;
	}
	while ((ret = ltt_reader_next(r, &ev)) > 0)
		if (!strcmp(ev.type->facility, "bench"))
			count_event(&c, &ev);
	for (i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (j = 0; j < t->ntracefiles; j++) {
			for (k = 0; k < LTT_LOST_NCAUSES; k++)
				lost += t->tracefiles[j]->events_lost[k];
			overwritten += t->tracefiles[j]->blocks_lost_events;
		}
	}
	printf("events=%" PRIu64 " lost=%" PRIu64 " overwritten=%" PRIu64 " bad=%" PRIu64
	       " problems=%" PRIu64 "\n", c.events, lost, overwritten, c.bad, ltt_reader_problems(r));
	ltt_reader_close(r);
	if (ret < 0) {
		fprintf(stderr, "bench_count: read error: %s\n", strerror(-ret));
		return 1;
	}
	return 0;
}
