/* SPDX-License-Identifier: MIT */
/* ltt export --format=ctf --threads (ctf.h ctf_parallel): the stream files written by block ranges
 * (doc/reader.md "Block ranges") encoded in threads, byte for byte what the event loop writes.
 *
 * Each tracefile the export reads is cut into ranges of consecutive blocks, taken in order from a
 * shared counter by ctx->threads workers (this thread is one). A worker decodes its range
 * (ltt_range_open) and encodes it ahead of its place with the export's own encoder
 * (ctf_stream_event) into a buffer of its own, starting from an empty stream state. The bytes a range
 * gives depend on what the stream carries from the ranges before it in three ways only: the clamp of
 * the cycle counts (`last`), the running events_discarded of the packet headers and the next
 * packet_seq_num of an event outside any block. Its length does not: each packet is a 60-byte header
 * and the events of its block. So when the range before it is placed (the worker waits for that:
 * ranges are placed in order, one stream at a time), the worker knows its file offset and the state
 * it starts from, adds the events_discarded before it to its packet headers, and writes its buffer
 * with pwrite at that offset when its turn comes (writes in file order, one at a time), while the
 * others encode. Its first packet's begin at or after the clamped time it inherits (the usual case)
 * gives the same bytes as from an empty state; otherwise, or when it used the inherited
 * packet_seq_num, it encodes its range again from the true state.
 *
 * The result is used only when it is exactly what one reader gives: no range found a problem, each
 * range followed its predecessor (ltt_range_follows: the reader's times and checks carried over), no
 * packet stayed open across a range's end. Otherwise the workers stop, the files written are removed,
 * the streams get back the state ctf_begin gave them, and the driver reads everything with its reader
 * (which reports the problems, in its order). Memory: per worker one range's output (at most 16 MiB of
 * blocks) and one open range; per tracefile the last range placed (its end state).
 *
 * For the tests (tests/e2e/export_par.sh): with LTT_EXPORT_PAR_LOG=FILE in the environment, each
 * parallel attempt appends "ctf: R ranges, E encoded again, exact|inexact" to FILE, so that a test
 * knows which path gave the bytes it compares. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "toolkit/cmd.h"
#include "ctf.h"

#define RANGES_PER_WORKER 4
#define MIN_RANGE_BLOCKS 4
#define MAX_RANGE_BYTES (16u << 20)
#define WRITE_MAX (1u << 20)		/* bytes per pwrite: one call of 16 MiB cost this kernel 3-4x the
					 * CPU of 16 calls of 1 MiB (page cache copy, ext4, 2026-11-24) */	/* blocks of a range at most (its output is about as large) */

struct cp_item {
	unsigned stream;		/* index in ctf.streams */
	uint64_t first, end;		/* blocks */
	struct ctf_anchor anchor;	/* the range's first block_start */
};

/* What a stream's placed ranges carry to the next one. */
struct cp_stream {
	size_t next;			/* the item to place next */
	uint64_t offset;		/* bytes placed */
	int have_ts, opened;
	uint64_t last, next_seq, discarded;
	struct ltt_range *g;		/* the last range placed (its end state) */
	int fd;
};

struct cp_job {
	struct ltt_export_ctx *ctx;
	struct ctf *c;
	struct cp_item *items;
	size_t nitems;
	struct cp_stream *st;
	size_t next;			/* the next item to take (atomic) */
	pthread_mutex_t lock;		/* placement: st[], failed, err */
	pthread_cond_t placed;		/* st[].next or written moved, or failed */
	size_t written;			/* items written (in order: see cp_run) */
	int failed;			/* stop: inexact (err 0) or an error (err < 0) */
	int err;
	size_t again;			/* ranges encoded again (under lock) */
};

struct cp_worker {
	struct cp_job *job;
	struct ctf_stream s;		/* the range being encoded; its buffers are reused */
	pthread_t th;
	int started;
};

static void fail(struct cp_job *j, int err)
{
	pthread_mutex_lock(&j->lock);
	if (!j->failed || (err < 0 && !j->err))
		j->err = err;
	j->failed = 1;
	pthread_cond_broadcast(&j->placed);
	pthread_mutex_unlock(&j->lock);
}

static int stopped(struct cp_job *j)
{
	int f;

	pthread_mutex_lock(&j->lock);
	f = j->failed;
	pthread_mutex_unlock(&j->lock);
	return f || *j->ctx->interrupted;
}

/* Empties w->s for item it, from the state of st when given (else empty). */
static void reset(struct cp_worker *w, const struct cp_item *it, const struct cp_stream *st)
{
	const struct ctf_stream *proto = &w->job->c->streams[it->stream];
	struct ctf_stream *s = &w->s;

	s->tf = proto->tf;
	s->dir = proto->dir;
	s->trace = proto->trace;
	s->be = proto->be;
	s->fd = -1;
	s->len = s->pkt = 0;
	s->open = s->summary = 0;
	s->seq = 0;
	s->have_ts = st ? st->have_ts : 0;
	s->last = st ? st->last : 0;
	s->next_seq = st ? st->next_seq : 0;
	s->discarded = st ? st->discarded : 0;
	s->begin = 0;
	s->ahead = 1;
	s->nheads = 0;
	s->opened = 0;
	s->first_begin = 0;
	s->used_next_seq = 0;
}

/* Decodes and encodes item it into w->s: 0, 1 when the range is not exact (a problem; a packet open
 * at its end), or a negative errno. *gp gets the range (to be closed by the caller). */
static int encode(struct cp_worker *w, struct cp_item *it, const struct cp_stream *st, struct ltt_range **gp)
{
	struct cp_job *j = w->job;
	struct ltt_event ev;
	uint64_t n = 0;
	int ret;

	reset(w, it, st);
	it->anchor.anchored = 0;
	ret = ltt_range_open(j->ctx->reader, w->s.tf, it->first, it->end, gp);
	if (ret)
		return ret == -ENOMEM ? ret : 1;	/* -EOPNOTSUPP (snapshots): the event loop */
	while ((ret = ltt_range_next(*gp, &ev)) == 1) {
		ret = ctf_stream_event(&w->s, &it->anchor, &ev);
		if (ret)
			return ret;
		if (!(++n & 0xffff) && *j->ctx->interrupted)
			return -EINTR;
	}
	if (ltt_range_problems(*gp) || w->s.open || w->s.summary)
		return 1;
	return 0;
}

static void put_add(unsigned char *p, uint64_t add, int be)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++)
		v |= (uint64_t)p[be ? 7 - i : i] << (8 * i);
	v += add;
	for (unsigned i = 0; i < 8; i++)
		p[be ? 7 - i : i] = (uint8_t)(v >> (8 * i));
}

static int write_at(int fd, const unsigned char *b, size_t len, uint64_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, b, len < WRITE_MAX ? len : WRITE_MAX, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		b += n;
		len -= (size_t)n;
		off += (uint64_t)n;
	}
	return 0;
}

/* Places item i (encoded ahead in w->s, its range g): waits for its predecessor, checks that it
 * follows, encodes it again when what it inherits changes its bytes, takes its offset and passes its
 * end state on. 0 (then *fd and *off say where to write w->s.buf), 1 inexact, or a negative errno. */
static int place(struct cp_worker *w, size_t i, struct ltt_range **g, int *fd, uint64_t *off)
{
	struct cp_job *j = w->job;
	struct cp_item *it = &j->items[i];
	struct cp_stream *st = &j->st[it->stream];
	struct ctf_stream *s = &w->s;
	uint64_t base;
	int ret = 0;

	pthread_mutex_lock(&j->lock);
	/* the items of a stream are taken in order, so its predecessor is being encoded or placed */
	while (!j->failed && st->next != i)
		pthread_cond_wait(&j->placed, &j->lock);
	if (j->failed) {
		pthread_mutex_unlock(&j->lock);
		return 1;
	}
	if (st->g && !ltt_range_follows(st->g, *g)) {
		ret = 1;
		goto out;
	}
	if (s->used_next_seq || (s->opened && st->have_ts && st->last > s->first_begin)) {
		/* the inherited state shows in its bytes: encode it again from that state (rare: clock
		 * skew at the seam, events outside any block) */
		ltt_range_close(*g);
		*g = NULL;
		j->again++;
		ret = encode(w, it, st, g);
		if (ret)
			goto out;
		base = 0;
	} else {
		base = st->discarded;
		s->discarded += base;
	}
	if (st->fd < 0 && s->len) {
		char path[4096];

		ctf_stream_path(s, path, sizeof(path));
		st->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (st->fd < 0) {
			ltt_tool_error("export", "%s: %s", path, strerror(errno));
			ret = EXPORT_REPORTED;
			goto out;
		}
	}
	*fd = st->fd;
	*off = st->offset;
	st->offset += s->len;
	if (s->opened) {
		st->have_ts = s->have_ts;
		st->last = s->last;
		st->next_seq = s->next_seq;
		st->opened = 1;
	}
	st->discarded = s->discarded;
	ltt_range_close(st->g);
	st->g = *g;		/* kept for its end state */
	*g = NULL;
	st->next = i + 1;	/* the items of a stream are consecutive */
	pthread_cond_broadcast(&j->placed);
out:
	pthread_mutex_unlock(&j->lock);
	if (!ret && base)
		for (size_t k = 0; k < s->nheads; k++)
			put_add(s->buf + s->heads[k] + CTF_DISCARDED_AT, base, s->be);
	return ret;
}

/* Writes w->s.buf at off in fd when item i's turn comes: 0, 1 (stopped), or a negative errno. */
static int write_in_turn(struct cp_worker *w, size_t i, int fd, uint64_t off)
{
	struct cp_job *j = w->job;
	int ret = 0;

	pthread_mutex_lock(&j->lock);
	while (!j->failed && j->written != i)
		pthread_cond_wait(&j->placed, &j->lock);
	ret = j->failed;
	pthread_mutex_unlock(&j->lock);
	if (ret)
		return 1;
	if (w->s.len)
		ret = write_at(fd, w->s.buf, w->s.len, off);
	pthread_mutex_lock(&j->lock);
	j->written = i + 1;
	pthread_cond_broadcast(&j->placed);
	pthread_mutex_unlock(&j->lock);
	return ret;
}

static void *cp_run(void *arg)
{
	struct cp_worker *w = arg;
	struct cp_job *j = w->job;

	for (;;) {
		/* relaxed: the counter only hands out distinct items in order; what the items carry
		 * passes under j->lock (place) */
		size_t i = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED);
		struct ltt_range *g = NULL;
		uint64_t off = 0;
		int fd = -1, ret;

		if (i >= j->nitems || stopped(j))
			break;
		ret = encode(w, &j->items[i], NULL, &g);
		if (!ret)
			ret = place(w, i, &g, &fd, &off);
		/* The writes in item order, one at a time, while the others encode: the writes of one file
		 * take its inode lock in turn anyway (the kernel spins on it, CPU for nothing), and
		 * out-of-order writes leave holes the file system fills in later at a cost. */
		if (!ret)
			ret = write_in_turn(w, i, fd, off);
		ltt_range_close(g);
		if (ret) {
			fail(j, ret > 0 ? 0 : ret);
			break;
		}
	}
	return NULL;
}

/* The ranges of the tracefiles the export reads, in the event loop's order (items NULL: counts). */
static size_t plan(const struct ltt_export_ctx *ctx, const struct ctf *c, struct cp_item *items)
{
	size_t n = 0;

	for (unsigned i = 0; i < c->nstreams; i++) {
		const struct ltt_tracefile_info *tf = c->streams[i].tf;
		uint32_t bs = ltt_reader_trace(ctx->reader, c->streams[i].trace)->block_size;
		uint64_t max = bs ? MAX_RANGE_BYTES / bs : MIN_RANGE_BLOCKS;
		uint64_t per = (tf->nblocks + RANGES_PER_WORKER * ctx->threads - 1) / (RANGES_PER_WORKER * ctx->threads);

		if (!export_tracefile_kept(ctx, tf))
			continue;
		if (per > max)
			per = max;
		if (per < MIN_RANGE_BLOCKS)
			per = MIN_RANGE_BLOCKS;
		for (uint64_t a = 0; a < tf->nblocks; a += per) {
			if (items)
				items[n] = (struct cp_item){
					.stream = i, .first = a, .end = tf->nblocks - a < per ? tf->nblocks : a + per,
				};
			n++;
		}
	}
	return n;
}

static void log_attempt(const struct cp_job *j)
{
	const char *path = getenv("LTT_EXPORT_PAR_LOG");
	FILE *f = path && *path ? fopen(path, "ae") : NULL;

	if (!f)
		return;
	fprintf(f, "ctf: %zu ranges, %zu encoded again, %s\n", j->nitems, j->again,
		j->failed ? (j->err ? "error" : "inexact") : "exact");
	fclose(f);
}

int ctf_parallel(struct ltt_export_ctx *ctx)
{
	struct cp_job j = { .ctx = ctx, .c = ctx->priv };
	struct cp_worker *w = NULL;
	struct ctf *c = ctx->priv;
	unsigned nw = ctx->threads;
	int ret = -ENOMEM;

	j.nitems = plan(ctx, c, NULL);
	if (!j.nitems)
		return 0;
	j.items = calloc(j.nitems, sizeof(*j.items));
	j.st = calloc(c->nstreams, sizeof(*j.st));
	w = calloc(nw, sizeof(*w));
	if (!j.items || !j.st || !w)
		goto out;
	plan(ctx, c, j.items);
	for (unsigned i = 0; i < c->nstreams; i++) {
		j.st[i].fd = -1;
		j.st[i].next = j.nitems;
	}
	for (size_t i = j.nitems; i-- > 0; )
		j.st[j.items[i].stream].next = i;	/* each stream's first item */
	pthread_mutex_init(&j.lock, NULL);
	pthread_cond_init(&j.placed, NULL);
	for (unsigned k = 0; k < nw; k++)
		w[k].job = &j;
	/* worker 0 is this thread; one that cannot start leaves its items to the others */
	for (unsigned k = 1; k < nw; k++)
		w[k].started = !pthread_create(&w[k].th, NULL, cp_run, &w[k]);
	cp_run(&w[0]);
	for (unsigned k = 1; k < nw; k++)
		if (w[k].started)
			pthread_join(w[k].th, NULL);
	pthread_cond_destroy(&j.placed);
	pthread_mutex_destroy(&j.lock);
	log_attempt(&j);
	if (*ctx->interrupted && !j.failed) {
		j.failed = 1;
		j.err = -EINTR;
	}
	if (j.failed) {		/* nothing stays: the event loop (or the driver's cleanup) takes over */
		for (unsigned i = 0; i < c->nstreams; i++)
			if (j.st[i].fd >= 0) {
				char path[4096];

				close(j.st[i].fd);
				ctf_stream_path(&c->streams[i], path, sizeof(path));
				unlink(path);
			}
		ret = j.err;
		goto out;
	}
	for (unsigned i = 0; i < c->nstreams; i++) {	/* the streams as the event loop leaves them */
		struct ctf_stream *s = &c->streams[i];

		s->fd = j.st[i].fd;
		s->have_ts = j.st[i].have_ts;
		s->last = j.st[i].last;
		s->next_seq = j.st[i].next_seq;
		s->discarded = j.st[i].discarded;
		s->opened = j.st[i].opened;
	}
	for (size_t i = 0; i < j.nitems; i++) {
		struct ctf_anchor *a = &c->traces[c->streams[j.items[i].stream].trace].anchor;

		if (!a->anchored && j.items[i].anchor.anchored)
			*a = j.items[i].anchor;
	}
	ret = 1;
out:
	for (unsigned i = 0; j.st && i < c->nstreams; i++)
		ltt_range_close(j.st[i].g);
	for (unsigned k = 0; w && k < nw; k++) {
		free(w[k].s.buf);
		free(w[k].s.heads);
	}
	free(w);
	free(j.st);
	free(j.items);
	return ret;
}
