/* SPDX-License-Identifier: MIT */
/* Parallel gzip writing for ltt pack: fixed 1 MiB chunks, one gzip member each, written in order.
 *
 * Slot k of the ring holds chunk number seq with seq % nslots == k. The caller fills one slot at a
 * time and hands it to the workers (FULL); a worker deflates it (BUSY, then DONE); the caller writes
 * DONE members in sequence order and frees their slots before filling them again. One mutex guards
 * every slot's state; the buffers of a slot belong to whoever moved it to its current state. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "common/io.h"
#include "archive_gzwrite.h"

#define CHUNK (1u << 20)
#define MAX_THREADS 8u

enum { SLOT_FREE, SLOT_FULL, SLOT_BUSY, SLOT_DONE };

struct slot {
	unsigned char *in, *out;
	size_t in_len, out_len;
	int state;
	int err;
};

struct ltt_gzwrite {
	int fd, level;
	unsigned nthreads, nslots, started;
	size_t out_cap;
	pthread_t threads[MAX_THREADS];
	pthread_mutex_t lock;
	pthread_cond_t work;		/* a slot became FULL, or stopping */
	pthread_cond_t done;		/* a slot became DONE */
	struct slot *slots;
	uint64_t filling;		/* sequence number of the chunk being filled */
	uint64_t written;		/* chunks written out so far */
	int stopping;
	int err;			/* first error; sticky */
	z_stream z;			/* the caller's own, when nthreads == 1 */
};

/* Deflates one chunk into one gzip member. */
static int deflate_slot(z_stream *z, struct slot *s, size_t out_cap)
{
	if (deflateReset(z) != Z_OK)
		return -EINVAL;
	z->next_in = s->in;
	z->avail_in = (uInt)s->in_len;
	z->next_out = s->out;
	z->avail_out = (uInt)out_cap;
	if (deflate(z, Z_FINISH) != Z_STREAM_END)
		return -EIO;	/* cannot happen: out_cap is deflateBound() of a whole chunk */
	s->out_len = out_cap - z->avail_out;
	return 0;
}

/* windowBits 15 + 16: a gzip wrapper; zlib's default header has no time stamp and no name. */
static int init_z(z_stream *z, int level)
{
	memset(z, 0, sizeof(*z));
	return deflateInit2(z, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK ? 0 : -ENOMEM;
}

static void *worker(void *arg)
{
	struct ltt_gzwrite *g = arg;
	z_stream z;
	int zerr = init_z(&z, g->level);

	pthread_mutex_lock(&g->lock);
	for (;;) {
		struct slot *s = NULL;

		/* The oldest FULL chunk: it is the next to be written. */
		for (uint64_t q = g->written; q < g->filling; q++) {
			struct slot *c = &g->slots[q % g->nslots];

			if (c->state == SLOT_FULL) {
				s = c;
				break;
			}
		}
		if (!s) {
			if (g->stopping)
				break;
			pthread_cond_wait(&g->work, &g->lock);
			continue;
		}
		s->state = SLOT_BUSY;
		pthread_mutex_unlock(&g->lock);
		s->err = zerr ? zerr : deflate_slot(&z, s, g->out_cap);
		pthread_mutex_lock(&g->lock);
		s->state = SLOT_DONE;
		pthread_cond_broadcast(&g->done);
	}
	pthread_mutex_unlock(&g->lock);
	if (!zerr)
		deflateEnd(&z);
	return NULL;
}

/* Writes members in order until `upto` chunks have been written (waiting for workers as needed). */
static int write_until(struct ltt_gzwrite *g, uint64_t upto)
{
	pthread_mutex_lock(&g->lock);
	while (g->written < upto) {
		struct slot *s = &g->slots[g->written % g->nslots];
		int ret;

		if (s->state != SLOT_DONE) {
			pthread_cond_wait(&g->done, &g->lock);
			continue;
		}
		pthread_mutex_unlock(&g->lock);
		ret = s->err ? s->err : g->err ? g->err : ltt_write_all(g->fd, s->out, s->out_len);
		pthread_mutex_lock(&g->lock);
		if (ret && !g->err)
			g->err = ret;
		s->state = SLOT_FREE;
		s->in_len = 0;
		g->written++;
	}
	pthread_mutex_unlock(&g->lock);
	return g->err;
}

/* Hands the slot being filled to the workers (or deflates it here with one thread). */
static int submit(struct ltt_gzwrite *g)
{
	struct slot *s = &g->slots[g->filling % g->nslots];

	if (g->nthreads == 1) {
		int ret = deflate_slot(&g->z, s, g->out_cap);

		if (!ret)
			ret = ltt_write_all(g->fd, s->out, s->out_len);
		s->in_len = 0;
		g->filling++;
		g->written++;
		if (ret && !g->err)
			g->err = ret;
		return g->err;
	}
	pthread_mutex_lock(&g->lock);
	s->state = SLOT_FULL;
	g->filling++;
	pthread_cond_signal(&g->work);
	pthread_mutex_unlock(&g->lock);
	/* The next slot to fill must have been written out first. */
	return g->filling >= g->nslots ? write_until(g, g->filling - g->nslots + 1) : g->err;
}

int ltt_gzwrite_write(struct ltt_gzwrite *g, const void *buf, size_t len)
{
	const unsigned char *p = buf;

	while (len && !g->err) {
		struct slot *s = &g->slots[g->filling % g->nslots];
		size_t n = CHUNK - s->in_len < len ? CHUNK - s->in_len : len;

		memcpy(s->in + s->in_len, p, n);
		s->in_len += n;
		p += n;
		len -= n;
		if (s->in_len == CHUNK && submit(g))
			break;
	}
	return g->err;
}

static void stop_threads(struct ltt_gzwrite *g)
{
	pthread_mutex_lock(&g->lock);
	g->stopping = 1;
	pthread_cond_broadcast(&g->work);
	pthread_mutex_unlock(&g->lock);
	for (unsigned i = 0; i < g->started; i++)
		pthread_join(g->threads[i], NULL);
	g->started = 0;
}

int ltt_gzwrite_close(struct ltt_gzwrite *g)
{
	struct slot *s = &g->slots[g->filling % g->nslots];

	/* The last, partial chunk; an empty input still gets one (empty) member. */
	if (!g->err && (s->in_len || g->filling == 0))
		submit(g);
	if (g->nthreads > 1)
		write_until(g, g->filling);
	stop_threads(g);
	return g->err;
}

void ltt_gzwrite_free(struct ltt_gzwrite *g)
{
	if (!g)
		return;
	stop_threads(g);
	for (unsigned i = 0; i < g->nslots; i++) {
		free(g->slots[i].in);
		free(g->slots[i].out);
	}
	free(g->slots);
	if (g->nthreads == 1)
		deflateEnd(&g->z);
	pthread_cond_destroy(&g->work);
	pthread_cond_destroy(&g->done);
	pthread_mutex_destroy(&g->lock);
	free(g);
}

int ltt_gzwrite_open(struct ltt_gzwrite **out, int fd, int level, unsigned threads)
{
	struct ltt_gzwrite *g = calloc(1, sizeof(*g));
	int ret = 0;

	*out = NULL;
	if (!g)
		return -ENOMEM;
	if (!threads) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		threads = n < 1 ? 1 : n > (long)MAX_THREADS ? MAX_THREADS : (unsigned)n;
	}
	g->fd = fd;
	g->level = level;
	g->nthreads = threads > MAX_THREADS ? MAX_THREADS : threads;
	g->nslots = g->nthreads == 1 ? 1 : 2 * g->nthreads + 1;
	pthread_mutex_init(&g->lock, NULL);
	pthread_cond_init(&g->work, NULL);
	pthread_cond_init(&g->done, NULL);
	if (init_z(&g->z, level)) {
		free(g);
		return -ENOMEM;
	}
	g->out_cap = deflateBound(&g->z, CHUNK);
	if (g->nthreads > 1)
		deflateEnd(&g->z);	/* only the workers deflate */
	g->slots = calloc(g->nslots, sizeof(*g->slots));
	for (unsigned i = 0; g->slots && i < g->nslots; i++) {
		g->slots[i].in = malloc(CHUNK);
		g->slots[i].out = malloc(g->out_cap);
		if (!g->slots[i].in || !g->slots[i].out)
			ret = -ENOMEM;
	}
	if (!g->slots)
		ret = -ENOMEM;
	for (unsigned i = 0; !ret && g->nthreads > 1 && i < g->nthreads; i++) {
		ret = -pthread_create(&g->threads[i], NULL, worker, g);
		if (!ret)
			g->started++;
	}
	if (ret) {
		if (!g->slots)
			g->nslots = 0;
		ltt_gzwrite_free(g);
		return ret;
	}
	*out = g;
	return 0;
}
