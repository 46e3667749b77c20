/* SPDX-License-Identifier: MIT */
/* Block ranges (include/ltt/reader.h, doc/reader.md "Reading block ranges in parallel"): blocks
 * [first, end) of one tracefile decoded by a private copy of the tracefile's state, so that several
 * ranges of a reader can be decoded at once in different threads.
 *
 * What a reader carries from one block of a tracefile to the next (doc/format.md sections 5 and 9) is
 * small: the previous event's full cycle count (the "time goes back" check and skew count at the next
 * block_start), the latest real time given (times never go back within a tracefile: the clamp), and
 * the next block_id expected (gaps). A range starting at block k > 0 gets it by decoding block k - 1
 * first (its events and counts discarded): that is exactly the state a reader reading from block 0 has
 * after block k - 1 unless the clamp carried a time from before block k - 1 over it, or block k - 1 was
 * damaged. ltt_range_follows() compares that entry state with the previous range's exit state: when
 * they are equal, the two ranges decoded every event, time and count exactly as one reader would. */
#include <errno.h>
#include <stdlib.h>

#include "reader_internal.h"

#define seam ltt_range_seam

struct ltt_range {
	struct tracefile tf;		/* the private copy: its own buffers, counters, state */
	struct tracefile *orig;
	uint64_t first, end;
	struct seam entry, exit;	/* state before block first, after block end - 1 */
	int started, finished;
	int extended;			/* ltt_range_extend: decoding goes on past end */
};

static void seam_get(const struct tracefile *tf, struct seam *s, uint64_t block)
{
	s->block = block;
	s->prev_cycles = tf->prev_cycles;
	s->last_ns = tf->last_ns;
	s->expect_id = tf->expect_id;
	s->have_prev = tf->have_prev;
	s->have_expect = tf->have_expect;
	s->done = tf->done;
}

/* The counters of a tracefile's info that reading fills in (the rest is the tracefile's identity). */
static void info_clear(struct ltt_tracefile_info *i)
{
	struct ltt_tracefile_info id = {
		.name = i->name, .cpu = i->cpu, .trace_index = i->trace_index,
		.file_size = i->file_size, .nblocks = i->nblocks,
	};

	*i = id;
}

static int range_open(struct ltt_reader *r, const struct ltt_tracefile_info *info, uint64_t first, uint64_t end,
		      const struct seam *entry, struct ltt_range **out)
{
	struct tracefile *orig = (struct tracefile *)info;
	struct ltt_range *g;

	*out = NULL;
	if (r->dd || r->follow)	/* snapshots of one recording share blocks; a followed trace grows */
		return -EOPNOTSUPP;
	if (orig->trace->reader != r || first > end || end > info->nblocks)
		return -EINVAL;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->orig = orig;
	g->first = first;
	g->end = end;
	g->tf.info = orig->info;
	info_clear(&g->tf.info);
	g->tf.trace = orig->trace;
	g->tf.path = orig->path;
	g->tf.fd = orig->fd;
	g->tf.rank = orig->rank;
	g->tf.last_block = UINT64_MAX;
	g->tf.in_range = 1;
	if (entry) {		/* given (ltt_range_open_at) */
		g->tf.prev_cycles = entry->prev_cycles;
		g->tf.last_ns = entry->last_ns;
		g->tf.expect_id = entry->expect_id;
		g->tf.have_prev = entry->have_prev;
		g->tf.have_expect = entry->have_expect;
	} else if (first > 0) {	/* the state a reader has after block first - 1 */
		rd_tracefile_scan(&g->tf, first - 1);
		info_clear(&g->tf.info);
		g->tf.range_problems = 0;
		g->tf.nev = g->tf.pos = 0;
		g->tf.done = 0;
	}
	seam_get(&g->tf, &g->entry, first);
	g->tf.next_block = first;
	if (end == first)
		g->tf.done = 1;
	else
		g->tf.last_block = end - 1;
	*out = g;
	return 0;
}

int ltt_range_open(struct ltt_reader *r, const struct ltt_tracefile_info *tf, uint64_t first, uint64_t end,
		   struct ltt_range **out)
{
	return range_open(r, tf, first, end, NULL, out);
}

int ltt_range_open_at(struct ltt_reader *r, const struct ltt_tracefile_info *tf, uint64_t first, uint64_t end,
		      const struct ltt_range_seam *entry, struct ltt_range **out)
{
	*out = NULL;
	if (entry->block != first || entry->done)
		return -EINVAL;
	return range_open(r, tf, first, end, entry, out);
}

int ltt_range_seam_guess(struct ltt_reader *r, const struct ltt_tracefile_info *info, uint64_t k,
			 struct ltt_range_seam *s)
{
	struct tracefile *tf = (struct tracefile *)info;
	struct rd_anchor a, b;

	if (tf->trace->reader != r || !k || k > info->nblocks)
		return -EINVAL;
	/* 2004 and 2.3-2.9 traces: a block_end's cycle count is not written whole */
	if (tf->trace->v1 || tf->trace->v2)
		return -EOPNOTSUPP;
	if (rd_block_anchor(tf, k - 1, 1, &a) || rd_block_anchor(tf, k - 1, 0, &b) ||
	    a.block_id != b.block_id || a.block_id == UINT32_MAX)
		return -EAGAIN;	/* damaged, or a summary block: its block_id says nothing */
	*s = (struct ltt_range_seam){
		.block = k, .prev_cycles = b.cycles, .last_ns = b.ns, .expect_id = (uint64_t)a.block_id + 1,
		.have_prev = 1, .have_expect = 1,
	};
	return 0;
}

int ltt_range_next(struct ltt_range *g, struct ltt_event *ev)
{
	struct tracefile *tf = &g->tf;

	if (likely(g->started))
		tf->pos++;
	g->started = 1;
	if (unlikely(tf->pos >= tf->nev) && !rd_tracefile_fill(tf)) {
		if (!g->finished) {
			seam_get(tf, &g->exit, g->end);
			g->exit.done = 0;
			g->finished = 1;
		}
		tf->pos = tf->nev = 0;
		return 0;
	}
	rd_fill_event(tf, ev);
	ev->tracefile = &g->orig->info;
	return 1;
}

const struct ltt_tracefile_info *ltt_range_counts(const struct ltt_range *g)
{
	return &g->tf.info;
}

uint64_t ltt_range_problems(const struct ltt_range *g)
{
	return g->tf.range_problems;
}

int ltt_range_seam_follows(const struct ltt_range_seam *x, const struct ltt_range_seam *y)
{
	return x->block == y->block && !x->done && !y->done &&
	       x->prev_cycles == y->prev_cycles && x->last_ns == y->last_ns &&
	       x->have_prev == y->have_prev && x->have_expect == y->have_expect &&
	       (!x->have_expect || x->expect_id == y->expect_id);
}

int ltt_range_follows(const struct ltt_range *a, const struct ltt_range *b)
{
	return a->finished && a->orig == b->orig && ltt_range_seam_follows(&a->exit, &b->entry);
}

void ltt_range_entry(const struct ltt_range *g, struct ltt_range_seam *s)
{
	*s = g->entry;
}

int ltt_range_exit(const struct ltt_range *g, struct ltt_range_seam *s)
{
	if (!g->finished)
		return -EBUSY;
	*s = g->exit;
	return 0;
}

int ltt_range_extend(struct ltt_range *g, uint64_t end)
{
	if (!g->finished || g->extended || end < g->end || end > g->orig->info.nblocks)
		return -EINVAL;
	g->extended = 1;
	if (end == g->end)
		return 0;
	g->tf.done = 0;
	g->tf.next_block = g->end;
	g->tf.last_block = end - 1;
	return 0;
}

uint64_t ltt_range_rank(const struct ltt_range *g)
{
	return g->tf.rank;
}

int ltt_reader_skips_tracefile(const struct ltt_reader *r, const struct ltt_tracefile_info *tf)
{
	(void)r;
	return ((const struct tracefile *)tf)->skip;
}

int ltt_range_block_time(struct ltt_reader *r, const struct ltt_tracefile_info *tf, uint64_t k, uint64_t *ns)
{
	struct tracefile *t = (struct tracefile *)tf;

	if (t->trace->reader != r)
		return -EINVAL;
	return rd_block_anchor_ns(t, k, 1, ns) ? -EIO : 0;
}

int ltt_range_add_counts(struct ltt_range *g)
{
	struct ltt_tracefile_info *s = &g->orig->info;
	const struct ltt_tracefile_info *p = &g->tf.info;

	if (!g->finished)
		return -EBUSY;
	if (g->extended)
		return -EINVAL;
	if (p->records) {
		if (!s->records) {
			s->first_cycles = p->first_cycles;
			s->first_ns = p->first_ns;
		}
		s->last_cycles = p->last_cycles;
		s->last_ns = p->last_ns;
	}
	s->blocks_read += p->blocks_read;
	s->blocks_damaged += p->blocks_damaged;
	s->blocks_cut += p->blocks_cut;
	s->records += p->records;
	s->events += p->events;
	s->heartbeats += p->heartbeats;
	s->summary_blocks += p->summary_blocks;
	for (unsigned c = 0; c < LTT_LOST_NCAUSES; c++)
		s->events_lost[c] = ltt_sat_add(s->events_lost[c], p->events_lost[c]);
	s->blocks_lost += p->blocks_lost;
	s->blocks_lost_events += p->blocks_lost_events;	/* modular: reader/dedupe.c */
	s->gap_blocks += p->gap_blocks;
	s->gaps += p->gaps;
	s->skews += p->skews;
	return 0;
}

void ltt_range_close(struct ltt_range *g)
{
	if (!g)
		return;
	free(g->tf.blk);
	free(g->tf.ev);
	free(g);
}
