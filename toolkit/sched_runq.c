/* SPDX-License-Identifier: MIT */
/* Waiting for a CPU from the kernel's own count (sched_runq.h, doc/viewing.md "What each scope
 * knows"). A process-scope recording sees its threads leave and take CPUs but not the wakeups other
 * processes and interrupts do, so the wait from such a wakeup to the switch-in cannot be told from
 * sleep. The kernel counts it per thread (schedstat's run_delay: the time runnable and not running,
 * and timeslices: the switch-ins), and libltt samples both after its threads' switch-ins
 * (kernel.run_delay). Between two samples of a thread the run_delay grew by D over the K off-CPU
 * periods ended by the K switch-ins between them: a period left preempted waited for a CPU all
 * through (the kernel counts it whole), and what remains of D is the tail of the periods left
 * sleeping: exact when there is one, split evenly (capped by each period's length) when several,
 * counted so. A sample comes after its switch-ins; a period's segments are held until one does. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "sched_runq.h"

int runq_push(struct sched_thread *t, const struct sched_pend *seg)
{
	if (LTT_GROW_FROM(t->pend, t->npend + 1, t->cappend, 8))
		return -ENOMEM;
	t->pend[t->npend++] = *seg;
	if (seg->period_end) {
		t->pend_periods++;
		t->rd_seen_ins++;
	}
	return 0;
}

/* Gives segments [0, n) of t as recorded, and drops them. */
static int give_raw(struct sched_thread *t, size_t n, runq_emit_fn emit, void *arg, int unknown)
{
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		const struct sched_pend *g = &t->pend[i];

		if (g->period_end)
			t->pend_periods--;
		if (g->st == SCHED_ST_UNSEEN)
			continue;
		if (unknown && g->st != SCHED_ST_RUNNABLE)
			t->rd_unknown_ns += g->end - g->start;
		if (unknown && g->period_end)
			t->rd_unknown++;
		rc = emit(arg, t, g);
	}
	if (n && t->npend > n)
		memmove(t->pend, t->pend + n, (t->npend - n) * sizeof(*t->pend));
	t->npend -= n;
	return rc;
}

/* The tails of the sleeping periods: D shared evenly, none more than its period's length. */
static void share(const uint64_t *len, uint64_t *tail, size_t m, uint64_t d)
{
	size_t left = m;
	int changed = 1;

	for (size_t j = 0; j < m; j++)
		tail[j] = UINT64_MAX;	/* not yet given */
	while (left && changed) {
		uint64_t each = d / left;

		changed = 0;
		for (size_t j = 0; j < m; j++)
			if (tail[j] == UINT64_MAX && len[j] <= each) {
				tail[j] = len[j];
				d -= len[j];
				left--;
				changed = 1;
			}
	}
	for (size_t j = 0; j < m; j++)
		if (tail[j] == UINT64_MAX)
			tail[j] = left ? d / left : 0;
}

/* Resolves the first k periods of t with d ns of waits; inexact: the count did not match. */
static int resolve(struct sched_thread *t, uint64_t k, uint64_t d, int inexact, runq_emit_fn emit, void *arg)
{
	size_t nseg = 0, m = 0, p = 0;
	uint64_t *len, *tail, preempted = 0;
	size_t *first;
	int rc = 0;

	if (!k)
		return 0;
	/* the segments of the k periods */
	for (uint64_t seen = 0; nseg < t->npend && seen < k; nseg++)
		if (t->pend[nseg].period_end)
			seen++;
	len = calloc(k * 3 + 1, sizeof(uint64_t));
	first = calloc(k + 1, sizeof(size_t));
	if (!len || !first) {
		free(len);
		free(first);
		return -ENOMEM;
	}
	tail = len + k;
	/* each period: its first segment and length; the preempted ones waited all through */
	for (size_t i = 0, start = 0; i < nseg; i++) {
		if (!t->pend[i].period_end)
			continue;
		first[p] = start;
		len[p] = t->pend[i].end - t->pend[start].start;
		if (t->pend[start].st == SCHED_ST_RUNNABLE && t->pend[start].why != SCHED_WHY_WOKEN &&
		    t->pend[start].why != SCHED_WHY_NEW)
			preempted += len[p];
		p++;
		start = i + 1;
	}
	{	/* the sleeping periods share what is left */
		uint64_t *slen = len + 2 * k, left = d > preempted ? d - preempted : 0;
		size_t idx = 0;

		for (size_t j = 0; j < p; j++) {
			const struct sched_pend *g = &t->pend[first[j]];

			if (!(g->st == SCHED_ST_RUNNABLE && g->why != SCHED_WHY_WOKEN && g->why != SCHED_WHY_NEW))
				/* a first switch-in of a thread not followed before (its creation not recorded):
				 * its wait came before anything the trace holds of it, any length */
				slen[m++] = g->st == SCHED_ST_UNSEEN ? left : len[j];
		}
		share(slen, tail, m, left);
		/* give each period, its sleep cut where its wait began */
		for (size_t j = 0; j < p && !rc; j++) {
			size_t a = first[j], b = j + 1 < p ? first[j + 1] : nseg;
			const struct sched_pend *g0 = &t->pend[a];
			uint64_t end = t->pend[b - 1].end, cut;
			int slept = !(g0->st == SCHED_ST_RUNNABLE && g0->why != SCHED_WHY_WOKEN && g0->why != SCHED_WHY_NEW);
			enum sched_state st0 = g0->st == SCHED_ST_RUNNABLE ? SCHED_ST_SLEEPING : g0->st;

			if (!slept) {
				for (size_t i = a; i < b && !rc; i++)
					if (t->pend[i].st != SCHED_ST_UNSEEN)
						rc = emit(arg, t, &t->pend[i]);
				continue;
			}
			cut = end - tail[idx++];
			if (g0->st == SCHED_ST_UNSEEN) {
				/* its wait before its first switch-in: runnable since it was made */
				struct sched_pend y = *g0;

				y.start = cut;
				y.end = end;
				y.st = SCHED_ST_RUNNABLE;
				y.why = SCHED_WHY_NEW;
				y.has_nr = 0;
				if (end > cut) {
					rc = emit(arg, t, &y);
					if (m > 1 || inexact)
						t->rd_split++;
					else
						t->rd_exact++;
				}
				continue;
			}
			{	/* a wakeup no event recorded (another process's, an interrupt's) */
				int seen = 0;

				for (size_t i = a; i < b; i++)
					seen |= t->pend[i].st == SCHED_ST_RUNNABLE;
				if (!seen && end > cut)
					t->wakeups++;
			}
			if (m > 1 || inexact)
				t->rd_split++;
			else
				t->rd_exact++;
			if (end - cut > t->wait_max_ns)
				t->wait_max_ns = end - cut;
			for (size_t i = a; i < b && !rc; i++) {
				struct sched_pend s = t->pend[i];

				if (s.st == SCHED_ST_UNSEEN)
					continue;
				if (s.start < cut) {	/* before the wait: as the switch-out said */
					struct sched_pend x = s;

					x.end = s.end < cut ? s.end : cut;
					if (x.st == SCHED_ST_RUNNABLE) {
						x.st = st0;
						x.why = SCHED_WHY_NONE;
					}
					rc = emit(arg, t, &x);
				}
				if (s.end > cut && !rc) {	/* the wait */
					struct sched_pend y = s;

					y.start = s.start > cut ? s.start : cut;
					y.st = SCHED_ST_RUNNABLE;
					y.why = SCHED_WHY_WOKEN;
					y.has_nr = 0;
					rc = emit(arg, t, &y);
				}
			}
		}
	}
	free(len);
	free(first);
	if (!rc) {
		if (nseg && t->npend > nseg)
			memmove(t->pend, t->pend + nseg, (t->npend - nseg) * sizeof(*t->pend));
		t->npend -= nseg;
		t->pend_periods -= p;
	}
	return rc;
}

/* A held sample covering more switch-ins than were seen when it came: resolved once they are. */
int runq_period_done(struct sched_thread *t, runq_emit_fn emit, void *arg)
{
	uint64_t k;

	if (!t->rd_held)
		return 0;
	k = t->rd_held_slices - t->rd_base_slices;
	if (t->pend_periods < k)
		return 0;
	t->rd_held = 0;
	return resolve(t, k, t->rd_held_delay - t->rd_base_delay, 0, emit, arg) ||
	       (t->rd_base_delay = t->rd_held_delay, t->rd_base_slices = t->rd_held_slices, 0);
}

int runq_sample(struct sched_thread *t, const struct sched_ev *e, runq_emit_fn emit, void *arg)
{
	uint64_t k, d;
	int rc;

	if (!t->rd_have) {
		t->rd_have = 1;
		if (e->from_start && t->rd_seen_ins >= e->timeslices && t->pend_periods >= e->timeslices) {
			/* its whole life is in the trace: the counts began at 0 */
			t->rd_base_delay = t->rd_base_slices = 0;
		} else {
			/* the base: what came before it is not known */
			t->rd_base_delay = e->run_delay;
			t->rd_base_slices = e->timeslices;
			if (e->from_start && e->run_delay) {
				/* its counts began at 0 (made while recording): it waited run_delay ns before
				 * this first sample, in periods the model did not hold (they came before the
				 * trace's first sample): not placed, so its runnable time is at least what is
				 * shown and up to that much more, said so */
				t->rd_unknown++;
				t->rd_unknown_ns += e->run_delay;
			}
			return give_raw(t, t->npend, emit, arg, 1);
		}
	}
	if (e->timeslices < t->rd_base_slices || e->run_delay < t->rd_base_delay)
		return 0;	/* older than the base (a duplicate): nothing new */
	k = e->timeslices - t->rd_base_slices;
	d = e->run_delay - t->rd_base_delay;
	if (k > t->pend_periods) {
		/* switch-ins counted before their records came (or lost): wait for them */
		t->rd_held = 1;
		t->rd_held_delay = e->run_delay;
		t->rd_held_slices = e->timeslices;
		return 0;
	}
	t->rd_held = 0;
	rc = resolve(t, k, d, 0, emit, arg);
	t->rd_base_delay = e->run_delay;
	t->rd_base_slices = e->timeslices;
	return rc;
}

int runq_flush(struct sched_thread *t, runq_emit_fn emit, void *arg)
{
	int rc = 0;

	if (t->rd_held) {	/* fewer switch-ins seen than counted: records lost */
		t->rd_held = 0;
		rc = resolve(t, t->pend_periods, t->rd_held_delay - t->rd_base_delay, 1, emit, arg);
	}
	if (!rc && t->npend)
		rc = give_raw(t, t->npend, emit, arg, 1);
	free(t->pend);
	t->pend = NULL;
	t->npend = t->cappend = 0;
	return rc;
}
