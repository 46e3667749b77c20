/* SPDX-License-Identifier: MIT */
/* ltt dump by time windows of block ranges (par.h par_dump; doc/performance.md "ltt dump by block
 * ranges"). The trace set's time is cut into windows [t[i], t[i + 1]) at block_start times of its
 * largest tracefile; in tracefile f, window i decodes the blocks [b0[i][f], b0[i + 1][f]) (its range,
 * "M"), then block b0[i + 1][f] (the extension, "X"), and keeps the events with times in the window.
 * b0[i][f] is the block before the first one whose block_start is at or after t[i]: blocks after it
 * hold only events at or after t[i] (the reader's clamp never lets times go back in a tracefile), and
 * the blocks before it only earlier ones, which the windows check (an event of M at or after the
 * window's end makes the next window fall back). Each window merges its tracefiles by (time, merge
 * rank), the reader's order (reader/reader.c `before`), and formats the events with the format's own
 * callback, in worker processes forked after the reader was opened (the formats' caches need no lock).
 *
 * Exactness: a window's output is written only when the state its ranges started from is the state
 * the previous window's ranges ended with (ltt_range_seam_follows, on seams kept in shared memory),
 * which makes the windows together decode what one reader decodes. A problem (damaged block, time
 * going back, ...) is counted by a range, never reported: the window that finds one stops, and the
 * caller reads the trace with its reader, which reports every problem in its order, skipping the
 * events the windows before wrote (par_dump returns 1 and their number). Output is then the same bytes
 * as the single-thread path's, on stdout and stderr.
 *
 * Output order and memory: window w goes out when shared `turn` is w. A worker whose window's turn has
 * not come formats into up to CHUNKS dump_out buffers (32 MiB), the rare event that overflows one
 * being flushed into a memfd in order; when they are full it waits for its turn. Once its turn has come
 * it writes them and formats straight to the output, then passes the turn to window w + 1. Windows go
 * round the workers (window w to worker w % W), so a worker never waits for itself. */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <malloc.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/heap.h"
#include "common/io.h"
#include "toolkit/par.h"

/* Trace bytes per window, about: small enough that a window's output fits the buffers (JSON of the
 * bench's int3 events: 7 bytes of output per byte of trace, 28 MB), large enough that the block a
 * window decodes before its first one and the block it shares with the next stay a small part (2 of
 * 4 blocks of 1 MiB). */
#define WIN_BYTES	(4ull << 20)
#define WIN_PER_WORKER	4		/* at least, so that a slow worker's share is small */
#define CHUNKS		128		/* buffered output of a worker: CHUNKS x DUMP_OUT_SIZE (32 MiB) */
#define CHUNK_FULL	(DUMP_OUT_SIZE - 4096)
#define NONE		UINT32_MAX
#define EXIT_EPIPE	2
#define COPY_BUF	(64 * 1024)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* Shared between the workers (MAP_SHARED, made before fork). */
struct pd_shared {
	uint32_t seq;		/* futex word: bumped after each change of the three below */
	uint32_t turn;		/* the window whose output goes out next */
	uint32_t fail_at;	/* the first window not written whole (NONE) */
	uint32_t abort;		/* a worker failed: every worker stops */
	uint64_t wait_ns;	/* time the workers spent waiting for their turn (LTT_PAR_DEBUG) */
	uint32_t redone;	/* windows decoded again from block b0 - 1: the guess was wrong */
};

struct pd {
	struct ltt_reader *r;
	const struct par_opts *o;
	unsigned workers, nwin, ntf;
	const struct ltt_tracefile_info **tf;
	uint64_t *t;			/* window i: [t[i], t[i + 1]), the last one unbounded */
	uint64_t *b0;			/* [i * ntf + f]: first block of window i in f; row nwin: nblocks */
	struct pd_shared *sh;
	size_t sh_size;
	uint64_t *written;		/* [w]: events of window w written (shared) */
	struct ltt_range_seam *exit;	/* [w * ntf + f]: where window w's range of f ended (shared) */
	uint8_t *exit_ok;		/* [w * ntf + f]: that range was read whole, no event past the window */
	pid_t *pid;
};

struct pd_stream {
	struct ltt_range *g;
	struct ltt_event ev;		/* the next event of the window from this tracefile */
	uint64_t rank;
	uint64_t x_end;
	int in_x, exit_ok, last;
};

struct pd_worker {
	struct pd *p;
	struct pd_stream *s;
	struct pd_stream **heap;
	struct ltt_range_seam *entry;	/* [f]: where this window's ranges started */
	struct dump_out *chunk;		/* CHUNKS */
	uint64_t from[CHUNKS], to[CHUNKS];	/* memfd bytes flushed before each chunk's buffer */
	unsigned cur;
	int streaming;			/* the turn is ours: chunk[0] writes to the output */
	int mfd;
	char *copy;
};

/* window results; errors are negative errnos */
enum { PD_OK, PD_FAIL, PD_STOP, PD_RETRY };

/* ---- turn passing --------------------------------------------------------------------------------- */

static void sh_changed(struct pd *p)
{
	/* after the store of turn, fail_at or abort: a waiter that read seq before the store and missed
	 * the store finds seq changed in futex_wait, or is woken below (pair: the load in wait_turn) */
	__atomic_add_fetch(&p->sh->seq, 1, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, &p->sh->seq, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static int turn_is(struct pd *p, unsigned w)
{
	/* acquire: pairs with the release store in pass_turn; the previous windows' exit seams and
	 * written counts are visible once the turn is ours */
	return __atomic_load_n(&p->sh->turn, __ATOMIC_ACQUIRE) == w;
}

static int stopped(struct pd *p, unsigned w)
{
	/* relaxed: a hint to stop early (pair: the stores in set_fail and set_abort); the decision that
	 * counts is the turn's */
	return __atomic_load_n(&p->sh->fail_at, __ATOMIC_RELAXED) < w ||
	       __atomic_load_n(&p->sh->abort, __ATOMIC_RELAXED);
}

/* 0 once window w's turn has come; -1 when it never will (an earlier window failed, or a worker). */
static int wait_turn(struct pd *p, unsigned w)
{
	uint64_t t0 = 0;

	for (;;) {
		/* pair: the increment in sh_changed */
		uint32_t s = __atomic_load_n(&p->sh->seq, __ATOMIC_SEQ_CST);

		if (turn_is(p, w) || stopped(p, w)) {
			if (t0)	/* relaxed: a statistic, read after the workers exited */
				__atomic_add_fetch(&p->sh->wait_ns, ltt_mono_ns() - t0, __ATOMIC_RELAXED);
			return turn_is(p, w) ? 0 : -1;
		}
		if (!t0)
			t0 = ltt_mono_ns();
		syscall(SYS_futex, &p->sh->seq, FUTEX_WAIT, s, NULL, NULL, 0);
	}
}

static void pass_turn(struct pd *p, unsigned w)
{
	/* release: pairs with the acquire load in turn_is; publishes written[w] and window w's seams */
	__atomic_store_n(&p->sh->turn, w + 1, __ATOMIC_RELEASE);
	sh_changed(p);
}

static void set_fail(struct pd *p, unsigned w)
{
	uint32_t cur = __atomic_load_n(&p->sh->fail_at, __ATOMIC_RELAXED);

	/* relaxed: fail_at only decreases; the parent reads it after every worker has exited (waitpid) */
	while (w < cur && !__atomic_compare_exchange_n(&p->sh->fail_at, &cur, w, 0, __ATOMIC_RELAXED,
						       __ATOMIC_RELAXED))
		;
	sh_changed(p);
}

static void set_abort(struct pd *p)
{
	__atomic_store_n(&p->sh->abort, 1, __ATOMIC_RELAXED);	/* pair: the load in stopped */
	sh_changed(p);
}

/* ---- the window's merge ---------------------------------------------------------------------------- */

static inline int before(const struct pd_stream *a, const struct pd_stream *b)
{
	return a->ev.time_ns < b->ev.time_ns || (a->ev.time_ns == b->ev.time_ns && a->rank < b->rank);
}

LTT_HEAP_DEFINE(pd_heap, struct pd_stream *, before)

/* The next event of s in [lo, hi): 1; 0 at its end; -1 on a problem. */
static int stream_next(struct pd_stream *s, uint64_t lo, uint64_t hi)
{
	for (;;) {
		int rc = ltt_range_next(s->g, &s->ev);

		if (unlikely(ltt_range_problems(s->g)))
			return -1;
		if (unlikely(!rc)) {
			if (s->in_x)
				return 0;
			s->exit_ok = 1;
			if (s->last)
				return 0;
			s->in_x = 1;
			if (ltt_range_extend(s->g, s->x_end))
				return -1;
			continue;
		}
		if (unlikely(s->ev.time_ns < lo))
			continue;
		/* in M: the next window's blocks are not all later (it falls back: exit_ok stays 0) */
		if (unlikely(s->ev.time_ns >= hi))
			return 0;
		return 1;
	}
}

static int copy_spill(struct pd_worker *k, uint64_t from, uint64_t to)
{
	while (from < to) {
		ssize_t n = pread(k->mfd, k->copy, to - from < COPY_BUF ? (size_t)(to - from) : COPY_BUF,
				  (off_t)from);
		int rc;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		rc = ltt_write_all(k->p->o->out_fd, k->copy, (size_t)n);
		if (rc)
			return rc;
		from += (uint64_t)n;
	}
	return 0;
}

static int spill_pos(struct pd_worker *k, uint64_t *pos)
{
	off_t o = lseek(k->mfd, 0, SEEK_CUR);

	if (o < 0)
		return -errno;
	*pos = (uint64_t)o;
	return 0;
}

static void chunk_init(struct dump_out *c, int fd)
{
	c->fd = fd;
	c->error = 0;
	c->len = 0;
}

/* The turn of window w has come: checks that its ranges start where window w - 1's ended, writes what
 * was buffered, and formats straight to the output from now on. PD_OK, PD_FAIL or an error. */
static int take_turn(struct pd_worker *k, unsigned w)
{
	struct pd *p = k->p;
	int rc;

	for (unsigned f = 0; w && f < p->ntf; f++) {
		size_t i = (size_t)(w - 1) * p->ntf + f;

		if (!p->exit_ok[i] || !ltt_range_seam_follows(&p->exit[i], &k->entry[f]))
			return PD_FAIL;
	}
	rc = spill_pos(k, &k->to[k->cur]);
	for (unsigned c = 0; !rc && c <= k->cur; c++) {
		rc = k->chunk[c].error;
		if (!rc && k->to[c] > k->from[c])
			rc = copy_spill(k, k->from[c], k->to[c]);
		if (!rc)
			rc = ltt_write_all(p->o->out_fd, k->chunk[c].buf, k->chunk[c].len);
	}
	if (rc)
		return rc;
	if (lseek(k->mfd, 0, SEEK_SET) < 0)
		return -errno;
	k->cur = 0;
	chunk_init(&k->chunk[0], p->o->out_fd);
	k->streaming = 1;
	return PD_OK;
}

/* The current chunk is full: the next one, or the output once the turn has come. */
static int next_chunk(struct pd_worker *k, unsigned w)
{
	struct pd *p = k->p;
	int rc = spill_pos(k, &k->to[k->cur]);

	if (rc)
		return rc;
	if (turn_is(p, w))
		return take_turn(k, w);
	if (stopped(p, w))
		return PD_STOP;
	if (k->cur + 1 == CHUNKS) {
		if (wait_turn(p, w))
			return PD_STOP;
		return take_turn(k, w);
	}
	k->cur++;
	chunk_init(&k->chunk[k->cur], k->mfd);
	k->from[k->cur] = k->to[k->cur - 1];
	return PD_OK;
}

/* ---- one window ------------------------------------------------------------------------------------ */

/* Window w. Its ranges start from the state block b0 - 1's anchors give (ltt_range_seam_guess), which
 * saves decoding that block; when that guess is not the state the previous window ended with, or a
 * problem was found before the turn came, the window is done again (PD_RETRY) with `exact`: once its
 * turn has come, from the states the previous window's ranges ended with (shared memory). */
static int window(struct pd_worker *k, unsigned w, int exact)
{
	struct pd *p = k->p;
	const struct par_opts *o = p->o;
	int last = w + 1 == p->nwin, rc = PD_OK, bad = 0, guessed = 0;
	uint64_t lo = p->t[w], hi = last ? UINT64_MAX : p->t[w + 1], n = 0;
	size_t nh = 0;

	if (exact && w && wait_turn(p, w))
		return PD_STOP;
	for (unsigned f = 0; f < p->ntf; f++) {
		struct pd_stream *s = &k->s[f];
		uint64_t first = p->b0[(size_t)w * p->ntf + f], end = p->b0[(size_t)(w + 1) * p->ntf + f];
		int got;

		*s = (struct pd_stream){ .x_end = last ? end : end + 1, .last = last };
		if (bad || rc)
			continue;
		if (exact && w) {	/* the previous window's state, unless an event of it was past T_w */
			const size_t i = (size_t)(w - 1) * p->ntf + f;

			if (!p->exit_ok[i]) {
				rc = PD_FAIL;
				continue;
			}
			got = ltt_range_open_at(p->r, p->tf[f], first, end, &p->exit[i], &s->g);
		} else if (!exact && first && !ltt_range_seam_guess(p->r, p->tf[f], first, &k->entry[f])) {
			guessed = 1;
			got = ltt_range_open_at(p->r, p->tf[f], first, end, &k->entry[f], &s->g);
		} else {
			got = ltt_range_open(p->r, p->tf[f], first, end, &s->g);
		}
		if (got) {
			bad = 1;
			continue;
		}
		ltt_range_entry(s->g, &k->entry[f]);
		s->rank = ltt_range_rank(s->g);
		got = stream_next(s, lo, hi);
		if (got < 0)
			bad = 1;
		else if (got)
			k->heap[nh++] = s;
	}
	pd_heap_make(k->heap, nh);
	k->cur = 0;
	k->from[0] = 0;
	k->streaming = 0;
	chunk_init(&k->chunk[0], k->mfd);
	if (!rc && lseek(k->mfd, 0, SEEK_SET) < 0)	/* what a window done again had spilled */
		rc = -errno;
	if (!bad && rc == PD_OK && turn_is(p, w))
		rc = take_turn(k, w);
	while (!bad && rc == PD_OK && nh) {
		struct pd_stream *s = k->heap[0];
		struct dump_out *out = &k->chunk[k->cur];
		int got;

		rc = o->event(o->arg, out, &s->ev);
		if (unlikely(rc || out->error))	/* a closed output: no use going on */
			break;
		n++;
		got = stream_next(s, lo, hi);
		if (got < 0)
			bad = 1;
		else if (!got)
			pd_heap_pop(k->heap, &nh);
		else
			pd_heap_sift_down(k->heap, nh, 0);
		if (!k->streaming && unlikely(out->len > CHUNK_FULL))
			rc = next_chunk(k, w);
	}
	for (unsigned f = 0; f < p->ntf; f++) {
		size_t i = (size_t)w * p->ntf + f;

		p->exit_ok[i] = !bad && k->s[f].exit_ok && !ltt_range_exit(k->s[f].g, &p->exit[i]);
		ltt_range_close(k->s[f].g);
		k->s[f].g = NULL;
	}
	if (rc < 0)
		return rc;
	if (rc == PD_OK && !bad && !k->streaming) {
		if (wait_turn(p, w))
			return PD_STOP;
		rc = take_turn(k, w);
		if (rc < 0)
			return rc;
	}
	if (rc == PD_STOP)
		return rc;
	if ((rc == PD_FAIL || (bad && !k->streaming)) && guessed && !exact)
		return PD_RETRY;	/* nothing written yet */
	if (rc == PD_FAIL || (bad && !k->streaming)) {	/* nothing of window w written */
		set_fail(p, w);
		return PD_FAIL;
	}
	/* streaming: every event formatted is written (those before a problem are the reader's) */
	rc = dump_out_flush(&k->chunk[0]);
	if (rc)
		return rc;
	p->written[w] = n;
	if (bad) {
		set_fail(p, w);
		return PD_FAIL;
	}
	pass_turn(p, w);
	return PD_OK;
}

/* The worker process i: windows i, i + W, ...; never returns. Exit status 0, EXIT_EPIPE when the
 * output was closed, 1 for another error (the others are stopped). */
static void worker(struct pd *p, unsigned i)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	struct pd_worker k = { .p = p };
	int rc = 0;

	sigaction(SIGPIPE, &ign, NULL);	/* EPIPE instead: told to the parent by the exit status */
	/* every window opens ranges whose block buffers (a block each) are freed at their end: kept in
	 * the heap, their pages are faulted in once, not once per window */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	k.s = calloc(p->ntf, sizeof(*k.s));
	k.heap = calloc(p->ntf, sizeof(*k.heap));
	k.entry = calloc(p->ntf, sizeof(*k.entry));
	k.copy = malloc(COPY_BUF);
	k.mfd = memfd_create("ltt-dump", MFD_CLOEXEC);
	/* untouched pages cost nothing: a window's output uses what it needs, at most CHUNKS buffers */
	k.chunk = mmap(NULL, CHUNKS * sizeof(*k.chunk), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!k.s || !k.heap || !k.entry || !k.copy || k.mfd < 0 || k.chunk == MAP_FAILED)
		rc = -ENOMEM;
	else	/* fewer page faults; refused where transparent huge pages are off: no matter */
		(void)madvise(k.chunk, CHUNKS * sizeof(*k.chunk), MADV_HUGEPAGE);
	for (unsigned w = i; !rc && w < p->nwin; w += p->workers) {
		rc = window(&k, w, 0);
		if (rc == PD_RETRY) {
			__atomic_add_fetch(&p->sh->redone, 1, __ATOMIC_RELAXED);	/* read after exit */
			rc = window(&k, w, 1);
		}
		if (rc == PD_FAIL || rc == PD_STOP)
			break;
	}
	if (rc < 0)
		set_abort(p);
	_exit(rc == -EPIPE ? EXIT_EPIPE : rc < 0 ? 1 : 0);
}

/* ---- the plan ------------------------------------------------------------------------------------------ */

/* The first block of tf whose block_start is at or after t (nblocks: none), by bisection. */
static int first_at(struct ltt_reader *r, const struct ltt_tracefile_info *tf, uint64_t t, uint64_t *k)
{
	uint64_t lo = 0, hi = tf->nblocks, ns;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (ltt_range_block_time(r, tf, mid, &ns))
			return -EIO;
		if (ns >= t)
			hi = mid;
		else
			lo = mid + 1;
	}
	*k = lo;
	return 0;
}

/* The tracefiles the reader reads that hold blocks (into p->tf when set); their number. */
static unsigned list_tracefiles(struct pd *p, uint64_t *bytes, const struct ltt_tracefile_info **big)
{
	struct ltt_reader *r = p->r;
	unsigned n = 0;

	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->ntracefiles; k++) {
			const struct ltt_tracefile_info *tf = t->tracefiles[k];

			if (!tf->nblocks || ltt_reader_skips_tracefile(r, tf))
				continue;
			if (p->tf)
				p->tf[n] = tf;
			n++;
			*bytes += tf->nblocks * t->block_size;
			if (!*big || tf->nblocks > (*big)->nblocks)
				*big = tf;
		}
	}
	return n;
}

/* Windows and their blocks; 0, or 1 when the trace set does not split (read it with the reader). */
static int plan(struct pd *p)
{
	struct ltt_reader *r = p->r;
	const struct ltt_tracefile_info *big = NULL;
	uint64_t bytes = 0, nwin, ns;

	p->ntf = list_tracefiles(p, &bytes, &big);
	if (!p->ntf)
		return 1;
	if (!(p->tf = calloc(p->ntf, sizeof(*p->tf))))
		return -ENOMEM;
	bytes = 0;
	list_tracefiles(p, &bytes, &big);
	{	/* snapshots read together (their blocks are shared) do not split into ranges */
		struct ltt_range *g;

		if (ltt_range_open(r, big, 0, 0, &g))
			return 1;
		ltt_range_close(g);
	}
	nwin = bytes / WIN_BYTES;
	if (nwin < (uint64_t)WIN_PER_WORKER * p->workers)
		nwin = (uint64_t)WIN_PER_WORKER * p->workers;
	if (nwin > big->nblocks / 2)
		nwin = big->nblocks / 2;
	if (nwin > 4096)
		nwin = 4096;
	if (nwin < 2)
		return 1;
	p->t = calloc(nwin + 1, sizeof(*p->t));
	p->b0 = calloc((nwin + 1) * p->ntf, sizeof(*p->b0));
	if (!p->t || !p->b0)
		return -ENOMEM;
	/* cuts at block_starts of the largest tracefile, increasing */
	p->nwin = 1;
	for (uint64_t i = 1; i < nwin; i++) {
		if (ltt_range_block_time(r, big, i * big->nblocks / nwin, &ns))
			return 1;
		if (ns > p->t[p->nwin - 1])
			p->t[p->nwin++] = ns;
	}
	if (p->nwin < 2)
		return 1;
	for (unsigned f = 0; f < p->ntf; f++) {
		for (unsigned i = 1; i < p->nwin; i++) {
			uint64_t k, *b = &p->b0[(size_t)i * p->ntf + f];

			if (first_at(r, p->tf[f], p->t[i], &k))
				return 1;
			*b = k ? k - 1 : 0;
			if (*b < b[-(ptrdiff_t)p->ntf])	/* block_starts not in order: do not split */
				return 1;
		}
		p->b0[(size_t)p->nwin * p->ntf + f] = p->tf[f]->nblocks;
	}
	return 0;
}

/* ---- the parent ------------------------------------------------------------------------------------------ */

static void pd_free(struct pd *p)
{
	if (p->sh)
		munmap(p->sh, p->sh_size);
	free(p->tf);
	free(p->t);
	free(p->b0);
	free(p->pid);
}

static int setup_shared(struct pd *p)
{
	size_t nw = p->nwin, cells = nw * p->ntf;
	char *m;

	p->sh_size = sizeof(*p->sh) + nw * sizeof(*p->written) + cells * sizeof(*p->exit) + cells;
	m = mmap(NULL, p->sh_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -errno;
	p->sh = (struct pd_shared *)(void *)m;
	p->written = (uint64_t *)(void *)(m + sizeof(*p->sh));
	p->exit = (struct ltt_range_seam *)(void *)(p->written + nw);
	p->exit_ok = (uint8_t *)(p->exit + cells);
	p->sh->fail_at = NONE;
	p->pid = calloc(p->workers, sizeof(*p->pid));
	return p->pid ? 0 : -ENOMEM;
}

/* LTT_PAR_DEBUG set: one line on stderr saying what ran, for the tests (tests/e2e/perf_par_windows.sh):
 * the windows, their cut times, and whether a window fell back to the reader. */
static void debug_line(const struct pd *p, int rc, uint64_t n)
{
	if (!getenv("LTT_PAR_DEBUG"))
		return;
	if (!p->sh) {
		fprintf(stderr, "ltt dump: not split (%d)\n", rc);
		return;
	}
	fprintf(stderr, "ltt dump: %u windows in %u workers (%u done again), cut at", p->nwin, p->workers,
		p->sh->redone);
	for (unsigned i = 1; i < p->nwin; i++)
		fprintf(stderr, " %llu", (unsigned long long)p->t[i]);
	if (p->sh->fail_at != NONE)
		fprintf(stderr, "; window %u fell back, %llu events written before\n", p->sh->fail_at,
			(unsigned long long)n);
	else
		fprintf(stderr, "; %llu events written, result %d\n", (unsigned long long)n, rc);
	if (getenv("LTT_PAR_DEBUG")[0] == '2')
		fprintf(stderr, "ltt dump: the workers waited %.3f s for their turn\n", (double)p->sh->wait_ns / 1e9);
}

int par_dump(struct ltt_reader *r, const struct par_opts *o, uint64_t *nevents)
{
	struct pd p = { .r = r, .o = o, .workers = o->workers };
	int rc, sigpipe = 0, failed = 0;
	unsigned alive = 0;

	*nevents = 0;
	if (p.workers < 2 || p.workers > 16)
		return -EINVAL;
	rc = plan(&p);
	if (!rc)
		rc = setup_shared(&p);
	if (rc) {
		debug_line(&p, rc, 0);
		pd_free(&p);
		return rc < 0 ? rc : 1;
	}
	for (unsigned i = 0; i < p.workers; i++) {
		p.pid[i] = fork();
		if (p.pid[i] == 0)
			worker(&p, i);
		if (p.pid[i] < 0) {
			rc = -errno;
			set_abort(&p);
			break;
		}
		alive++;
	}
	while (alive) {
		int st;
		pid_t pid = waitpid(-1, &st, 0);
		unsigned i;

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < p.workers && p.pid[i] != pid; i++)
			;
		if (i == p.workers)
			continue;
		p.pid[i] = 0;
		alive--;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			continue;
		if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_EPIPE)
			sigpipe = 1;
		else
			failed = 1;
		set_abort(&p);	/* the others stop at their next check; a waiting one is woken */
	}
	for (unsigned w = 0; w < p.nwin; w++)
		*nevents += p.written[w];
	if (sigpipe)
		rc = -EPIPE;
	else if (failed && !rc)
		rc = -EIO;
	else if (!rc && p.sh->fail_at != NONE)
		rc = 1;
	debug_line(&p, rc, *nevents);
	pd_free(&p);
	return rc;
}
