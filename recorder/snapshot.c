/* SPDX-License-Identifier: MIT */
/* recorder/snapshot.c: writes the retained history of the rings as a complete trace directory
 * TRACE/snapshot-NNNN (doc/flight-recorder.md). Async-signal-safe throughout, so that the same code
 * serves ltt_snapshot(), the snapshot signal and the fatal-signal handler: only open/openat/mkdirat/
 * write/read/close/renameat/getdents64/clock_gettime/nanosleep, the ring's lock-free operations, and
 * text preformatted at start.
 *
 * CPU rings: the snapshot holds the ring (openers drop instead of overwriting, F1), seals the open
 * block, then copies the retained blocks oldest first, releasing each as soon as it is written, so
 * writers lose at most what they would overwrite during the copy of the oldest block.
 * Control rings never overwrite: their open block is copied up to the last committed event and closed
 * in the copy (block_end + trailer), without sealing the live block.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>	/* rename */
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/io.h"
#include "flight.h"
#include "func_internal.h"
#include "kernel.h"

#define SLEEP_NS	50000	/* between polls of a block still being committed */

/* ---- text without stdio ---------------------------------------------------------------------------- */

struct sbuf {
	char *p;
	size_t len, cap;
	int over;
};

static void sb_str(struct sbuf *b, const char *s)
{
	for (; *s; s++) {
		if (b->len + 1 >= b->cap) {
			b->over = 1;
			break;
		}
		b->p[b->len++] = *s;
	}
	b->p[b->len] = 0;
}

static void sb_u64(struct sbuf *b, uint64_t v, unsigned min_digits)
{
	char d[24];
	unsigned n = 0;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v || n < min_digits);
	while (n) {
		char c[2] = { d[--n], 0 };

		sb_str(b, c);
	}
}

/* The cycle count now, read after every load before it (lfence): block_end and summary anchors are
 * not older than the events read before them, even from writers on other CPUs. */
static uint64_t cycles_after_loads(void)
{
#if defined(__x86_64__)
	__builtin_ia32_lfence();
#endif
	return ltt_clock_now();
}

static void pause_briefly(void)
{
	struct timespec ts = { 0, SLEEP_NS };

	nanosleep(&ts, NULL);
}

/* ---- one output tracefile -------------------------------------------------------------------------- */

struct out {
	int dfd;		/* the snapshot directory */
	const char *name;	/* relative path */
	int fd;			/* -1 until the first block */
	int err;
};

#define HOLE_MIN 4096	/* zero fill at least this long becomes a file hole (doc/format.md s. 4) */

static void out_block(struct out *o, const char *blk, uint32_t bs)
{
	uint32_t e;

	if (o->err)
		return;
	if (o->fd < 0) {
		o->fd = openat(o->dfd, o->name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, LTT_TRACE_FILE_MODE);
		if (o->fd < 0) {
			o->err = -errno;
			return;
		}
	}
	e = ltt_get32(blk + ltt_block_trailer_off(bs));
	if (ltt_block_end_ok(bs, e) && ltt_block_fill(bs, e) >= HOLE_MIN) {
		/* events and block_end, a hole for the zero fill the recorder wrote, the trailer */
		o->err = ltt_write_all(o->fd, blk, e + LTT_BLOCK_MARK_SIZE);
		if (!o->err && lseek(o->fd, (off_t)ltt_block_fill(bs, e), SEEK_CUR) < 0)
			o->err = -errno;
		if (!o->err)
			o->err = ltt_write_all(o->fd, blk + ltt_block_trailer_off(bs), LTT_FMT_TRAILER);
		return;
	}
	o->err = ltt_write_all(o->fd, blk, bs);
}

/* Creates the file even when no block goes into it (control files always exist). */
static void out_touch(struct out *o)
{
	if (o->fd < 0 && !o->err) {
		o->fd = openat(o->dfd, o->name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, LTT_TRACE_FILE_MODE);
		if (o->fd < 0)
			o->err = -errno;
	}
}

static int out_close(struct out *o)
{
	if (o->fd >= 0 && close(o->fd) && !o->err)
		o->err = -errno;
	o->fd = -1;
	return o->err;
}

/* ---- blocks ---------------------------------------------------------------------------------------- */

/* Waits until block seq of r is complete or the deadline passes; 1 if complete (B2: then readable). */
static int wait_complete(const struct ltt_ring *r, uint64_t seq, uint64_t deadline)
{
	while (!ltt_ring_block_complete(r, seq)) {
		if (ltt_mono_ns() >= deadline)
			return 0;
		pause_briefly();
	}
	return 1;
}

/* Non-builtin events committed so far in block seq (complete or not). */
static uint32_t block_events_partial(const struct ltt_ring *r, uint64_t seq)
{
	if (ltt_ring_block_complete(r, seq))
		return ltt_ring_block_events(r, seq);
	return (uint32_t)(ltt_read(&r->commit[seq & r->slot_mask]) >> 32) -
	       ltt_read(&r->base[seq & r->slot_mask]);
}

/* A summary block (doc/format.md section 7) for blocks/events missing before next (a block_start). */
static void out_summary(struct out *o, char *scratch, uint32_t bs, const char *next, uint64_t blocks,
			uint64_t events)
{
	ltt_block_summary(scratch, bs, next, blocks > UINT32_MAX ? UINT32_MAX : (uint32_t)blocks, events);
	out_block(o, scratch, bs);
}

/* Blocks that could not be copied at the end of a file: a summary block anchored now. */
static void out_trailing_summary(struct out *o, char *scratch, uint32_t bs, uint64_t blocks, uint64_t events)
{
	char next[LTT_BLOCK_MARK_SIZE];

	ltt_block_mark(next, LTT_B_BLOCK_START, cycles_after_loads(), 0);
	out_summary(o, scratch, bs, next, blocks, events);
}

/* Drops not yet reported in any block of r (its lost[] counters, read without being taken: the ring's
 * next opener still reports them in the ring, so a later snapshot shows them again until then, and a
 * snapshot never shows one twice). Writes them as one last block of the tracefile (doc/format.md
 * section 7: block_start, one events_lost per non-zero cause, block_end), with block_id the ring's next
 * sequence number; blocks still to count (pend_*) go in a summary block before it. Returns 1 if the
 * block was written. Called after every block of the snapshot is copied: the openers of those blocks
 * took their counts before committing them, so nothing is counted both in a block and here. */
static int out_lost(struct out *o, const struct ltt_ring *r, char *scratch, uint64_t block_id,
		    uint64_t pend_blocks, uint64_t pend_events)
{
	uint32_t bs = r->block_size, pos;
	char head[LTT_BLOCK_MARK_SIZE + LTT_LOST_CAUSE_COUNT * LTT_LOST_RECORD_SIZE];
	uint64_t c = cycles_after_loads(), n[LTT_LOST_CAUSE_COUNT];

	for (unsigned i = 0; i < LTT_LOST_CAUSE_COUNT; i++)
		n[i] = ltt_read(&r->lost[i]);
	ltt_block_mark(head, LTT_B_BLOCK_START, c, (uint32_t)block_id);
	pos = ltt_fmt_lost_records(head + LTT_BLOCK_MARK_SIZE, c, n);
	if (!pos)
		return 0;
	pos += LTT_BLOCK_MARK_SIZE;
	if (pend_blocks)
		out_summary(o, scratch, bs, head, pend_blocks, pend_events);
	memcpy(scratch, head, pos);
	ltt_block_mark(scratch + pos, LTT_B_BLOCK_END, c, (uint32_t)block_id);
	ltt_fmt_seal(scratch, bs, pos);
	out_block(o, scratch, bs);
	return 1;
}

/* ---- CPU rings ------------------------------------------------------------------------------------- */

/* A CPU ring sealed for the snapshot: blocks first .. end - 1 are its history. */
struct sealed {
	uint64_t first, end;
	int on;		/* sealed before the copies began */
};
/* Per ring of the region, for the snapshot being written (snapshots are serialized: flight_control.c's
 * lock; a ring past SEAL_MAX is sealed just before its copy, as before the one cut). */
#define SEAL_MAX 4096u
static struct sealed sealed_rings[SEAL_MAX];

/* Holds and seals ring r (CPU or kernel). Every ring is sealed before any is copied, so that the
 * snapshot is one cut in time across CPUs: an event recorded after its ring was sealed is in no
 * block of this snapshot, and its ring is held until copied, so its writer drops it and the drop is
 * counted (out_lost: buffer_full) instead of the event being kept in a ring sealed later than
 * another (a thread that moved from a CPU sealed early to one sealed late then had events after
 * the cut on one CPU while its earlier ones on the other were in no snapshot, uncounted). */
static void seal_cpu_ring(struct ltt_ring *r, struct sealed *s)
{
	uint64_t n = (uint64_t)r->slot_mask + 1;

	/* F1: hold every block before sealing, so that no opener whose CAS follows our flush's CAS (B6)
	 * overwrites anything; ring.c's slot_free() reads snap_hold after write_off. */
	ltt_set(&r->snap_hold, 1);
	ltt_smp_mb();
	ltt_ring_flush(r, 0);
	s->end = ltt_ring_head_seq(r);	/* blocks < end are sealed; block end is not retained */
	s->first = s->end > n ? s->end - n : 0;
	s->on = 1;
	/* Narrows the hold (F1 still: blocks >= first stay protected; nothing below first is in the
	 * ring any more, so releasing them needs no ordering). */
	ltt_set(&r->snap_hold, s->first + 1);
}

static void copy_cpu_ring(struct out *o, struct ltt_ring *r, struct sealed *sl, char *scratch,
			  uint64_t deadline)
{
	uint32_t bs = r->block_size;
	uint64_t end, first, pend_blocks, pend_events;

	if (!sl->on)
		seal_cpu_ring(r, sl);
	sl->on = 0;
	end = sl->end;
	first = sl->first;

	/* F2: blocks < first were overwritten by openers of blocks < end, all past their CAS; wait
	 * for their accounting. ring.c adds overwritten_events before overwritten_blocks (both full
	 * barriers), so once the block count is reached the event count is complete. */
	while (ltt_read(&r->overwritten_blocks) < first && ltt_mono_ns() < deadline)
		pause_briefly();
	pend_blocks = first;
	pend_events = ltt_read(&r->overwritten_events);
	for (uint64_t seq = first; seq < end; seq++) {
		if (wait_complete(r, seq, deadline)) {
			const char *blk = ltt_ring_block(r, seq);

			if (pend_blocks)
				out_summary(o, scratch, bs, blk, pend_blocks, pend_events);
			pend_blocks = pend_events = 0;
			out_block(o, blk, bs);
		} else {
			/* a writer never finished: the block is not copied, only counted */
			pend_blocks++;
			pend_events += block_events_partial(r, seq);
		}
		/* F3: done reading block seq before openers may overwrite it; pairs with the acquire
		 * load of snap_hold in slot_free(). */
		ltt_smp_mb();
		ltt_set(&r->snap_hold, seq + 2);
	}
	if (out_lost(o, r, scratch, end, pend_blocks, pend_events))
		pend_blocks = 0;
	if (pend_blocks)
		out_trailing_summary(o, scratch, bs, pend_blocks, pend_events);
	/* F3 for the last block: done reading before openers may overwrite it (slot_free()'s load). */
	ltt_smp_mb();
	ltt_set(&r->snap_hold, 0);
}

/* ---- control rings --------------------------------------------------------------------------------- */

/* Reads write_off when every reservation before it is committed: *seq, *pos of the open block (pos 0:
 * none). Returns 0 if the ring did not become quiescent before the deadline. */
static int quiescent_head(const struct ltt_ring *r, uint64_t deadline, uint64_t *seq, uint64_t *pos)
{
	for (;;) {
		uint64_t w1 = ltt_read(&r->write_off) & ~LTT_RING_CLOSED, w2, c;

		*seq = w1 >> r->shift;
		*pos = w1 & (r->block_size - 1);
		c = ltt_read(&r->commit[*seq & r->slot_mask]);
		/* write_off is read again after the commit word: unchanged means no reservation
		 * happened in between, so committed == pos says every byte before pos is written. */
		w2 = ltt_read(&r->write_off) & ~LTT_RING_CLOSED;
		if (w1 == w2 && (!*pos || (uint32_t)c - (uint32_t)((*seq >> r->blocks_log2) << r->shift) == *pos)) {
			ltt_smp_rmb();	/* B2: read the bytes after seeing them committed */
			return 1;
		}
		if (ltt_mono_ns() >= deadline)
			return 0;
		pause_briefly();
	}
}

static void copy_control_ring(struct out *o, struct ltt_ring *r, char *scratch, uint64_t deadline)
{
	uint32_t bs = r->block_size;
	uint64_t seq, pos, pend_blocks = 0, pend_events = 0;

	if (!quiescent_head(r, deadline, &seq, &pos)) {
		/* a writer is slow to commit: seal its block and copy it whole once complete */
		ltt_ring_flush(r, 0);
		seq = ltt_ring_head_seq(r);
		pos = 0;
	}
	for (uint64_t k = 0; k < seq; k++) {
		if (!wait_complete(r, k, deadline)) {
			pend_blocks++;
			pend_events += block_events_partial(r, k);
			continue;
		}
		if (pend_blocks)
			out_summary(o, scratch, bs, ltt_ring_block(r, k), pend_blocks, pend_events);
		pend_blocks = pend_events = 0;
		out_block(o, ltt_ring_block(r, k), bs);
	}
	if (pos) {
		/* the open block up to its last committed event, closed in the copy */
		if (pend_blocks)
			out_summary(o, scratch, bs, ltt_ring_block(r, seq), pend_blocks, pend_events);
		pend_blocks = 0;
		memcpy(scratch, ltt_ring_block(r, seq), pos);
		ltt_block_mark(scratch + pos, LTT_B_BLOCK_END, cycles_after_loads(), (uint32_t)seq);
		ltt_fmt_seal(scratch, bs, (uint32_t)pos);
		out_block(o, scratch, bs);
	}
	if (out_lost(o, r, scratch, pos ? seq + 1 : seq, pend_blocks, pend_events))
		pend_blocks = 0;
	if (pend_blocks)
		out_trailing_summary(o, scratch, bs, pend_blocks, pend_events);
}

/* ---- the directory --------------------------------------------------------------------------------- */

/* Copies every regular file of TRACE/eventdefs into dfd/eventdefs. */
static int copy_eventdefs(int dfd, const char *trace, char *scratch, uint32_t bs)
{
	char path[PATH_MAX];
	struct sbuf b = { path, 0, sizeof(path), 0 };
	char *dents = scratch, *buf = scratch + bs / 2;
	int src, dst, rc = 0;
	ssize_t n;

	sb_str(&b, trace);
	sb_str(&b, "/eventdefs");
	if (b.over)
		return -ENAMETOOLONG;
	src = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (src < 0)
		return -errno;
	dst = openat(dfd, "eventdefs", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dst < 0) {
		rc = -errno;
		goto close_src;
	}
	while ((n = getdents64(src, dents, bs / 2)) > 0) {
		for (ssize_t off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(void *)(dents + off);
			int in, outfd;
			ssize_t r;

			off += d->d_reclen;
			if (d->d_name[0] == '.' || (d->d_type != DT_REG && d->d_type != DT_UNKNOWN))
				continue;
			in = openat(src, d->d_name, O_RDONLY | O_CLOEXEC);
			if (in < 0)
				continue;
			outfd = openat(dst, d->d_name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, LTT_TRACE_FILE_MODE);
			if (outfd < 0) {
				rc = -errno;
				close(in);
				continue;
			}
			while ((r = read(in, buf, bs / 2)) > 0)
				if ((rc = ltt_write_all(outfd, buf, (size_t)r)) != 0)
					break;
			close(in);
			if (close(outfd) && !rc)
				rc = -errno;
		}
	}
	if (n < 0 && !rc)
		rc = -errno;
	close(dst);
close_src:
	close(src);
	return rc;
}

static int write_system_xml(int dfd, unsigned no)
{
	char attr[64 + sizeof(ltt_fl.trigger)];
	struct sbuf b = { attr, 0, sizeof(attr), 0 };
	int fd, rc;

	sb_str(&b, "ltt_snapshot=\"");
	sb_u64(&b, no, 1);
	sb_str(&b, "\"\n");
	sb_str(&b, ltt_fl.trigger);	/* a snapshot taken for LTT_SNAPSHOT_ON (recorder/flight_trigger.c) */
	fd = openat(dfd, "info/system.xml", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, LTT_TRACE_FILE_MODE);
	if (fd < 0)
		return -errno;
	rc = ltt_write_all(fd, ltt_fl.sys_head, ltt_fl.sys_head_len);
	if (!rc)
		rc = ltt_write_all(fd, attr, b.len);
	if (!rc)
		rc = ltt_write_all(fd, ltt_fl.sys_tail, ltt_fl.sys_tail_len);
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

static const char *const control_names[LTT_CONTROL_RINGS] = {
	"control/facilities", "control/processes", "control/interrupts", "control/persistent",
};

int ltt_snapshot_write(char *out, size_t outlen, char *scratch, uint64_t wait_ns)
{
	static const char *const subs[] = { "eventdefs", "info", "control", "cpu" };
	char part[PATH_MAX], fin[PATH_MAX];
	struct sbuf bp = { part, 0, sizeof(part), 0 }, bf = { fin, 0, sizeof(fin), 0 };
	struct ltt_region *rg = ltt_fl.rg;
	uint64_t deadline = ltt_mono_ns() + wait_ns;
	unsigned no = ltt_add_return(&ltt_fl.snap_no, 1);
	int dfd, rc = 0;

	if (!rg)
		return -ENODEV;
	ltt_func_open_emit();	/* each thread's open calls, whatever the rings kept (func_open.c) */
	ltt_kernel_sync(50);	/* the kernel events up to now into the rings (recorder/kernel_drain.c) */
	sb_str(&bf, ltt_fl.path);
	sb_str(&bf, "/snapshot-");
	sb_u64(&bf, no, 4);
	sb_str(&bp, fin);
	sb_str(&bp, ".part");
	if (bf.over || bp.over)
		return -ENAMETOOLONG;
	if (mkdir(part, LTT_TRACE_DIR_MODE))
		return -errno;
	dfd = open(part, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	for (unsigned i = 0; i < 4 && !rc; i++)
		if (mkdirat(dfd, subs[i], LTT_TRACE_DIR_MODE))
			rc = -errno;
	if (!rc)
		rc = write_system_xml(dfd, no);
	if (!rc)
		rc = copy_eventdefs(dfd, ltt_fl.path, scratch, ltt_fl.block_size);
	/* control data first: it must describe every facility and thread the CPU blocks show */
	for (unsigned c = 0; c < LTT_CONTROL_RINGS && !rc; c++) {
		struct ltt_ring *r = &rg->rings[rg->ncpu + c];
		struct out o = { dfd, control_names[c], -1, 0 };

		if (c != LTT_RING_PERSISTENT)
			out_touch(&o);
		copy_control_ring(&o, r, scratch, deadline);
		rc = out_close(&o);
	}
	/* one cut: every CPU and kernel ring sealed before any is copied (seal_cpu_ring) */
	for (unsigned i = 0; i < rg->nrings && i < SEAL_MAX; i++) {
		sealed_rings[i].on = 0;
		if (i < rg->ncpu || i >= ltt_region_kbase(rg))
			seal_cpu_ring(&rg->rings[i], &sealed_rings[i]);
	}
	for (unsigned i = 0; i < rg->ncpu; i++) {
		char name[32];
		struct sbuf bn = { name, 0, sizeof(name), 0 };
		struct out o = { dfd, name, -1, 0 };

		sb_str(&bn, "cpu/");
		sb_u64(&bn, i, 1);
		if (!rc) {
			copy_cpu_ring(&o, &rg->rings[i], i < SEAL_MAX ? &sealed_rings[i] : &(struct sealed){ 0 },
				      scratch, deadline);
			rc = out_close(&o);
		} else {
			ltt_set(&rg->rings[i].snap_hold, 0);	/* not copied: released */
		}
	}
	/* kernel/N (doc/format.md section 13): copied as the CPU rings are */
	if (!rc && rg->nrings > ltt_region_kbase(rg) && mkdirat(dfd, "kernel", LTT_TRACE_DIR_MODE))
		rc = -errno;
	for (unsigned i = ltt_region_kbase(rg); i < rg->nrings; i++) {
		char name[32];
		struct sbuf bn = { name, 0, sizeof(name), 0 };
		struct out o = { dfd, name, -1, 0 };

		sb_str(&bn, "kernel/");
		sb_u64(&bn, i - ltt_region_kbase(rg), 1);
		if (!rc) {
			copy_cpu_ring(&o, &rg->rings[i], i < SEAL_MAX ? &sealed_rings[i] : &(struct sealed){ 0 },
				      scratch, deadline);
			rc = out_close(&o);
		} else {
			ltt_set(&rg->rings[i].snap_hold, 0);	/* not copied: released */
		}
	}
	close(dfd);
	if (!rc && rename(part, fin))
		rc = -errno;
	if (!rc && out) {
		struct sbuf bo = { out, 0, outlen, 0 };

		if (outlen)
			sb_str(&bo, fin);
		if (bo.over)
			rc = -ENAMETOOLONG;
	}
	return rc;
}
