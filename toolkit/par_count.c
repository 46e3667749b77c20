/* SPDX-License-Identifier: MIT */
/* Counting events by block ranges decoded in threads (par.h, par_count): the CPU tracefiles of a
 * trace set are cut into ranges of consecutive blocks (ltt_range_open), a few per worker so that a
 * worker slowed down by the machine's load leaves its share to the others; each thread takes the next
 * range and counts its events per (tracefile, id) in its own table. The result is used only when it is
 * exactly what one reader reading the blocks in order finds: no range found a problem and every range
 * took over the state its predecessor ended with (ltt_range_follows). Then the tables are summed (a
 * sum does not depend on the order) and the ranges' counters added to the reader's tracefiles in block
 * order; otherwise nothing is changed and the caller reads everything with its reader, which reports
 * the problems in its own order. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "toolkit/par.h"

#define RANGES_PER_WORKER 4
#define MIN_RANGE_BLOCKS 4

struct item {
	const struct ltt_tracefile_info *tf;
	unsigned trace, k;		/* the trace's index, the tracefile's index in it */
	uint64_t first, end;
	struct ltt_range *g;
	int rc;				/* of ltt_range_open */
};

struct count_job {
	struct ltt_reader *r;
	const unsigned *nids;
	struct item *items;
	size_t nitems;
	size_t next;			/* the next item to take (atomic) */
	int failed;			/* a range failed or found a problem: the others may stop (atomic) */
};

struct count_worker {
	struct count_job *job;
	uint64_t **n;			/* per trace: [tracefile][id], this worker's own */
	pthread_t th;
	int started;
};

static void *count_run(void *arg)
{
	struct count_worker *w = arg;
	struct count_job *j = w->job;
	struct ltt_event ev;

	for (;;) {
		/* relaxed: the counter only hands out distinct items; the items' results reach the main
		 * thread through pthread_join (its pair), not through this counter */
		size_t i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
		struct item *it;
		uint64_t *row;

		/* relaxed: a hint to stop early, paired with the stores below; the result is decided
		 * after pthread_join from the items themselves */
		if (i >= j->nitems || __atomic_load_n(&j->failed, __ATOMIC_RELAXED))
			break;
		it = &j->items[i];
		it->rc = ltt_range_open(j->r, it->tf, it->first, it->end, &it->g);
		if (it->rc) {
			__atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);	/* pair: the load above */
			break;
		}
		row = w->n[it->trace] + (size_t)it->k * j->nids[it->trace];
		while (ltt_range_next(it->g, &ev) == 1)
			row[ev.id]++;
		if (ltt_range_problems(it->g))
			__atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);	/* pair: the load above */
	}
	return NULL;
}

static size_t plan_items(struct ltt_reader *r, unsigned workers, struct item *items)
{
	size_t n = 0;

	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->ntracefiles; k++) {
			const struct ltt_tracefile_info *tf = t->tracefiles[k];
			uint64_t per = (tf->nblocks + RANGES_PER_WORKER * workers - 1) / (RANGES_PER_WORKER * workers);

			if (tf->cpu < 0)
				continue;
			if (per < MIN_RANGE_BLOCKS)
				per = MIN_RANGE_BLOCKS;
			for (uint64_t a = 0; a < tf->nblocks; a += per) {
				if (items)
					items[n] = (struct item){
						.tf = tf, .trace = i, .k = k, .first = a,
						.end = tf->nblocks - a < per ? tf->nblocks : a + per,
					};
				n++;
			}
		}
	}
	return n;
}

/* 1 when every item ran, found no problem and follows its predecessor in its tracefile. */
static int exact(const struct count_job *j)
{
	for (size_t i = 0; i < j->nitems; i++) {
		const struct item *it = &j->items[i];

		if (!it->g || ltt_range_problems(it->g))
			return 0;
		if (it->first && !ltt_range_follows(j->items[i - 1].g, it->g))
			return 0;
	}
	return 1;
}

int par_count(struct ltt_reader *r, unsigned workers, uint64_t *const *n, const unsigned *nids)
{
	struct count_job j = { .r = r, .nids = nids };
	struct count_worker *w = NULL;
	unsigned nt = ltt_reader_ntraces(r);
	int ret = -ENOMEM, ok = 0;

	if (workers < 2)
		return 0;
	j.nitems = plan_items(r, workers, NULL);
	if (!j.nitems)
		return 0;
	j.items = calloc(j.nitems, sizeof(*j.items));
	w = calloc(workers, sizeof(*w));
	if (!j.items || !w)
		goto out;
	plan_items(r, workers, j.items);
	for (unsigned k = 0; k < workers; k++) {
		w[k].job = &j;
		if (!(w[k].n = calloc(nt, sizeof(*w[k].n))))
			goto out;
		for (unsigned i = 0; i < nt; i++) {
			const struct ltt_trace_info *t = ltt_reader_trace(r, i);

			w[k].n[i] = calloc((size_t)nids[i] * (t->ntracefiles ? t->ntracefiles : 1), sizeof(uint64_t));
			if (!w[k].n[i])
				goto out;
		}
	}
	/* worker 0 is this thread */
	for (unsigned k = 1; k < workers; k++)
		w[k].started = !pthread_create(&w[k].th, NULL, count_run, &w[k]);
	count_run(&w[0]);
	for (unsigned k = 1; k < workers; k++)
		if (w[k].started)
			pthread_join(w[k].th, NULL);
	/* a thread that could not start left its items to the others: all must have run */
	ret = 0;
	if (!exact(&j)) {
		for (size_t i = 0; i < j.nitems; i++)
			if (j.items[i].rc == -ENOMEM)
				ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < j.nitems; i++) {
		ltt_range_add_counts(j.items[i].g);
		if (!j.items[i].first)
			ltt_reader_skip_tracefile(r, j.items[i].tf, 1);
	}
	for (unsigned k = 0; k < workers; k++)
		for (unsigned i = 0; i < nt; i++) {
			const struct ltt_trace_info *t = ltt_reader_trace(r, i);
			size_t cells = (size_t)nids[i] * (t->ntracefiles ? t->ntracefiles : 1);

			for (size_t c = 0; c < cells; c++)
				n[i][c] += w[k].n[i][c];
		}
	ok = 1;
out:
	for (size_t i = 0; j.items && i < j.nitems; i++)
		ltt_range_close(j.items[i].g);
	for (unsigned k = 0; w && k < workers; k++) {
		for (unsigned i = 0; w[k].n && i < nt; i++)
			free(w[k].n[i]);
		free(w[k].n);
	}
	free(w);
	free(j.items);
	return ret < 0 ? ret : ok;
}
