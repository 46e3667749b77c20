/* SPDX-License-Identifier: MIT */
/* reader/follow.c: reading traces while the recorder writes them (LTT_READ_FOLLOW, doc/reader.md
 * "Following"): the files are looked at again on ltt_reader_refresh(), tracefiles and chunks join the
 * merge as they appear, and the merge holds an event back while a tracefile without data past its
 * time may still get an earlier one (at most hold_ns after the event's block reached the disk). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/grow.h"
#include "reader_internal.h"

/* the recorder's default flush period (LTT_FLUSH_MS) and a margin for its write and our look */
#define DEFAULT_HOLD_NS 1250000000ull

int rd_follow_add_tf(struct ltt_reader *r, struct tracefile *tf)
{
	size_t cap = r->cap_tf;

	if (r->nall_tf + 1 >= cap) {
		if (LTT_GROW(r->all_tf, r->nall_tf + 2, cap))
			return -ENOMEM;
		cap = r->cap_tf;
		if (LTT_GROW(r->heap, r->nall_tf + 2, cap))
			return -ENOMEM;
		r->cap_tf = cap;
	}
	tf->rank = rd_tracefile_merge_key(tf);
	r->all_tf[r->nall_tf++] = tf;
	/* the blocks on disk now arrived now */
	tf->info.nblocks = 0;
	rd_tracefile_grow(tf, ltt_mono_ns());
	r->dirty = 1;
	return 0;
}

void ltt_reader_follow_hold(struct ltt_reader *r, uint64_t hold_ns)
{
	r->hold_ns = hold_ns ? hold_ns : 1;
}

uint64_t ltt_reader_follow_wait(const struct ltt_reader *r)
{
	return r->wait_ns;
}

static uint64_t real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* A block of tf just found on disk: its block_end's time (the trace's clock) against the real time
 * now bounds how far the trace's clock is behind the real one (the block was sealed before we saw
 * it). The least such difference over the last 15 - 30 s is kept: drift is far slower. */
static void clock_note(struct ltt_reader *r, struct tracefile *tf, uint64_t mono)
{
	uint64_t end;
	int64_t d;

	if (rd_block_anchor_ns(tf, tf->info.nblocks - 1, 0, &end))
		return;
	d = (int64_t)(real_ns() - end);
	if (mono - r->skew_since > 15000000000ull) {
		r->skew_prev = r->skew_cur;
		r->have_prev = r->have_cur;
		r->have_cur = 0;
		r->skew_since = mono;
	}
	if (!r->have_cur || d < r->skew_cur)
		r->skew_cur = d;
	r->have_cur = 1;
}

/* Looks again at the files of trace t: new tracefiles, whole blocks, facilities. */
static int refresh_trace(struct trace *t, uint64_t now)
{
	int changed = 0, ret;

	ret = rd_tracefiles_rescan(t);
	if (ret < 0)
		return ret;
	changed |= ret;
	for (size_t k = 0; k < t->ntf; k++) {
		struct tracefile *tf = t->tf[k];

		if (tf->done)
			continue;
		ret = rd_tracefile_grow(tf, now);
		if (ret < 0)
			return ret;
		if (ret && !t->v1 && !t->v2)
			clock_note(t->reader, tf, now);
		changed |= ret;
		tf->stalled = 0;	/* a block stopped at an unknown id is tried again */
	}
	ret = rd_facilities_follow(t);
	if (ret < 0)
		return ret;
	return changed | ret;
}

int ltt_reader_refresh(struct ltt_reader *r)
{
	uint64_t now = ltt_mono_ns();
	int changed = 0;

	if (!r->follow)
		return -EINVAL;
	for (size_t i = 0; i < r->ntraces; i++) {
		int ret;

		if (r->traces[i]->final)
			continue;
		ret = refresh_trace(r->traces[i], now);
		if (ret < 0)
			return ret;
		changed |= ret;
	}
	r->dirty = 1;
	return changed;
}

int ltt_reader_add_trace(struct ltt_reader *r, const char *path, const char *name, char *err, size_t errlen)
{
	struct trace *t;
	int ret;

	if (!r->follow || r->finished) {
		rd_seterr(err, errlen, "%s: the reader does not follow traces (LTT_READ_FOLLOW)", path);
		return -EINVAL;
	}
	if (LTT_GROW(r->traces, r->ntraces + 1, r->cap_traces)) {
		rd_seterr(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	ret = rd_trace_open(r, path, name, (unsigned)r->ntraces, err, errlen);
	t = r->traces[r->ntraces - 1];
	for (size_t k = 0; !ret && k < t->ntf; k++)
		ret = rd_follow_add_tf(r, t->tf[k]);
	if (ret) {
		if (ret == -ENOMEM)
			rd_seterr(err, errlen, "%s: out of memory", path);
		/* its tracefiles leave the set again */
		for (size_t k = 0; k < t->ntf; k++)
			for (size_t j = 0; j < r->nall_tf; j++)
				if (r->all_tf[j] == t->tf[k])
					r->all_tf[j] = r->all_tf[--r->nall_tf];
		rd_trace_free(t);
		r->ntraces--;
		return ret;
	}
	if (r->opt.flags & LTT_READ_BUILTIN)
		for (size_t id = 0; id < t->nplan; id++)
			t->plan[id].hidden = 0;
	r->dirty = 1;
	return 0;
}

/* A tracefile the recorder removed without writing a block to it (cpu/N of a CPU that recorded
 * nothing, removed at stop) leaves the trace's list, as a reader opening the finished trace would not
 * see it; it stays in t->tf (after the others) to be freed at close. */
static void drop_removed(struct trace *t)
{
	size_t keep = 0;
	struct stat st;

	for (size_t k = 0; k < t->ntf; k++) {
		struct tracefile *tf = t->tf[k];

		if (!tf->info.nblocks && tf->fd >= 0 && !fstat(tf->fd, &st) && st.st_nlink == 0) {
			tf->gone = 1;
			tf->done = 1;
		} else {
			keep++;
		}
	}
	if (keep == t->ntf)
		return;
	/* keep the order of the others: move the removed ones to the end one by one */
	for (size_t k = 0, w = 0; k < t->ntf; k++)
		if (!t->tf[k]->gone) {
			struct tracefile *x = t->tf[k];

			memmove(t->tf + w + 1, t->tf + w, (k - w) * sizeof(*t->tf));
			t->tf[w++] = x;
		}
	t->info.ntracefiles = (unsigned)keep;
}

static int finish_trace(struct trace *t, const char *dir)
{
	int ret;

	if (t->final)
		return 0;
	if (dir) {
		char *d = strdup(dir);

		if (!d)
			return -ENOMEM;
		free(t->dir);
		t->dir = d;
		t->info.dir = d;
	}
	ret = refresh_trace(t, ltt_mono_ns());
	t->final = 1;
	if (ret >= 0)	/* what still waits (a facility_load without its eventdefs) is reported now */
		ret = rd_facilities_follow(t);
	drop_removed(t);
	for (size_t k = 0; k < t->info.ntracefiles; k++)
		rd_tracefile_size_problems(t->tf[k]);
	return ret < 0 ? ret : 0;
}

int ltt_reader_finish(struct ltt_reader *r, int i, const char *dir)
{
	int ret = 0;

	if (!r->follow)
		return -EINVAL;
	if (i >= 0 && (size_t)i >= r->ntraces)
		return -ENOENT;
	for (size_t k = 0; k < r->ntraces && !ret; k++)
		if (i < 0 || (size_t)i == k)
			ret = finish_trace(r->traces[k], i < 0 ? NULL : dir);
	if (i < 0)
		r->finished = 1;
	r->dirty = 1;
	return ret;
}

/* After a refresh: tracefiles that had no event may have one; the live list is rebuilt. */
static int take_in(struct ltt_reader *r)
{
	r->dirty = 0;
	r->nlive = 0;
	for (size_t i = 0; i < r->nall_tf; i++) {
		struct tracefile *tf = r->all_tf[i];

		if (tf->skip && !tf->entered)
			tf->done = 1;
		if (!tf->done && !tf->inheap) {
			tf->entered = 1;
			if (rd_tf_ready(r, tf))
				rd_heap_push(r, tf);
		}
		if (tf->done) {
			/* read to its end: its descriptor goes (a long capture has many chunks) */
			if (tf->fd >= 0 && tf->trace->final) {
				close(tf->fd);
				tf->fd = -1;
			}
			continue;
		}
		if (LTT_GROW(r->live, r->nlive + 1, r->cap_live))
			return -ENOMEM;
		r->live[r->nlive++] = tf;
	}
	return 0;
}

/* Nothing can come before top's event: every other tracefile not done has it in the heap, or has
 * data past that time already (times never go back within a tracefile). */
static int settled(const struct ltt_reader *r, const struct tracefile *top)
{
	for (size_t i = 0; i < r->nlive; i++) {
		const struct tracefile *tf = r->live[i];

		if (tf->done || tf->inheap)
			continue;
		if (tf->last_ns > top->key_ns || (tf->last_ns == top->key_ns && tf->rank > top->rank &&
						   tf->info.events))
			continue;
		return 0;
	}
	return 1;
}

int rd_follow_next(struct ltt_reader *r, struct ltt_event *ev)
{
	struct tracefile *tf;
	uint64_t now;

	if (!r->started) {
		r->started = 1;
		r->dirty = 1;
		if (!r->hold_ns)
			r->hold_ns = DEFAULT_HOLD_NS;
	}
	r->wait_ns = 0;
	/* The event yielded last stays valid until now: advance its tracefile only here. */
	if (r->last) {
		tf = r->last;
		r->last = NULL;
		tf->pos++;
		if (tf->pos < tf->nev && tf->ev[tf->pos].ns <= r->to_ns) {
			tf->key_ns = tf->ev[tf->pos].ns;
			rd_heap_sift_down(r->heap, r->nheap, 0);
		} else {
			rd_heap_pop(r);
			tf->inheap = 0;
			if (rd_tf_ready(r, tf))
				rd_heap_push(r, tf);
		}
	}
	if (r->dirty && take_in(r))
		return -ENOMEM;
	if (!r->nheap) {
		for (size_t i = 0; i < r->nlive; i++)
			if (!r->live[i]->done)
				return -EAGAIN;
		for (size_t i = 0; i < r->ntraces; i++)
			if (!r->traces[i]->final)
				return -EAGAIN;
		return r->finished ? 0 : -EAGAIN;
	}
	tf = r->heap[0];
	if (!settled(r, tf)) {
		now = ltt_mono_ns();
		if (now < tf->seen_ns + r->hold_ns) {
			/* An earlier event still to come was recorded before this one, in real time at most
			 * its time + the skew seen: it is on disk hold_ns after that at the latest. */
			int64_t skew = r->have_cur && (!r->have_prev || r->skew_cur < r->skew_prev) ? r->skew_cur
												   : r->skew_prev;
			uint64_t real = real_ns(), due = 0;

			if (r->have_cur || r->have_prev)
				due = tf->key_ns + (uint64_t)skew + r->hold_ns;
			if (!due || real < due) {
				r->wait_ns = tf->seen_ns + r->hold_ns - now;
				if (due && due - real < r->wait_ns)
					r->wait_ns = due - real;
				return -EAGAIN;
			}
		}
	}
	rd_fill_event(tf, ev);
	r->last = tf;
	return 1;
}
