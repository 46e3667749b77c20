/* SPDX-License-Identifier: MIT */
/* recorder/consumer.c: the consumer thread of discard mode: writes each complete block of every ring
 * to its tracefile, in order, never blocking writers; counts blocks that could not be written and
 * announces them with summary blocks (doc/format.md section 7, doc/recorder.md "Faults"). The unused
 * tail of a partly filled block is left as a file hole; the thread sleeps until a writer seals a
 * block (ltt_consumer_kick) or the flush period passes, and then seals the partly filled block of a
 * ring that completed none for that long (doc/recorder.md "Flush"). */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "blocking.h"
#include "recorder.h"
#include "threads.h"

#define POLL_NS		1000000		/* a sealed block waits for a writer's commit: look again after 1 ms */
#define FINAL_WAIT_NS	2000000000ull	/* stop waits this long for writers still committing */
#define BATCH_MAX	16		/* complete blocks written by one pwritev (at most half a ring) */
#define IO_ALIGN	4096		/* O_DIRECT: the scratch block's alignment (ring blocks are pages) */
#define PAGE		4096u		/* a block's unused tail is a hole in whole pages of this size */

struct out {
	int fd;			/* -1: not open yet */
	int open_failed;
	int direct;		/* opened O_DIRECT (cleared at the first write it refuses) */
	uint64_t fblocks;	/* blocks in the file */
	uint32_t lost_blocks;	/* not written since the last block that was */
	uint64_t lost_events;
	uint64_t failed_blocks;	/* blocks that could not be written, in all */
	uint64_t failed_events;
	int err;		/* the last write error */
};

static struct {
	struct ltt_trace_state *t;
	struct out *outs;
	char *scratch;		/* one block: summary and final blocks */
	pthread_t thread;
	int running;
	int stop;		/* ltt_set by ltt_consumer_stop(), read by the thread */
	int warned;
	int final;		/* stopping: writing the final accounting */
	int failed;		/* a block write failed (the disk may be full) */
	int unrecorded;		/* final accountings that could not be written */
	int resv_fd;		/* info/write-losses: the space kept for the final accounting */
	int buffered;		/* LTT_IO=buffered: no O_DIRECT */
	uint32_t tid;		/* the consumer thread's id, once it runs */
	uint64_t flush_ns;	/* seal a partly filled block after this long without a complete one; 0: never */
	struct ltt_losses_said said;	/* drops of the blocks handled, by cause (ltt_consumer_losses) */
	uint64_t *progress;	/* per ring: when it last completed a block (or was flushed), CLOCK_MONOTONIC ns */
	/* Wake-up (doc/recorder.md "Flush"): the thread sets `sleeping`, looks for work once more and
	 * waits on the futex word `wake`; a writer that seals a block reads `sleeping` and, if set,
	 * bumps `wake` and wakes it (ltt_consumer_kick). */
	uint32_t wake;
	uint32_t sleeping;
	/* Rotation (doc/recorder.md "Rotation"): the chunk's directory the files are written in (the
	 * trace's without rotation), the disk it took so far, when it was begun; the next attempt. */
	char dir[PATH_MAX];
	uint64_t chunk_bytes, chunk_ns, try_bytes, try_ns;
	uint64_t *cut;		/* per ring: the first block of the next chunk */
	/* Rotation by size (write_by_time): the data blocks' disk bytes in the chunk, what the chunk
	 * takes besides its tracefiles (measured once, halfway: directories, info/, eventdefs/), and
	 * `full`: the next data block would pass LTT_ROTATE_SIZE, the cut is due where the writing is. */
	uint64_t chunk_data, meta;
	int meta_known, full;
	int rotate_warned;
} C;

uint32_t ltt_consumer_tid(void)
{
	return ltt_read(&C.tid);
}

static void ring_name(unsigned i, char *buf, size_t n)
{
	static const char *const ctl[] = { "facilities", "processes", "interrupts", "persistent" };

	if (i < C.t->ncpu)
		snprintf(buf, n, "cpu/%u", i);
	else if (i >= ltt_region_kbase(C.t->rg))
		snprintf(buf, n, "kernel/%u", i - ltt_region_kbase(C.t->rg));
	else
		snprintf(buf, n, "control/%s", ctl[i - C.t->ncpu]);
}

static void warn_once(unsigned i, int err)
{
	char name[64];

	if (C.warned++)
		return;
	ring_name(i, name, sizeof(name));
	ltt_warn("%s/%s: %s (blocks lost are counted in the trace)", C.dir, name, strerror(err));
}

static int out_open(unsigned i)
{
	struct out *o = &C.outs[i];
	char name[64], p[PATH_MAX + 64];

	if (o->fd >= 0)
		return 0;
	if (o->open_failed)
		return -1;
	ring_name(i, name, sizeof(name));
	if (i >= ltt_region_kbase(C.t->rg)) {
		/* kernel/: made with its first tracefile (a trace without kernel events has none) */
		snprintf(p, sizeof(p), "%s/kernel", C.dir);
		if (mkdir(p, LTT_TRACE_DIR_MODE) && errno != EEXIST) {
			o->open_failed = 1;
			o->err = errno;
			warn_once(i, errno);
			return -1;
		}
	}
	snprintf(p, sizeof(p), "%s/%s", C.dir, name);
	/* O_DIRECT: the blocks go from the ring to the device, not through the page cache. Buffered
	 * writes cost the consumer 0.25 - 0.6 ms of CPU per MiB here (page allocation and copy), time
	 * taken from the traced program's threads on a small machine; direct writes of several blocks
	 * cost 0.06 - 0.09 ms (doc/recorder.md, "Performance"). A file system without it: buffered. */
#ifdef O_DIRECT
	if (!C.buffered) {
		o->fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_DIRECT, LTT_TRACE_FILE_MODE);
		o->direct = o->fd >= 0;
	}
	if (C.buffered || (o->fd < 0 && errno == EINVAL))
#endif
		o->fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, LTT_TRACE_FILE_MODE);
	if (o->fd < 0) {
		o->open_failed = 1;
		o->err = errno;
		warn_once(i, errno);
		return -1;
	}
	o->fblocks = 0;
	return 0;
}

/* An O_DIRECT write refused (EINVAL: an unaligned remainder after a short write, a file system
 * that accepts the flag at open only): the file is written buffered from then on. */
static int direct_off(struct out *o)
{
	int fl;

	if (!o->direct)
		return 0;
	o->direct = 0;
	fl = fcntl(o->fd, F_GETFL);
	return fl >= 0 && fcntl(o->fd, F_SETFL, fl & ~O_DIRECT) == 0;
}

static int pwrite_all(struct out *o, const char *b, size_t n, off_t off)
{
	while (n) {
		ssize_t w = pwrite(o->fd, b, n, off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EINVAL && direct_off(o))
			continue;
		if (w < 0)
			return errno;
		if (w == 0)
			return ENOSPC;
		b += w;
		n -= (size_t)w;
		off += w;
	}
	return 0;
}

/* Bytes of block blk that must reach the file before its hole, or bs when it is written whole: the
 * events up to the end of block_end rounded up to a page, if that leaves at least one page of zeros
 * before the page of the trailer. The zero fill between is left as a hole (doc/format.md section 4). */
static size_t block_head(const char *blk, uint32_t bs)
{
	uint32_t e;
	size_t head;

	e = ltt_get32(blk + ltt_block_trailer_off(bs));
	if (!ltt_block_end_ok(bs, e))
		return bs;	/* cannot happen for a sealed block: written whole */
	head = ((size_t)e + LTT_BLOCK_MARK_SIZE + PAGE - 1) & ~(size_t)(PAGE - 1);
	return head + PAGE < bs ? head : bs;
}

/* Writes block blk at block number `at` of the file: whole, or its used head and its last page (the
 * trailer's) with a hole between. O_DIRECT alignment holds: head and offsets are multiples of 4096,
 * ring blocks and the scratch block are page aligned. */
static int write_block(struct out *o, const char *blk, uint32_t bs, uint64_t at)
{
	size_t head = block_head(blk, bs);
	off_t off = (off_t)(at * bs);
	int err;

	if (head == bs) {
		C.chunk_bytes += bs;
		return pwrite_all(o, blk, bs, off);
	}
	C.chunk_bytes += head + PAGE;
	err = pwrite_all(o, blk, head, off);
	return err ? err : pwrite_all(o, blk + bs - PAGE, PAGE, off + bs - PAGE);
}

/* Writes one block of ring i (events: its non-builtin events and the drops its events_lost records
 * report, ltt_ring_block_events(), for the count if it is lost). */
static void put_block(unsigned i, const char *blk, uint64_t events)
{
	struct out *o = &C.outs[i];
	uint32_t bs = C.t->block_size;
	int err = EIO;

	if (out_open(i)) {
		err = o->err ? o->err : EIO;	/* why it could not be opened */
		goto lost;
	}
	if (o->lost_blocks) {
		ltt_block_summary(C.scratch, bs, blk, o->lost_blocks, o->lost_events);
		err = write_block(o, C.scratch, bs, o->fblocks);
		if (err) {
			warn_once(i, err);
			goto lost;
		}
		o->fblocks++;
		o->lost_blocks = 0;
		o->lost_events = 0;
	}
	err = write_block(o, blk, bs, o->fblocks);
	if (err) {
		warn_once(i, err);
		goto lost;
	}
	o->fblocks++;
	return;
lost:
	/* A failed or short write may have left part of a block at the end of the file: cut it back
	 * to the last whole block, so the file stays a sequence of blocks (a later block or summary
	 * goes right after it). */
	C.failed = 1;
	o->failed_blocks++;
	o->failed_events += events;
	o->err = err;
	if (o->fd >= 0 && ftruncate(o->fd, (off_t)(o->fblocks * bs))) {
		/* nothing more to do: a reader ignores a trailing partial block */
	}
	o->lost_blocks++;
	o->lost_events += events;
}

/* Full disk (doc/recorder.md "Full disk"). The tracefiles of a new trace or chunk are opened at once
 * (control/facilities, processes and interrupts always exist, doc/format.md section 1; cpu/N that get
 * no block are removed at close), so a full disk cannot keep one from existing; and the space of
 * their final accounting is kept in info/write-losses (empty, its blocks allocated beyond its
 * size): per tracefile a summary block and an events_lost block, each written sparse as two pages,
 * and one page for the file's own lines. At stop, if a write failed, that space is freed just before
 * the accounting is written (release_space), and the file says what was lost while writing (and
 * whether an accounting could not be written even then): `ltt check` reports it. Otherwise it is
 * removed. */
/* Makes dir/info/write-losses with the accounting's space kept: its descriptor, or -errno (ENOSPC:
 * the disk is full; a file system without fallocate keeps nothing and is not an error). */
static int make_reserve(const char *dir)
{
	char p[PATH_MAX + 32];
	unsigned n = C.t->rg->nrings;
	int fd;

	snprintf(p, sizeof(p), "%s/info/write-losses", dir);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, LTT_TRACE_FILE_MODE);
	if (fd < 0)
		return -errno;
	if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)(4 * n + 1) * PAGE) && errno != EOPNOTSUPP &&
	    errno != ENOSYS) {
		int e = -errno;

		close(fd);
		unlink(p);
		return e;
	}
	return fd;
}

/* resv: the chunk's reserve made beforehand (rotation), or -1 to make it here (best effort: a trace
 * begun on a full disk records anyway). */
static void open_all(int resv)
{
	for (unsigned i = 0; i < C.t->ncpu + LTT_RING_PERSISTENT; i++)
		out_open(i);
	C.resv_fd = resv >= 0 ? resv : make_reserve(C.dir);
}

/* Frees the space kept for the accounting (its first page stays, for the message), and makes the
 * file system take it back now (ext4 releases freed blocks when its journal commits). */
static void release_space(void)
{
	unsigned n = C.t->rg->nrings;

	if (C.resv_fd < 0)
		return;
	if (fallocate(C.resv_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, PAGE, (off_t)(4 * n) * PAGE) == 0 &&
	    fsync(C.resv_fd)) {
		/* nothing more to try */
	}
}

/* info/write-losses (doc/format.md section 1): one line per tracefile that lost blocks while
 * writing, and whether the final accounting could not be written; into the first page kept for it.
 * Returns 0 or -1. */
static int write_losses(void)
{
	char buf[PAGE], name[64];
	size_t n = 0;

	for (unsigned i = 0; i < C.t->rg->nrings; i++) {
		struct out *o = &C.outs[i];

		if (!o->failed_blocks || n >= sizeof(buf) - 160)
			continue;
		ring_name(i, name, sizeof(name));
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s: %llu blocks (%llu events) could not be "
				      "written: %s; counted in blocks_lost records\n", name,
				      (unsigned long long)o->failed_blocks, (unsigned long long)o->failed_events,
				      strerror(o->err));
	}
	if (C.unrecorded && n < sizeof(buf) - 160)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "losses not recorded: the last events_lost/"
				      "blocks_lost records of %d tracefiles could not be written (the disk was "
				      "full)\n", C.unrecorded);
	return C.resv_fd >= 0 && pwrite(C.resv_fd, buf, n, 0) == (ssize_t)n ? 0 : -1;
}

/* Closes the tracefiles: each cut to its whole blocks (a failed write's leftovers and the space kept
 * beyond the end go), cpu/N without blocks removed. info/write-losses is removed, or says what
 * could not be written (write_losses). */
static void close_all(void)
{
	uint32_t bs = C.t->block_size;
	char p[PATH_MAX + 64], name[64];

	for (unsigned i = 0; i < C.t->rg->nrings; i++) {
		struct out *o = &C.outs[i];

		if (o->fd < 0)
			continue;
		if (ftruncate(o->fd, (off_t)(o->fblocks * bs))) {
			/* a reader ignores a trailing partial block */
		}
		if (close(o->fd) && !C.warned++)
			ltt_warn("%s: %s", C.dir, strerror(errno));
		o->fd = -1;
		ring_name(i, name, sizeof(name));
		snprintf(p, sizeof(p), "%s/%s", C.dir, name);
		if (!o->fblocks && i < C.t->ncpu)
			unlink(p);
	}
	snprintf(p, sizeof(p), "%s/info/write-losses", C.dir);
	if (C.failed && write_losses())
		ltt_warn("%s: blocks lost while writing, and info/write-losses cannot say so (the disk is "
			 "full)", C.dir);
	if (!C.failed)
		unlink(p);
	if (C.resv_fd >= 0)
		close(C.resv_fd);
	C.resv_fd = -1;
}

/* Writes the run of k complete blocks of ring i from seq on: consecutive whole blocks with one
 * pwritev, a partly filled block as its head and trailer page (the common case: no blocks lost
 * before them, the file open). Returns how many blocks reached the file, from the first; the caller
 * writes the others one by one (put_block: errors, summaries). */
static unsigned put_run(unsigned i, struct ltt_ring *r, uint64_t seq, unsigned k)
{
	struct out *o = &C.outs[i];
	uint32_t bs = C.t->block_size;
	struct iovec iov[BATCH_MAX];
	unsigned done = 0, j, n;
	ssize_t w;

	if (o->fd < 0 || o->lost_blocks)
		return 0;
	while (done < k) {
		const char *blk = ltt_ring_block(r, seq + done);

		if (block_head(blk, bs) < bs) {
			if (write_block(o, blk, bs, o->fblocks))
				return done;	/* put_block writes it again, or counts it lost */
			o->fblocks++;
			done++;
			continue;
		}
		for (n = 0, j = done; j < k && block_head(ltt_ring_block(r, seq + j), bs) == bs; j++, n++)
			iov[n] = (struct iovec){ ltt_ring_block(r, seq + j), bs };
		do
			w = pwritev(o->fd, iov, (int)n, (off_t)(o->fblocks * bs));
		while (w < 0 && errno == EINTR);
		j = w > 0 ? (unsigned)((size_t)w / bs) : 0;	/* a partial block is written again */
		o->fblocks += j;
		C.chunk_bytes += (uint64_t)j * bs;
		done += j;
		if (j < n)
			return done;
	}
	return done;
}

/* Writes the complete blocks of ring i. until == 0: those complete now (a ring's worth at most).
 * Otherwise every block before `until` (the ring closed, or cut for a rotation), waiting for blocks
 * still being committed until deadline, then counting them lost; none from `until` on. Returns the
 * number of blocks handled. */
static unsigned drain(unsigned i, uint64_t until, uint64_t deadline)
{
	struct ltt_ring *r = &C.t->rg->rings[i];
	unsigned n = 0, max = r->slot_mask + 1 < 2 * BATCH_MAX ? (r->slot_mask + 1) / 2 : BATCH_MAX;

	for (;;) {
		uint64_t seq = ltt_read(&r->consumed);
		unsigned k = 0, done;

		/* At most a ring's worth per pass while recording: a ring that writers keep filling
		 * must not starve the others (the control rings' sealed blocks, doc/recorder.md) */
		if (!until && n > r->slot_mask)
			return n;
		if (until && seq >= until)
			return n;

		/* A run of complete blocks (B2 for each), written at once. */
		while (k < max && (!until || seq + k < until) && ltt_ring_block_complete(r, seq + k))
			k++;
		for (unsigned j = 0; j < k; j++)
			ltt_block_drops(ltt_ring_block(r, seq + j), C.t->block_size, C.said.lost);
		if (k > 1) {
			done = put_run(i, r, seq, k);
			for (unsigned j = done; j < k; j++)
				put_block(i, ltt_ring_block(r, seq + j), ltt_ring_block_events(r, seq + j));
			/* Full barrier (B3): done reading the slots before releasing them; pairs with B5. */
			ltt_smp_mb();
			ltt_set(&r->consumed, seq + k);
			ltt_ring_wake(r);	/* blocking mode's writers (W1) */
			n += k;
			continue;
		}
		if (!k) {
			if (!until)
				return n;
			if (ltt_mono_ns() < deadline) {
				nanosleep(&(struct timespec){ 0, 100000 }, NULL);
				continue;
			}
			/* A writer never committed: the block cannot be written. Its count
			 * includes the drops its opener reported in it (added to the commit word
			 * right after the records, before the opener's own commit). */
			C.outs[i].lost_blocks++;
			C.outs[i].lost_events += ltt_ring_block_events(r, seq);
			C.said.unwritten += ltt_ring_block_events(r, seq);
		} else {
			put_block(i, ltt_ring_block(r, seq), ltt_ring_block_events(r, seq));
		}
		/* Full barrier (B3): done reading the slot before releasing it; pairs with B5. */
		ltt_smp_mb();
		ltt_set(&r->consumed, seq + 1);
		ltt_ring_wake(r);	/* blocking mode's writers (W1) */
		n++;
	}
}

/* ---- rotation by size: the data rings written in time order (doc/recorder.md "Rotation") ---------- */

/* A CPU or kernel ring (not a control ring). */
static int is_data_ring(unsigned i)
{
	return i < C.t->ncpu || i >= ltt_region_kbase(C.t->rg);
}

/* The cycle count of a complete block's block_start (doc/format.md section 4). */
static uint64_t block_start_cycles(const char *blk)
{
	uint64_t c;

	memcpy(&c, blk + 14, 8);
	return c;
}

/* Bytes block blk takes on disk (write_block: whole, or its head and trailer page). */
static uint64_t block_disk(const char *blk, uint32_t bs)
{
	size_t h = block_head(blk, bs);

	return h == bs ? bs : h + PAGE;
}

/* What the chunk takes on disk besides its tracefiles' blocks and the space kept for its final
 * accounting (removed at close): its directories, info/system.xml, eventdefs/. */
static void measure_meta(void)
{
	uint64_t files = 0, du = ltt_chunk_du(C.dir);
	struct stat st;

	for (unsigned i = 0; i < C.t->rg->nrings; i++)
		if (C.outs[i].fd >= 0 && !fstat(C.outs[i].fd, &st))
			files += (uint64_t)st.st_blocks * 512u;
	if (C.resv_fd >= 0 && !fstat(C.resv_fd, &st))
		files += (uint64_t)st.st_blocks * 512u;
	C.meta = du > files ? du - files : 0;
	C.meta_known = 1;
}

/* Whether b more bytes of data blocks keep the chunk within LTT_ROTATE_SIZE (from the last attempt:
 * a rotation that failed lets the chunk grow by another LTT_ROTATE_SIZE). The first data block of a
 * chunk always goes in, so that a block larger than the size still moves on. */
static int chunk_fits(uint64_t b, int first)
{
	uint64_t limit = C.try_bytes + C.t->rotate_size;

	if (first && !C.chunk_data)
		return 1;
	if (!C.meta_known && C.chunk_bytes + b > limit / 2)
		measure_meta();
	return C.chunk_bytes + b + C.meta <= limit;
}

/* Writes the complete blocks of the data rings in the order of their times: each time, the ring
 * whose next block starts first, its run of blocks that start before any other ring's next one (up
 * to a batch). Stops when the next block would pass LTT_ROTATE_SIZE (C.full: the cut is then at every
 * ring's next block to write, a time every CPU's stream agrees on within a block), or after a ring's
 * worth per ring (the control rings and the loop's checks come in between). Returns the blocks
 * written; C.progress of each ring written is now. */
static unsigned write_by_time(uint64_t now)
{
	struct ltt_region *rg = C.t->rg;
	uint32_t bs = C.t->block_size;
	unsigned n = 0, limit = 0, max = (rg->blocks < 2 * BATCH_MAX ? rg->blocks / 2 : BATCH_MAX);

	for (unsigned i = 0; i < rg->nrings; i++)
		if (is_data_ring(i))
			limit += rg->blocks;
	while (n < limit && !C.full) {
		uint64_t bt = 0, next = 0, seq, b = 0;
		int best = -1, second = 0;
		struct ltt_ring *r;
		unsigned k = 0, done;

		for (unsigned i = 0; i < rg->nrings; i++) {
			struct ltt_ring *q = &rg->rings[i];
			uint64_t s = ltt_read(&q->consumed), t;

			if (!is_data_ring(i) || s >= ltt_ring_head_seq(q) || !ltt_ring_block_complete(q, s))
				continue;
			t = block_start_cycles(ltt_ring_block(q, s));	/* complete: B2 above */
			if (best < 0 || (int64_t)(t - bt) < 0) {
				if (best >= 0 && (!second || (int64_t)(bt - next) < 0))
					next = bt, second = 1;
				best = (int)i;
				bt = t;
			} else if (!second || (int64_t)(t - next) < 0) {
				next = t;
				second = 1;
			}
		}
		if (best < 0)
			break;
		r = &rg->rings[best];
		seq = ltt_read(&r->consumed);
		while (k < max && seq + k < ltt_ring_head_seq(r) && ltt_ring_block_complete(r, seq + k)) {
			const char *blk = ltt_ring_block(r, seq + k);
			uint64_t d = block_disk(blk, bs);

			if (k && second && (int64_t)(block_start_cycles(blk) - next) > 0)
				break;	/* another ring's block comes first */
			if (!chunk_fits(b + d, !k)) {
				C.full = 1;
				break;
			}
			b += d;
			k++;
		}
		if (!k)
			break;
		done = put_run((unsigned)best, r, seq, k);
		for (unsigned j = done; j < k; j++)
			put_block((unsigned)best, ltt_ring_block(r, seq + j), ltt_ring_block_events(r, seq + j));
		C.chunk_data += b;
		/* Full barrier (B3): done reading the slots before releasing them; pairs with B5. */
		ltt_smp_mb();
		ltt_set(&r->consumed, seq + k);
		ltt_ring_wake(r);	/* blocking mode's writers (W1) */
		C.progress[best] = now;
		n += k;
	}
	return n;
}

static int ring_is_written(unsigned i)
{
	/* flight mode: no I/O while recording; control rings stay in memory for every snapshot */
	(void)i;
	return C.t->mode != LTT_MODE_FLIGHT;
}

/* Flush (doc/recorder.md): seals the partly filled block of ring i when the ring has completed no
 * block for flush_ns and everything before that block is written, so a quiet program's events reach
 * the disk. The seal is the ring's own protocol (ltt_ring_flush: one CAS on write_off, block_end,
 * commit), as at stop or for a control ring; writers pay nothing for it. */
static void flush_quiet(unsigned i, uint64_t now)
{
	struct ltt_ring *r = &C.t->rg->rings[i];
	uint64_t off, pos;

	if (!C.flush_ns || now - C.progress[i] < C.flush_ns)
		return;
	C.progress[i] = now;
	off = ltt_read(&r->write_off) & ~LTT_RING_CLOSED;
	pos = off & (r->block_size - 1);
	/* something beyond block_start, and no older block still waiting for the consumer */
	if (pos > LTT_BLOCK_MARK_SIZE && off >> r->shift == ltt_read(&r->consumed))
		ltt_ring_flush(r, 0);	/* B6: pairs with the writers' CAS on write_off */
}

/* What the consumer may do now: 2 a complete block waits, 1 a sealed block waits for a writer's
 * commit, 0 nothing. */
static int pending(void)
{
	int any = 0;

	for (unsigned i = 0; i < C.t->rg->nrings; i++) {
		struct ltt_ring *r = &C.t->rg->rings[i];
		uint64_t seq = ltt_read(&r->consumed);

		if (!ring_is_written(i) || seq >= ltt_ring_head_seq(r))
			continue;
		if (ltt_ring_block_complete(r, seq))
			return 2;
		any = 1;
	}
	return any;
}

static void wait_for_work(uint64_t ns)
{
	uint32_t seen = ltt_read(&C.wake);
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	int p;

	ltt_set(&C.sleeping, 1);
	/* Full barrier: `sleeping` is stored before the commit words are read again; pairs with the
	 * sealer's full barrier (its commit add) before it reads `sleeping` in ltt_consumer_kick(). Either
	 * we see its block complete, or it sees us sleeping and wakes us. */
	ltt_smp_mb();
	p = pending();
	if (p == 2 || ltt_read(&C.stop)) {
		ltt_set(&C.sleeping, 0);
		return;
	}
	if (p == 1)	/* sealed, a writer still inside an event: it commits within microseconds */
		ts = (struct timespec){ 0, POLL_NS };
	syscall(SYS_futex, &C.wake, FUTEX_WAIT_PRIVATE, seen, ns || p ? &ts : NULL, NULL, 0);
	ltt_set(&C.sleeping, 0);
}

void ltt_consumer_kick(void)
{
	int e;

	/* Read after the caller's commit of the sealed block (a full barrier); see wait_for_work(). */
	if (!ltt_read(&C.sleeping))
		return;
	e = errno;	/* the event path never changes errno */
	ltt_add(&C.wake, 1);
	syscall(SYS_futex, &C.wake, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	errno = e;
}

/* How long the thread may sleep: until the next flush_quiet() or rotation is due (0: until woken). */
static uint64_t next_flush(uint64_t now)
{
	uint64_t t = 0;

	for (unsigned i = 0; C.flush_ns && i < C.t->rg->nrings; i++) {
		uint64_t due = C.progress[i] + C.flush_ns, d = due > now ? due - now : 0;

		if (ring_is_written(i) && (!t || d < t))
			t = d;
	}
	if (C.t->chunk && C.t->rotate_seconds) {
		uint64_t due = C.try_ns + C.t->rotate_seconds * 1000000000ull, d = due > now ? due - now : 0;

		if (!t || d < t)
			t = d;
	}
	return t || C.flush_ns ? (t < POLL_NS ? POLL_NS : t) : 0;
}

/* ---- rotation (doc/recorder.md "Rotation") -------------------------------------------------------- */

static int rotation_due(uint64_t now)
{
	if (!C.t->chunk)
		return 0;
	return (C.t->rotate_size && C.full) ||
	       (C.t->rotate_seconds && now - C.try_ns >= C.t->rotate_seconds * 1000000000ull);
}

/* Closes the files of the chunk being written (their pending lost-block counts go on to the next
 * chunk's files, in its first summary block) and renames it chunk-NNNN. */
static void chunk_close(void)
{
	int rc;

	close_all();
	/* what info/write-losses says is per chunk; blocks still to be announced by a summary block
	 * (lost_blocks) go on to the next chunk's files */
	C.failed = 0;
	for (unsigned i = 0; i < C.t->rg->nrings; i++) {
		C.outs[i].open_failed = 0;
		C.outs[i].fblocks = 0;
		C.outs[i].failed_blocks = C.outs[i].failed_events = 0;
	}
	rc = ltt_chunk_seal(C.t, C.t->chunk);
	if (rc && !C.rotate_warned++)
		ltt_warn("%s: cannot rename to chunk-%04u: %s", C.dir, C.t->chunk, strerror(-rc));
}

/* Seals chunk N and begins chunk N + 1 so that each decodes alone and every event is in exactly one:
 *  1. make chunk-(N+1).part (directories, info/system.xml);
 *  2. cut every CPU ring (ltt_ring_cut: seal its open block; blocks before the cut go to chunk N);
 *  3. under the registry lock: eventdefs/ of later registrations go to the new chunk, cut
 *     control/facilities, write every facility's facility_load and XML after the cut (so a facility
 *     whose events are in chunk N has its load there: CPU rings are cut first);
 *  4. cut control/processes and control/interrupts and record the threads alive and the interrupts
 *     after the cut; cut control/persistent;
 *  5. write every block before the cuts to chunk N (waiting for writers still inside an event, as at
 *     stop), close its files, rename it chunk-NNNN;
 *  6. write the new chunk's first control blocks, rename it from .chunk-NNNN.new to chunk-NNNN.part;
 *     remove the oldest chunks beyond LTT_MAX_SIZE.
 * The start/stop lock is held (trylock: a stop in progress postpones the rotation), so the trace
 * cannot stop between the cuts and the new chunk's control data. */
static int rotate(uint64_t now)
{
	struct ltt_region *rg = C.t->rg;
	unsigned ncpu = C.t->ncpu, n = C.t->chunk + 1;
	char ndir[PATH_MAX];
	uint64_t deadline = now + FINAL_WAIT_NS, last;
	int rc, resv = -1, by_size = C.full;

	if (ltt_control_trylock())
		return -EBUSY;	/* a start, stop or fork holds it: the next pass tries again */
	C.full = 0;
	C.try_bytes = C.chunk_bytes;
	C.try_ns = now;
	rc = ltt_chunk_make(C.t, n, ndir, sizeof(ndir));
	/* a chunk without the space of its final accounting is not begun either */
	if (!rc && (resv = make_reserve(ndir)) < 0) {
		rc = resv;
		ltt_tracedir_remove(ndir);
	}
	if (rc) {
		/* a full disk, a removed directory: go on in this chunk, try again after the next period */
		if (!C.rotate_warned++)
			ltt_warn("%s/chunk-%04u.part: %s (recording goes on in chunk-%04u)", C.t->path, n,
				 strerror(-rc), n - 1);
		ltt_control_unlock();
		return 0;
	}
	/* By size: the data rings are cut where the writing is (write_by_time stopped at the block that
	 * would pass the size, in time order), whatever the rings hold beyond it: every chunk within a
	 * block of LTT_ROTATE_SIZE however far behind the consumer is. By time: at the present. */
	for (unsigned i = 0; i < rg->nrings; i++)
		if (is_data_ring(i))
			/* kernel rings: a late ring's cut seals at its last event; what the drain thread
			 * adds after it (older than now, newer than that event) goes to the new chunk */
			C.cut[i] = by_size ? ltt_read(&rg->rings[i].consumed) : ltt_ring_cut(&rg->rings[i]);
	ltt_registry_lock();
	snprintf(C.t->dir, sizeof(C.t->dir), "%s", ndir);
	C.cut[ncpu + LTT_RING_FACILITIES] = ltt_ring_cut(&rg->rings[ncpu + LTT_RING_FACILITIES]);
	ltt_facilities_emit_locked();
	ltt_registry_unlock();
	C.cut[ncpu + LTT_RING_PROCESSES] = ltt_ring_cut(&rg->rings[ncpu + LTT_RING_PROCESSES]);
	ltt_core_emit_processes();
	C.cut[ncpu + LTT_RING_INTERRUPTS] = ltt_ring_cut(&rg->rings[ncpu + LTT_RING_INTERRUPTS]);
	ltt_core_emit_interrupts();
	C.cut[ncpu + LTT_RING_PERSISTENT] = ltt_ring_cut(&rg->rings[ncpu + LTT_RING_PERSISTENT]);
	/* the new chunk's control data on disk at once, as at start (doc/recorder.md) */
	for (unsigned w = LTT_RING_FACILITIES; w <= LTT_RING_INTERRUPTS; w++)
		ltt_ring_flush(&rg->rings[ncpu + w], 0);
	for (unsigned k = 0; k < rg->nrings; k++) {
		unsigned i = (k + ncpu) % rg->nrings;

		/* (a data ring cut by size has nothing before its cut left to write; and drain()'s
		 * until = 0, a ring never written, would mean "what is complete now") */
		if (!by_size || !is_data_ring(i))
			drain(i, C.cut[i], deadline);
	}
	chunk_close();
	last = C.chunk_bytes;
	C.t->chunk = n;
	snprintf(C.dir, sizeof(C.dir), "%s", ndir);
	C.chunk_bytes = C.try_bytes = C.chunk_data = C.meta = 0;
	C.meta_known = 0;
	C.chunk_ns = now;
	/* control/facilities, processes and interrupts always exist (doc/format.md section 1), and
	 * hold the new chunk's first blocks before readers can see it as chunk-NNNN.part: a kill at
	 * any point leaves sealed chunks, at most one .part, and both decode */
	open_all(resv);
	for (unsigned i = ncpu; i < ncpu + LTT_RING_PERSISTENT; i++)
		drain(i, ltt_ring_head_seq(&rg->rings[i]), deadline);
	ltt_registry_lock();
	rc = ltt_chunk_publish(C.t, n, C.dir, sizeof(C.dir));
	snprintf(C.t->dir, sizeof(C.t->dir), "%s", C.dir);
	ltt_registry_unlock();
	if (rc && !C.rotate_warned++)
		ltt_warn("%s: cannot rename to chunk-%04u.part: %s", C.dir, n, strerror(-rc));
	/* room for the chunk now begun: a full one by size, else one like the last */
	ltt_chunks_bound(C.t, C.t->rotate_size ? C.t->rotate_size : last, 1);
	ltt_control_unlock();
	return 0;
}

static void *consumer_main(void *arg)
{
	sigset_t all;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	prctl(PR_SET_NAME, "ltt-consumer");
	/* Release: pairs with the acquire load of ltt_consumer_start(), which waits for it. */
	ltt_set(&C.tid, (uint32_t)syscall(SYS_gettid));
	while (!ltt_read(&C.stop)) {
		unsigned work = 0;
		uint64_t now = ltt_mono_ns();
		/* rotation by size: the data rings in time order, so the cut can be where the writing is */
		int by_time = C.t->chunk && C.t->rotate_size;

		/* control rings first (rare, small, needed to decode everything else), then the CPUs */
		for (unsigned k = 0; k < C.t->rg->nrings; k++) {
			unsigned i = (k + C.t->ncpu) % C.t->rg->nrings, n;

			if (!ring_is_written(i) || (by_time && is_data_ring(i)))
				continue;
			n = drain(i, 0, 0);
			if (n)
				C.progress[i] = now;
			else
				flush_quiet(i, now);
			work += n;
		}
		if (by_time) {
			work += write_by_time(now);
			for (unsigned i = 0; i < C.t->rg->nrings; i++)
				if (is_data_ring(i) && C.progress[i] != now)
					flush_quiet(i, now);
		}
		if (rotation_due(now) && !rotate(now))
			continue;
		if (!work)	/* a rotation put off (the lock was taken): look again in 1 ms */
			wait_for_work(rotation_due(now) ? POLL_NS : next_flush(now));
	}
	return NULL;
}

/* A start that could not open every tracefile, keep the space of the final accounting (a disk nearly
 * full: info/write-losses cannot be made, and everything recorded would be lost without a record),
 * or that leaves no descriptor for eventdefs/ (its facilities' files, written next: without them the
 * trace cannot be decoded) is refused with one line: the program runs untraced. A positive errno. */
static int start_refused(char *why, size_t whylen)
{
	int probe[2] = { -1, -1 }, e = 0;

	for (unsigned i = 0; i < C.t->ncpu + LTT_RING_PERSISTENT && !e; i++)
		if (C.outs[i].fd < 0)
			e = C.outs[i].err ? C.outs[i].err : EIO;
	if (!e && C.resv_fd < 0)
		e = -C.resv_fd;
	if (e) {
		snprintf(why, whylen, "%s: %s: cannot keep the space to account for losses "
			 "(info/write-losses) or open every tracefile", C.dir, strerror(e));
		return e;
	}
	/* two spare descriptors: an eventdefs/ file and the one write_new() compares it with */
	probe[0] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	probe[1] = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (probe[0] < 0 || probe[1] < 0)
		e = errno;
	for (int k = 0; k < 2; k++)
		if (probe[k] >= 0)
			close(probe[k]);
	if (e)
		snprintf(why, whylen, "%s: %s: no descriptor left for eventdefs/ (the trace could not be "
			 "decoded)", C.dir, strerror(e));
	return e;
}

int ltt_consumer_start(struct ltt_trace_state *t, char *why, size_t whylen)
{
	unsigned n = t->rg->nrings;
	int rc;

	const char *io = secure_getenv("LTT_IO");

	memset(&C, 0, sizeof(C));
	C.resv_fd = -1;
	C.t = t;
	C.buffered = io && !strcmp(io, "buffered");
	C.flush_ns = t->flush_ms < 0 ? 0 : (uint64_t)(t->flush_ms ? t->flush_ms : LTT_DEFAULT_FLUSH_MS) * 1000000u;
	snprintf(C.dir, sizeof(C.dir), "%s", t->dir);
	C.chunk_ns = C.try_ns = ltt_mono_ns();
	C.outs = calloc(n, sizeof(*C.outs));
	C.cut = calloc(n, sizeof(*C.cut));
	C.progress = calloc(n, sizeof(*C.progress));
	C.scratch = aligned_alloc(IO_ALIGN, t->block_size);	/* block_size: a multiple of 4096 */
	if (!C.outs || !C.scratch || !C.progress || !C.cut) {
		free(C.outs);
		free(C.cut);
		free(C.progress);
		free(C.scratch);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < n; i++)
		C.progress[i] = ltt_mono_ns();
	for (unsigned i = 0; i < n; i++)
		C.outs[i].fd = -1;
	C.warned = 1;	/* a tracefile that cannot be opened at start refuses it: said once, below */
	open_all(-1);
	C.warned = 0;
	rc = start_refused(why, whylen);
	if (!rc)
		rc = ltt_real_pthread_create(&C.thread, NULL, consumer_main, NULL);
	if (rc) {
		for (unsigned i = 0; i < n; i++)
			if (C.outs[i].fd >= 0)
				close(C.outs[i].fd);
		if (C.resv_fd >= 0)
			close(C.resv_fd);	/* the failed start removes the directory */
		free(C.outs);
		free(C.cut);
		free(C.progress);
		free(C.scratch);
		return -rc;
	}
	C.running = 1;
	/* Wait (1 s at most) until the thread runs, so that the process list can leave it out. */
	for (int i = 0; i < 10000 && !ltt_read(&C.tid); i++)
		nanosleep(&(struct timespec){ 0, 100000 }, NULL);
	return 0;
}

void ltt_consumer_losses(struct ltt_losses_said *out)
{
	*out = C.said;
}

void ltt_consumer_stop(void)
{
	uint64_t deadline = ltt_mono_ns() + FINAL_WAIT_NS;

	if (!C.running)
		return;
	ltt_set(&C.stop, 1);
	ltt_add(&C.wake, 1);	/* full barrier: stop is stored before the wake-up */
	syscall(SYS_futex, &C.wake, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	pthread_join(C.thread, NULL);
	C.running = 0;
	for (unsigned i = 0; i < C.t->rg->nrings; i++)
		if (ring_is_written(i))
			drain(i, ltt_ring_head_seq(&C.t->rg->rings[i]), deadline);
	/* The final accounting, into the space kept for it (see open_all) */
	C.final = 1;
	if (C.failed)
		release_space();
	for (unsigned i = 0; i < C.t->rg->nrings; i++) {
		struct ltt_ring *r = &C.t->rg->rings[i];
		struct out *o = &C.outs[i];
		int lost = 0;

		if (!ring_is_written(i))
			continue;
		for (unsigned c = 0; c < LTT_LOST_CAUSE_COUNT; c++)
			lost |= ltt_read(&r->lost[c]) != 0;
		/* Pending lost counts go in one last block (doc/format.md section 7); it also carries
		 * the summary of blocks that could not be written before it. */
		if (lost || o->lost_blocks) {
			ltt_block_lost_only(C.scratch, r, ltt_clock_now(), (uint32_t)ltt_ring_head_seq(r));
			ltt_block_drops(C.scratch, C.t->block_size, C.said.lost);
			memcpy(ltt_ring_block(r, ltt_ring_head_seq(r)), C.scratch, C.t->block_size);
			put_block(i, ltt_ring_block(r, ltt_ring_head_seq(r)), 0);
			if (o->lost_blocks)
				C.unrecorded++;	/* not even that could be written */
		}
	}
	for (unsigned i = 0; i < C.t->rg->nrings; i++)
		C.said.failed += C.outs[i].failed_events;
	if (C.t->chunk)
		chunk_close();	/* the last chunk is sealed like the others (close_all included) */
	else
		close_all();
	if (C.t->chunk)
		ltt_chunks_bound(C.t, 0, 1);	/* the last chunk counted too */
	free(C.outs);
	free(C.cut);
	free(C.progress);
	free(C.scratch);
	C.outs = NULL;
	C.progress = NULL;
	C.scratch = NULL;
}
