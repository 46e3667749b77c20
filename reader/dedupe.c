/* SPDX-License-Identifier: MIT */
/* Snapshots of one flight recording read together (doc/reader.md "Snapshots of one recording"):
 * every block (recording, tracefile, block_id) is read once, from the newest snapshot that holds it
 * (a later snapshot's copy of a block is never shorter: blocks are only appended to until the ring
 * overwrites them under a new block_id). A recording is identified by the system.xml attributes its
 * snapshots share: ltt_pid, ltt_start_cycles, ltt_start_time; its snapshots are ordered by
 * ltt_snapshot. Traces that are not flight snapshots, and a recording read from one snapshot only,
 * are read as before. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/grow.h"

#include "reader_internal.h"

struct dd_ent {
	const struct trace *rec;	/* first trace of the recording (identity) */
	const char *name;		/* tracefile name */
	uint32_t bid;
	struct tracefile *owner;	/* newest snapshot's tracefile holding the block */
	unsigned long owner_snap;
};

struct rd_dedupe {
	struct dd_ent *e;
	size_t n, cap;
};

static const char *attr(const struct trace *t, const char *name)
{
	const char *s = ltt_trace_attr(&t->info, name);

	return s ? s : "";
}

static int snapshot_of(const struct trace *t, unsigned long *snap)
{
	const char *s = ltt_trace_attr(&t->info, "ltt_snapshot");
	char *end;

	if (!s || strcmp(attr(t, "ltt_mode"), "flight") || !*attr(t, "ltt_pid"))
		return 0;
	*snap = strtoul(s, &end, 10);
	return *end == 0;
}

static int same_recording(const struct trace *a, const struct trace *b)
{
	static const char *const keys[] = { "ltt_pid", "ltt_start_cycles", "ltt_start_time", "node_name" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(attr(a, keys[i]), attr(b, keys[i])))
			return 0;
	return 1;
}

static int cmp_ent(const void *pa, const void *pb)
{
	const struct dd_ent *a = pa, *b = pb;
	int c;

	if (a->rec != b->rec)
		return a->rec < b->rec ? -1 : 1;
	if ((c = strcmp(a->name, b->name)))
		return c;
	return a->bid < b->bid ? -1 : a->bid > b->bid;
}

/* The block_id of block k of tf, or UINT32_MAX (a summary block, or not a block_start). */
static uint32_t block_id(const struct tracefile *tf, uint64_t k)
{
	const struct trace *t = tf->trace;
	unsigned char h[BLOCK_TS_EVENT];
	uint16_t id;

	if (pread(tf->fd, h, sizeof(h), (off_t)(k * t->info.block_size)) != (ssize_t)sizeof(h))
		return UINT32_MAX;
	id = rd_u16(h, t->info.big_endian);
	if (id >= t->nplan || t->plan[id].kind != EVK_BLOCK_START)
		return UINT32_MAX;
	return rd_u32(h + EV_HEADER + 16, t->info.big_endian);
}

static int add(struct rd_dedupe *d, const struct trace *rec, struct tracefile *tf, uint32_t bid,
	       unsigned long snap)
{
	if (LTT_GROW(d->e, d->n + 1, d->cap))
		return -ENOMEM;
	d->e[d->n++] = (struct dd_ent){ rec, tf->info.name, bid, tf, snap };
	return 0;
}

/* The newest snapshot of tf's recording (largest ltt_snapshot) in the set. */
static int newest(const struct ltt_reader *r, const struct trace *t)
{
	for (size_t i = 0; i < r->ntraces; i++)
		if (r->traces[i]->dd_rec == t->dd_rec && r->traces[i]->dd_snap > t->dd_snap)
			return 0;
	return 1;
}

/* Builds the table once all traces of the set are open (the facilities pass of trace_open reads
 * each trace alone, before); a recording read from one snapshot adds nothing. */
void rd_dedupe_build(struct ltt_reader *r)
{
	struct rd_dedupe *d = calloc(1, sizeof(*d));
	size_t out = 0;

	r->dd_built = 1;
	if (!d)
		return;
	for (size_t i = 0; i < r->ntraces; i++) {
		struct trace *t = r->traces[i], *rec = NULL;
		unsigned long snap, s2;
		int shared = 0;

		if (!snapshot_of(t, &snap))
			continue;
		for (size_t j = 0; j < r->ntraces; j++) {
			if (!snapshot_of(r->traces[j], &s2) || !same_recording(t, r->traces[j]))
				continue;
			if (!rec)
				rec = r->traces[j];	/* the recording's first trace in the set */
			if (j != i)
				shared = 1;
		}
		if (!shared)
			continue;
		t->dd_snap = snap;
		t->dd_rec = rec;
		for (size_t f = 0; f < t->ntf; f++) {
			struct tracefile *tf = t->tf[f];

			for (uint64_t k = 0; k < tf->info.nblocks; k++) {
				uint32_t bid = block_id(tf, k);

				if (bid != UINT32_MAX && add(d, rec, tf, bid, snap))
					goto fail;
			}
		}
	}
	if (!d->n)	/* no recording read from two snapshots or more */
		goto fail;
	qsort(d->e, d->n, sizeof(*d->e), cmp_ent);
	/* one entry per block, owned by the newest snapshot holding it */
	for (size_t i = 0; i < d->n; i++) {
		if (out && !cmp_ent(&d->e[out - 1], &d->e[i])) {
			if (d->e[i].owner_snap > d->e[out - 1].owner_snap) {
				d->e[out - 1].owner = d->e[i].owner;
				d->e[out - 1].owner_snap = d->e[i].owner_snap;
			}
			continue;
		}
		d->e[out++] = d->e[i];
	}
	d->n = out;
	/* blocks another snapshot supplies are not lost to the newest snapshot of the recording: they
	 * are taken off its summary's blocks_lost (rd_dedupe_lost, rd_dedupe_read) */
	for (size_t i = 0; i < r->ntraces; i++) {
		struct trace *t = r->traces[i];

		if (!t->dd_rec || !newest(r, t))
			continue;
		for (size_t f = 0; f < t->ntf; f++) {
			struct tracefile *tf = t->tf[f];

			for (size_t j = 0; j < d->n; j++)
				if (d->e[j].rec == t->dd_rec && !strcmp(d->e[j].name, tf->info.name) &&
				    d->e[j].owner->trace != t) {
					tf->dd_supplied++;
					d->e[j].owner->dd_newest = tf;
				}
		}
	}
	r->dd = d;
	return;
fail:
	free(d->e);
	free(d);
}

int rd_dedupe_skip(struct tracefile *tf, uint32_t bid)
{
	struct trace *t = tf->trace;
	struct ltt_reader *r = t->reader;
	struct dd_ent key, *e;

	if (!r->dd || !t->dd_rec)
		return 0;
	if (bid == UINT32_MAX)	/* summary blocks: the newest snapshot's only (its counts cover the others') */
		return !newest(r, t);
	key = (struct dd_ent){ .rec = t->dd_rec, .name = tf->info.name, .bid = bid };
	e = bsearch(&key, r->dd->e, r->dd->n, sizeof(key), cmp_ent);
	return e && e->owner != tf;
}

uint32_t rd_dedupe_lost(struct tracefile *tf, uint32_t blocks)
{
	uint64_t c = tf->dd_supplied < blocks ? tf->dd_supplied : blocks;

	tf->dd_supplied -= c;
	return blocks - (uint32_t)c;
}

/* A block of tf (not a summary) read with n events the recorder counts (its events and the drops its
 * events_lost records report; not block_start, block_end or heartbeats): when an older snapshot
 * supplies it, the newest snapshot's summary counted them as overwritten (doc/recorder.md
 * "Accounting"). Modular arithmetic: the summary may be read before or after this block; the final
 * count is exact. */
void rd_dedupe_read(struct tracefile *tf, uint64_t n)
{
	if (tf->dd_newest && tf->dd_newest != tf)
		tf->dd_newest->info.blocks_lost_events -= n;
}

void rd_dedupe_free(struct ltt_reader *r)
{
	if (r->dd) {
		free(r->dd->e);
		free(r->dd);
	}
	r->dd = NULL;
}
