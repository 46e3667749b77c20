/* SPDX-License-Identifier: MIT */
/* flight_check.h: reads a snapshot or recovered trace with the reader library and sums up what it holds
 * of the flighttest facility (tests/eventdefs/flighttest.xml): per thread, how many ticks, the first
 * and last sequence numbers, whether they are contiguous and free of duplicates; plus the lost-data
 * records and the reader's problems. Shared by tests/unit/test_flight*.c and tests/progs/flight_prog.c. */
#ifndef FLIGHT_CHECK_H
#define FLIGHT_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/reader.h>

#define FC_MAX_THREADS 8

struct fc_thread {
	uint64_t count, first, last;
	int contiguous;			/* each tick's seq is the previous one's + 1, over the whole trace */
	int duplicates;
	uint64_t *seqs;			/* all seqs seen (freed by fc_free) */
	size_t nseqs, cap;
};

struct fc_result {
	int open_rc;
	char err[512];
	uint64_t problems;
	uint64_t time_skews;			/* "time goes back" reports (allowed skew) */
	char first_problem[512];
	uint64_t ticks, notes, other_events, bad_payloads;
	uint64_t first_note;			/* seq of the first note, UINT64_MAX if none */
	uint64_t configs, config_sum;		/* persistent config events (in control/persistent) */
	struct fc_thread th[FC_MAX_THREADS];
	uint64_t blocks_lost, blocks_lost_events, gap_blocks, summary_blocks;
	uint64_t events_lost[LTT_LOST_NCAUSES];
	unsigned cpu_files, cpu_files_with_ticks;
	uint64_t thread_starts, processes;	/* core events found in control files */
	long snapshot;				/* ltt_snapshot attribute, -1 if none */
	char mode[16];
};

static inline void fc_problem(void *arg, const struct ltt_problem *p)
{
	struct fc_result *r = arg;

	/* doc/format.md s. 5 allows a small rdtsc skew between threads sharing a tracefile; the reader
	 * still says so. Counted apart, not as damage. */
	if (!strncmp(p->what, "time goes back", 14)) {
		r->time_skews++;
		return;
	}
	if (!r->problems++)
		ltt_problem_format(p, r->first_problem, sizeof(r->first_problem));
}

static inline int fc_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static inline uint64_t fc_field(const struct ltt_event *ev, const char *name, int *ok)
{
	struct ltt_value body, f;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, name, &f)) {
		*ok = 0;
		return 0;
	}
	return ltt_value_uint(&f);
}

/* Returns 0 when the trace could be opened (r->open_rc otherwise). */
static inline int fc_scan(const char *trace, struct fc_result *r)
{
	struct ltt_reader_options o = { LTT_READ_UNORDERED, fc_problem, r };
	struct ltt_reader *rd;
	struct ltt_event ev;
	const struct ltt_trace_info *ti;
	const char *a;
	int rc;

	memset(r, 0, sizeof(*r));
	r->snapshot = -1;
	r->first_note = UINT64_MAX;
	for (unsigned t = 0; t < FC_MAX_THREADS; t++)
		r->th[t].contiguous = 1;
	r->open_rc = ltt_reader_open(&rd, &trace, 1, &o, r->err, sizeof(r->err));
	if (r->open_rc)
		return r->open_rc;
	ti = ltt_reader_trace(rd, 0);
	a = ltt_trace_attr(ti, "ltt_snapshot");
	if (a)
		r->snapshot = strtol(a, NULL, 10);
	a = ltt_trace_attr(ti, "ltt_mode");
	snprintf(r->mode, sizeof(r->mode), "%s", a ? a : "");
	while ((rc = ltt_reader_next(rd, &ev)) == 1) {
		const char *fac = ev.type->facility, *name = ev.type->name;
		int ok = 1;

		if (!strcmp(fac, "flighttest") && !strcmp(name, "tick")) {
			uint64_t t = fc_field(&ev, "thread", &ok), s = fc_field(&ev, "seq", &ok);
			struct fc_thread *th;

			if (!ok || t >= FC_MAX_THREADS) {
				r->bad_payloads++;
				continue;
			}
			th = &r->th[t];
			if (th->count && s != th->last + 1)
				th->contiguous = 0;
			if (!th->count)
				th->first = s;
			th->last = s;
			th->count++;
			r->ticks++;
			if (th->nseqs == th->cap) {
				th->cap = th->cap ? th->cap * 2 : 1024;
				th->seqs = realloc(th->seqs, th->cap * sizeof(uint64_t));
			}
			th->seqs[th->nseqs++] = s;
		} else if (!strcmp(fac, "flighttest") && !strcmp(name, "config")) {
			uint64_t v = fc_field(&ev, "value", &ok);

			if (!ok || strcmp(ev.tracefile->name, "control/persistent"))
				r->bad_payloads++;
			else
				r->config_sum += v;
			r->configs++;
		} else if (!strcmp(fac, "flighttest")) {
			uint64_t s = fc_field(&ev, "seq", &ok);

			if (!ok)
				r->bad_payloads++;
			else if (!r->notes || s < r->first_note)
				r->first_note = s;
			r->notes++;
		} else if (!strcmp(fac, "core") && !strcmp(name, "thread_start")) {
			r->thread_starts++;
		} else if (!strcmp(fac, "core") && !strcmp(name, "process")) {
			r->processes++;
		} else {
			r->other_events++;
		}
	}
	if (rc < 0 && !r->problems)
		r->problems++;
	for (unsigned i = 0; i < ti->ntracefiles; i++) {
		const struct ltt_tracefile_info *tf = ti->tracefiles[i];

		r->blocks_lost += tf->blocks_lost;
		r->blocks_lost_events += tf->blocks_lost_events;
		r->gap_blocks += tf->gap_blocks;
		r->summary_blocks += tf->summary_blocks;
		for (unsigned c = 0; c < LTT_LOST_NCAUSES; c++)
			r->events_lost[c] += tf->events_lost[c];
		if (tf->cpu >= 0)
			r->cpu_files++;
	}
	ltt_reader_close(rd);
	for (unsigned t = 0; t < FC_MAX_THREADS; t++) {
		struct fc_thread *th = &r->th[t];

		if (th->nseqs > 1) {
			qsort(th->seqs, th->nseqs, sizeof(uint64_t), fc_cmp_u64);
			for (size_t k = 1; k < th->nseqs; k++)
				if (th->seqs[k] == th->seqs[k - 1])
					th->duplicates++;
		}
	}
	return 0;
}

static inline void fc_free(struct fc_result *r)
{
	for (unsigned t = 0; t < FC_MAX_THREADS; t++)
		free(r->th[t].seqs);
}

/* One line of what fc_scan found (the e2e scripts read it). */
static inline void fc_print(FILE *f, const struct fc_result *r)
{
	fprintf(f, "ticks=%llu problems=%llu bad=%llu blocks_lost=%llu blocks_lost_events=%llu gaps=%llu "
		"torn=%llu buffer_full=%llu snapshot=%ld thread_starts=%llu processes=%llu notes=%llu "
		"first_note=%lld",
		(unsigned long long)r->ticks, (unsigned long long)r->problems,
		(unsigned long long)r->bad_payloads, (unsigned long long)r->blocks_lost,
		(unsigned long long)r->blocks_lost_events, (unsigned long long)r->gap_blocks,
		(unsigned long long)r->events_lost[LTT_LOST_TORN],
		(unsigned long long)r->events_lost[LTT_LOST_BUFFER_FULL], r->snapshot,
		(unsigned long long)r->thread_starts, (unsigned long long)r->processes,
		(unsigned long long)r->notes, r->notes ? (long long)r->first_note : -1ll);
	for (unsigned t = 0; t < FC_MAX_THREADS; t++)
		if (r->th[t].count)
			fprintf(f, " t%u=%llu:%llu-%llu%s%s", t, (unsigned long long)r->th[t].count,
				(unsigned long long)r->th[t].first, (unsigned long long)r->th[t].last,
				r->th[t].contiguous ? "" : ":gappy", r->th[t].duplicates ? ":dup" : "");
	fputc('\n', f);
}

#endif
