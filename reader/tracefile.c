/* SPDX-License-Identifier: MIT */
/* Tracefiles: discovery (doc/format.md section 1), block walking and checking (sections 4, 9), full
 * cycle counts and real time (section 5), lost-data accounting (section 7). One block is read at a
 * time; its events are sized and timed in one pass into tf->ev, so memory is bounded by the block. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/grow.h"
#include "reader_internal.h"

/* ---- discovery ------------------------------------------------------------------------------------ */

static int control_rank(const char *name)
{
	if (!strcmp(name, "facilities"))
		return 0;
	if (!strcmp(name, "processes"))
		return 1;
	if (!strcmp(name, "interrupts"))
		return 2;
	return 3;
}

static int is_kernel(const struct tracefile *tf)
{
	return !strncmp(tf->info.name, "kernel/", 7);
}

static int cmp_tf(const void *a, const void *b)
{
	const struct tracefile *x = *(struct tracefile *const *)a, *y = *(struct tracefile *const *)b;
	int rx, ry;

	if ((x->info.cpu < 0) != (y->info.cpu < 0))
		return x->info.cpu < 0 ? -1 : 1;
	/* kernel/N after every cpu/N (doc/format.md section 13) */
	if (x->info.cpu >= 0 && is_kernel(x) != is_kernel(y))
		return is_kernel(x) ? 1 : -1;
	if (x->info.cpu >= 0)
		return x->info.cpu < y->info.cpu ? -1 : x->info.cpu > y->info.cpu;
	rx = control_rank(x->info.name + 8);
	ry = control_rank(y->info.name + 8);
	if (rx != ry)
		return rx - ry;
	return strcmp(x->info.name, y->info.name);
}

static int add_tracefile(struct trace *t, const char *sub, const char *name, int cpu, char *errbuf,
			 size_t errlen)
{
	struct tracefile *tf;
	struct stat st;
	char rel[300];
	int fd;

	snprintf(rel, sizeof(rel), "%s/%s", sub, name);
	tf = calloc(1, sizeof(*tf));
	if (!tf)
		return -ENOMEM;
	if (asprintf(&tf->path, "%s/%s", t->dir, rel) < 0) {
		free(tf);
		return -ENOMEM;
	}
	tf->info.name = strdup(rel);
	fd = open(tf->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);	/* a FIFO must not block */
	if (!tf->info.name || fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int err = !tf->info.name ? -ENOMEM : fd < 0 ? -errno : 0;

		if (fd >= 0)
			close(fd);
		if (rd_resource_error(err))
			rd_seterr(errbuf, errlen, "%s/%s: %s", t->path, rel, strerror(-err));
		else if (err != -ENOMEM)
			rd_problem(t->reader, t, rel, -1, 0, "%s", err ? strerror(-err) : "not a regular file");
		free((char *)tf->info.name);
		free(tf->path);
		free(tf);
		return err == -ENOMEM || rd_resource_error(err) ? err : 0;
	}
	tf->fd = fd;
	tf->trace = t;
	tf->info.cpu = cpu;
	tf->info.trace_index = t->info.index;
	tf->info.file_size = (uint64_t)st.st_size;
	tf->info.nblocks = (uint64_t)st.st_size / t->info.block_size;
	tf->last_block = UINT64_MAX;
	if (t->final)	/* following, the last block may be being written: see rd_follow_finish */
		rd_tracefile_size_problems(tf);
	if (LTT_GROW(t->tf, t->ntf + 1, t->captf)) {
		rd_tracefile_close(tf);
		return -ENOMEM;
	}
	t->tf[t->ntf++] = tf;
	return 0;
}

void rd_tracefile_size_problems(struct tracefile *tf)
{
	const struct trace *t = tf->trace;
	uint64_t size = tf->info.file_size;

	if (size && size < t->info.block_size)
		rd_problem(t->reader, t, tf->info.name, -1, 0, "the file (%llu bytes) is smaller than one block "
			   "(%u bytes, ltt_block_size of info/system.xml): no block read", (unsigned long long)size,
			   t->info.block_size);
	else if (size % t->info.block_size)
		rd_problem(t->reader, t, tf->info.name, (int64_t)(tf->info.nblocks * t->info.block_size), 0,
			   "trailing partial block of %llu bytes ignored (file size %llu is not a multiple "
			   "of the block size %u)", (unsigned long long)(size % t->info.block_size),
			   (unsigned long long)size, t->info.block_size);
}

uint64_t rd_tracefile_merge_key(struct tracefile *tf)
{
	struct trace *t = tf->trace;

	/* the order of cmp_tf within a trace: control files (facilities, processes, interrupts, others
	 * as found), then cpu/N by N */
	if (tf->info.cpu >= 0)
		return (uint64_t)t->info.index << 32 | 0x80000000u | (is_kernel(tf) ? 0x40000000u : 0) |
		       (uint32_t)tf->info.cpu;
	return (uint64_t)t->info.index << 32 | (uint32_t)control_rank(tf->info.name + 8) << 16 |
	       (t->ctl_seq++ & 0xffff);
}

static int known(const struct trace *t, const char *sub, const char *name)
{
	size_t n = strlen(sub);

	for (size_t i = 0; i < t->ntf; i++) {
		const char *x = t->tf[i]->info.name;

		if (!strncmp(x, sub, n) && x[n] == '/' && !strcmp(x + n + 1, name))
			return 1;
	}
	return 0;
}

static int parse_cpu(const char *s)
{
	long v = 0;

	if (!*s || (s[0] == '0' && s[1]) || strlen(s) > 7)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
	}
	return (int)v;
}

/* Adds the tracefiles of TRACE/sub, in name order (so that problems come out in a stable order);
 * rescan: only those not known yet (following), problems about names not repeated. */
static int scan_dir(struct trace *t, const char *sub, int rescan, char *err, size_t errlen)
{
	char path[4096], **names = NULL;
	size_t n = 0;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/%s", t->dir, sub);
	d = opendir(path);
	if (!d) {
		if (rd_resource_error(-errno)) {
			ret = -errno;
			rd_seterr(err, errlen, "%s/%s: %s", t->path, sub, strerror(-ret));
			return ret;
		}
		if (errno != ENOENT && !rescan)	/* missing control files are for ltt check to report */
			rd_problem(t->reader, t, sub, -1, 0, "cannot open the directory: %s", strerror(errno));
		return 0;
	}
	ret = rd_dir_names(d, NULL, &names, &n);
	closedir(d);
	for (size_t i = 0; i < n && !ret; i++) {
		size_t before = t->ntf;
		int cpu = -1;

		if (rescan && known(t, sub, names[i]))
			continue;
		if (!strcmp(sub, "cpu") || !strcmp(sub, "kernel")) {
			cpu = parse_cpu(names[i]);
			if (cpu < 0 && rescan)
				continue;
			if (cpu < 0) {
				rd_problem(t->reader, t, sub, -1, 0, "%s: not a CPU number; file ignored", names[i]);
				continue;
			}
			if (t->info.ncpus && (unsigned)cpu >= t->info.ncpus)
				rd_problem(t->reader, t, sub, -1, 0,
					   "%s/%d: not below cpu=\"%u\" of info/system.xml", sub, cpu, t->info.ncpus);
		}
		ret = add_tracefile(t, sub, names[i], cpu, err, errlen);
		if (!ret && rescan && t->ntf > before) {
			ret = rd_follow_add_tf(t->reader, t->tf[t->ntf - 1]);
			if (!ret)
				ret = 1;
		}
	}
	rd_dir_names_free(names, n);
	return ret;
}

int rd_tracefiles_open(struct trace *t, char *err, size_t errlen)
{
	int ret = scan_dir(t, "control", 0, err, errlen);

	if (!ret)
		ret = scan_dir(t, "cpu", 0, err, errlen);
	if (!ret)
		ret = scan_dir(t, "kernel", 0, err, errlen);	/* doc/format.md section 13 */
	if (ret) {
		if (!rd_resource_error(ret))	/* else err names the file */
			rd_seterr(err, errlen, "%s: %s", t->path, strerror(-ret));
		return ret;
	}
	if (t->ntf)	/* t->tf is NULL without tracefiles: qsort must not see it */
		qsort(t->tf, t->ntf, sizeof(*t->tf), cmp_tf);
	t->info.tracefiles = (const struct ltt_tracefile_info *const *)t->tf;
	t->info.ntracefiles = (unsigned)t->ntf;
	return 0;
}

int rd_tracefiles_rescan(struct trace *t)
{
	int added = 0, ret = 0;

	for (int i = 0; i < 3 && ret >= 0; i++) {
		/* scan_dir's return: 1 when the last name added a tracefile; look at the count instead */
		size_t before = t->ntf;

		ret = scan_dir(t, i == 2 ? "kernel" : i ? "cpu" : "control", 1, NULL, 0);
		added |= t->ntf > before;
	}
	if (ret < 0)
		return ret;
	if (added) {
		qsort(t->tf, t->ntf, sizeof(*t->tf), cmp_tf);
		t->info.tracefiles = (const struct ltt_tracefile_info *const *)t->tf;
		t->info.ntracefiles = (unsigned)t->ntf;
	}
	return added;
}

int rd_tracefile_grow(struct tracefile *tf, uint64_t now_ns)
{
	uint32_t bs = tf->trace->info.block_size;
	struct stat st;
	uint64_t nb;

	if (tf->fd < 0 || fstat(tf->fd, &st) < 0)
		return 0;
	tf->info.file_size = (uint64_t)st.st_size;
	nb = (uint64_t)st.st_size / bs;
	if (nb <= tf->info.nblocks)
		return 0;
	if (tf->narr == tf->arr_head && tf->arr_head) {
		tf->narr = tf->arr_head = 0;	/* every entry used: start again at the front */
	} else if (tf->arr_head > 64 && tf->arr_head * 2 > tf->narr) {
		memmove(tf->arr, tf->arr + tf->arr_head, (tf->narr - tf->arr_head) * sizeof(*tf->arr));
		tf->narr -= tf->arr_head;
		tf->arr_head = 0;
	}
	if (LTT_GROW(tf->arr, tf->narr + 1, tf->arr_cap))
		return -ENOMEM;
	tf->arr[tf->narr++] = (struct rd_arrival){ nb, now_ns };
	tf->info.nblocks = nb;
	return 1;
}

void rd_tracefile_close(struct tracefile *tf)
{
	if (!tf)
		return;
	if (tf->fd > 0)
		close(tf->fd);
	free(tf->blk);
	free(tf->ev);
	free(tf->arr);
	free(tf->path);
	free((char *)tf->info.name);
	free(tf);
}

/* ---- one block ------------------------------------------------------------------------------------ */

/* Offset of block_end from the trailer, per dialect; -1 when it cannot be one. */
static int64_t block_end_offset(const struct trace *t, uint32_t trailer)
{
	int64_t bs = t->info.block_size, e;

	if (t->v1)
		e = bs - (int64_t)trailer;
	else if (t->v2)
		e = (int64_t)ltt_block_end_max((uint64_t)bs) - (int64_t)trailer;
	else
		e = trailer;
	return e;
}

static int pread_full(int fd, unsigned char *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		got += (size_t)n;
	}
	return 0;
}

/* Reads what block k holds: its trailer, then (when the trailer can be one) the bytes up to the end
 * of block_end into tf->blk. The zero fill after block_end is not kept (check_zero_fill reads it in
 * windows): memory follows the events a block really holds, not the block size the trace declares,
 * so that a sparse file declaring 2 GiB blocks costs what it has written. *e: block_end's offset, or
 * -1 when the trailer cannot give one (nothing more is read). */
static int read_block(struct tracefile *tf, uint64_t k, uint32_t *trailer, int64_t *e)
{
	const struct trace *t = tf->trace;
	uint32_t bs = t->info.block_size;
	unsigned char tr[4];
	size_t want;
	int ret = pread_full(tf->fd, tr, LTT_FMT_TRAILER, k * bs + ltt_block_trailer_off(bs));

	if (ret)
		return ret;
	*trailer = rd_u32(tr, t->info.big_endian);
	*e = block_end_offset(t, *trailer);
	if (!ltt_block_end_ok(bs, *e)) {
		*e = -1;
		return 0;
	}
	want = (size_t)*e + BLOCK_TS_EVENT;
	if (want > tf->blk_cap) {
		free(tf->blk);
		tf->blk_cap = 0;
		if (!(tf->blk = malloc(want)))
			return -ENOMEM;
		tf->blk_cap = want;
	}
	ret = pread_full(tf->fd, tf->blk, want, k * bs);
	if (!ret)
		tf->blk_off = k * bs;
	return ret;
}

/* LTT_READ_CHECK: the bytes of block k from `from` to the trailer are zero. Read in windows; holes of
 * a sparse file are zero by definition and skipped (SEEK_DATA). Offset in the block of the first
 * nonzero byte (*val: its value), or -1. */
static int64_t check_zero_fill(struct tracefile *tf, uint64_t k, uint32_t from, unsigned char *val)
{
	uint32_t bs = tf->trace->info.block_size;
	uint64_t base = k * bs, off = base + from, end = base + ltt_block_trailer_off(bs);
	unsigned char w[65536];

	while (off < end) {
		off_t data = lseek(tf->fd, (off_t)off, SEEK_DATA);
		size_t n;

		if (data < 0)		/* ENXIO: only a hole up to the end of the file */
			return errno == ENXIO ? -1 : (int64_t)(off - base);
		if ((uint64_t)data >= end)
			return -1;
		off = (uint64_t)data;
		n = end - off < sizeof(w) ? (size_t)(end - off) : sizeof(w);
		if (pread_full(tf->fd, w, n, off))
			return (int64_t)(off - base);
		for (size_t i = 0; i < n; i++)
			if (w[i]) {
				*val = w[i];
				return (int64_t)(off + i - base);
			}
		off += n;
	}
	return -1;
}

static inline uint64_t anchor_ns(const struct trace *t, const unsigned char *payload)
{
	uint64_t s = rd_u32(payload, t->info.big_endian), n = rd_u32(payload + 4, t->info.big_endian);

	return s * 1000000000ull + (t->v1 ? n * 1000 : n);
}

static struct blk_event *push(struct tracefile *tf)
{
	if (LTT_GROW_FROM(tf->ev, tf->nev + 1, tf->cap, 1024))
		return NULL;
	return &tf->ev[tf->nev++];
}

/* t = t_a + (c - c_a) * (t_b - t_a) / (c_b - c_a), rounded down (section 5), in exact integer
 * arithmetic. The common case (c between the anchors, no overflow) divides by multiplying with a
 * reciprocal computed once per pair of anchors, then corrects the quotient. */
struct segment {
	uint64_t ca, ta, cb, tb;
	uint64_t den, slope;	/* cb - ca, tb - ta */
	uint64_t recip;		/* floor((2^64 - 1) / den), den > 1 */
};

static void segment_set(struct segment *s, uint64_t ca, uint64_t ta, uint64_t cb, uint64_t tb)
{
	s->ca = ca;
	s->ta = ta;
	s->cb = cb;
	s->tb = tb;
	s->den = cb - ca;
	s->slope = tb - ta;
	s->recip = cb > ca + 1 ? UINT64_MAX / s->den : 0;
}

static uint64_t interpolate_slow(const struct segment *s, uint64_t c)
{
	__int128 num, q, den;

	num = (__int128)((int64_t)(c - s->ca)) * (__int128)((int64_t)(s->tb - s->ta));
	den = (__int128)(int64_t)(s->cb - s->ca);
	q = num / den;
	if ((num % den != 0) && ((num < 0) != (den < 0)))
		q--;
	return (uint64_t)((__int128)s->ta + q);
}

static inline uint64_t interpolate(const struct segment *s, uint64_t c)
{
	uint64_t prod, q;

	if (s->cb == s->ca)
		return s->ta;
	if (likely(c >= s->ca && s->tb >= s->ta && s->cb > s->ca) &&
	    likely(!__builtin_mul_overflow(c - s->ca, s->slope, &prod))) {
		if (s->den == 1)
			return s->ta + prod;
		/* q <= prod / den and prod / den - q <= 2: correct upwards */
		q = (uint64_t)(((unsigned __int128)prod * s->recip) >> 64);
		while ((unsigned __int128)(q + 1) * s->den <= prod)
			q++;
		return s->ta + q;
	}
	return interpolate_slow(s, c);
}

/* Second pass: real times for every event, then drop hidden ones. */
static void time_block(struct tracefile *tf)
{
	const struct trace *t = tf->trace;
	struct blk_event *ev = tf->ev;
	size_t n = tf->nev, a = 0, b = 0, out = 0;
	uint64_t last = tf->last_ns;
	struct segment seg = { 0 };

	for (size_t i = 0; i < n; i++) {
		uint64_t ns;

		if (ev[i].anchor) {
			a = i;
			for (b = i + 1; b < n && !ev[b].anchor; b++)
				;
			if (b < n)
				segment_set(&seg, ev[a].cycles, ev[a].ns, ev[b].cycles, ev[b].ns);
			ns = ev[i].ns;
		} else if (b < n) {
			ns = interpolate(&seg, ev[i].cycles);
		} else {
			/* after the last anchor (not met in a block that passed its checks, which ends
			 * with block_end): the clock's nominal slope, 1 ns per cycle without one */
			uint64_t d = ev[i].cycles - ev[a].cycles, cps = t->info.cycles_per_second;

			ns = ev[a].ns + (cps ? (uint64_t)((unsigned __int128)d * 1000000000u / cps) : d);
		}
		if (ns < last)
			ns = last;
		last = ns;
		if (i == 0 && !tf->info.records)
			tf->info.first_ns = ns;
		ev[i].ns = ns;
	}
	tf->last_ns = last;
	if (n)
		tf->info.last_ns = last;
	tf->info.records += n;
	for (size_t i = 0; i < n; i++) {
		/* events: every record but the builtin ones (ltt/reader.h struct ltt_counts) */
		tf->info.events += t->plan[ev[i].id].kind == EVK_NORMAL;
		if (!t->plan[ev[i].id].hidden)
			ev[out++] = ev[i];
	}
	tf->nev = out;
}

/* A backward step of `back` cycles between consecutive events of a tracefile: within
 * LTT_SKEW_TOLERANCE_CYCLES it is clock skew between the threads sharing the tracefile (doc/format.md
 * section 5), counted in info.skews; 1 when larger (a problem: time goes back). */
static inline int skew(struct tracefile *tf, uint64_t back)
{
	if (back <= LTT_SKEW_TOLERANCE_CYCLES) {
		tf->info.skews++;
		return 0;
	}
	return 1;
}

/* A problem of the block being decoded: reported, or only counted in a block range's private copy
 * (range.c), whose caller decides what to do with a range that found any. */
#define tf_problem(tf, ...)							\
	do {									\
		if (unlikely((tf)->in_range))					\
			(tf)->range_problems++;					\
		else								\
			rd_problem((tf)->trace->reader, (tf)->trace, (tf)->info.name, __VA_ARGS__); \
	} while (0)

/* Decodes block k into tf->ev; problems reported, damaged parts skipped. */
static void scan_block(struct tracefile *tf, uint64_t k)
{
	struct trace *t = tf->trace;
	struct ltt_reader *r = t->reader;
	const int be = t->info.big_endian;
	const uint32_t bs = t->info.block_size;
	const struct ev_plan *plan = t->plan;
	const size_t nplan = t->nplan;
	const unsigned char *b;
	uint32_t trailer, p, end, bid, bid_end;
	int64_t e;
	uint64_t prev, off, cyc, counted = 0;	/* what the recorder counts in the block: events, drops */
	struct blk_event *x;
	int ret;

	tf->nev = tf->pos = 0;
	ret = read_block(tf, k, &trailer, &e);
	off = k * bs;
	if (ret) {
		tf_problem(tf, (int64_t)off, 0, "cannot read block: %s", strerror(-ret));
		tf->done = 1;
		return;
	}
	b = tf->blk;
	tf->info.blocks_read++;
	if (e < 0) {
		e = block_end_offset(t, trailer);
		tf_problem(tf, (int64_t)off, 0,
			   "block %llu: trailer %u puts block_end at %lld, outside "
			   "[26, %u]; block skipped",
			   (unsigned long long)k, trailer, (long long)e, (unsigned)ltt_block_end_max(bs));
		goto damaged;
	}
	end = (uint32_t)e;
	if (rd_u16(b, be) >= nplan || plan[rd_u16(b, be)].kind != EVK_BLOCK_START) {
		tf_problem(tf, (int64_t)off, 0, "block %llu: first event is id %u, not block_start; "
			   "block skipped", (unsigned long long)k, rd_u16(b, be));
		goto damaged;
	}
	if (rd_u16(b + end, be) >= nplan || plan[rd_u16(b + end, be)].kind != EVK_BLOCK_END) {
		tf_problem(tf, (int64_t)(off + end), 0, "block %llu: the trailer points at id %u, not "
			   "block_end; block skipped", (unsigned long long)k, rd_u16(b + end, be));
		goto damaged;
	}
	bid = rd_u32(b + EV_HEADER + 16, be);
	bid_end = rd_u32(b + end + EV_HEADER + 16, be);
	if (bid != bid_end)
		tf_problem(tf, (int64_t)(off + end), 0, "block %llu: block_end block_id %u differs from "
			   "block_start block_id %u", (unsigned long long)k, bid_end, bid);
	if (rd_dedupe_skip(tf, bid)) {	/* another snapshot of the recording supplies it */
		if (bid != UINT32_MAX) {
			tf->expect_id = (uint64_t)bid + 1;
			tf->have_expect = 1;
		}
		return;
	}
	if (bid == UINT32_MAX) {
		tf->info.summary_blocks++;
	} else {
		if (tf->have_expect && bid != tf->expect_id) {
			if (bid > tf->expect_id) {
				tf->info.gaps++;
				tf->info.gap_blocks += bid - tf->expect_id;
				tf_problem(tf, (int64_t)off, 0, "block %llu: block_id jumps from %llu to %u: "
					   "%llu blocks lost for an unknown reason", (unsigned long long)k,
					   (unsigned long long)tf->expect_id, bid,
					   (unsigned long long)(bid - tf->expect_id));
			} else {
				tf_problem(tf, (int64_t)off, 0, "block %llu: block_id %u goes back (expected "
					   "%llu)", (unsigned long long)k, bid, (unsigned long long)tf->expect_id);
			}
		}
		tf->expect_id = (uint64_t)bid + 1;
		tf->have_expect = 1;
	}

	/* block_start */
	cyc = rd_u64(b + EV_HEADER + 8, be);
	if ((r->opt.flags & LTT_READ_CHECK) && !t->v1 && !t->v2) {
		if (rd_u32(b + 2, be) != (uint32_t)cyc)
			tf_problem(tf, (int64_t)off, 0, "block %llu: block_start header time 0x%08x is not "
				   "the low 32 bits of its cycle count %llu", (unsigned long long)k,
				   rd_u32(b + 2, be), (unsigned long long)cyc);
		if (rd_u32(b + end + 2, be) != (uint32_t)rd_u64(b + end + EV_HEADER + 8, be))
			tf_problem(tf, (int64_t)(off + end), 0, "block %llu: block_end header time 0x%08x "
				   "is not the low 32 bits of its cycle count %llu", (unsigned long long)k,
				   rd_u32(b + end + 2, be),
				   (unsigned long long)rd_u64(b + end + EV_HEADER + 8, be));
	}
	if (tf->have_prev && cyc < tf->prev_cycles && skew(tf, tf->prev_cycles - cyc))
		tf_problem(tf, (int64_t)off, 0, "time goes back: block_start cycle count %llu is below "
			   "the previous event's %llu", (unsigned long long)cyc,
			   (unsigned long long)tf->prev_cycles);
	if (!(x = push(tf)))
		goto nomem;
	x->off = 0;
	x->size = 20;
	x->id = rd_u16(b, be);
	x->cycles = cyc;
	x->ns = anchor_ns(t, b + EV_HEADER);
	x->anchor = 1;
	prev = cyc;

	for (p = BLOCK_TS_EVENT; p < end; ) {
		const struct ev_plan *pl;
		uint32_t time, id;
		size_t size;
		int32_t d;

		if (unlikely(p + EV_HEADER > end)) {
			tf_problem(tf, (int64_t)(off + p), 0, "event header crosses block_end at offset "
				   "%llu; rest of block skipped", (unsigned long long)(off + end));
			goto cut;
		}
		id = rd_u16(b + p, be);
		time = rd_u32(b + p + 2, be);
		if (unlikely(id >= nplan || plan[id].kind == EVK_NONE)) {
			if (r->follow && !t->final && tf->may_stall) {
				/* following: its facility_load may not be read yet (rd_tracefile_fill
				 * undoes this pass and tries again later) */
				tf->stalled = 1;
				tf->mute_below = off + p;
				return;
			}
			tf_problem(tf, (int64_t)(off + p), 0, "unknown event id %u; rest of block skipped",
				   id);
			goto cut;
		}
		pl = &plan[id];
		size = pl->fixed;
		if (unlikely(size == LTT_SIZE_VARIABLE)) {
			ret = ltt_type_encoded_size(pl->type->body, t->info.arch_size, be, b + p + EV_HEADER,
						    end - p - EV_HEADER, &size);
			if (ret) {
				tf_problem(tf, (int64_t)(off + p), 0, "event %s.%s: %s before block_end; "
					   "rest of block skipped", pl->type->facility, pl->type->name,
					   ret == -ERANGE ? "union type code out of range" :
					   "a string or sequence runs past its end");
				goto cut;
			}
		}
		if (unlikely(size > end - p - EV_HEADER)) {
			tf_problem(tf, (int64_t)(off + p), 0, "event %s.%s (%zu bytes) crosses block_end "
				   "at offset %llu; rest of block skipped", pl->type->facility, pl->type->name,
				   size + EV_HEADER, (unsigned long long)(off + end));
			goto cut;
		}
		if (!(x = push(tf)))
			goto nomem;
		x->off = p;
		x->size = (uint32_t)size;
		x->id = (uint16_t)id;
		x->anchor = 0;
		d = (int32_t)(time - (uint32_t)prev);
		if (likely(pl->kind == EVK_NORMAL)) {
			counted++;
		} else {
			const unsigned char *q = b + p + EV_HEADER;

			switch (pl->kind) {
			case EVK_HEARTBEAT:
				tf->info.heartbeats++;
				if (!t->v1 && !t->v2) {
					d = 0;
					if ((r->opt.flags & LTT_READ_CHECK) && time != (uint32_t)rd_u64(q + 8, be))
						tf_problem(tf, (int64_t)(off + p), 0, "time_heartbeat header "
							   "time 0x%08x is not the low 32 bits of its cycle count "
							   "%llu", time, (unsigned long long)rd_u64(q + 8, be));
					if (rd_u64(q + 8, be) < prev &&
					    skew(tf, prev - rd_u64(q + 8, be)))
						tf_problem(tf, (int64_t)(off + p), 0, "time goes back: "
							   "time_heartbeat cycle count %llu is below the previous "
							   "event's %llu", (unsigned long long)rd_u64(q + 8, be),
							   (unsigned long long)prev);
					prev = rd_u64(q + 8, be);
					x->anchor = 1;
					x->ns = anchor_ns(t, q);
				}
				break;
			case EVK_EVENTS_LOST: {
				uint64_t *l = &tf->info.events_lost[q[8] < LTT_LOST_UNKNOWN ? q[8] : LTT_LOST_UNKNOWN];

				if (rd_u64(q, be) > LTT_MAX_LOST_COUNT)
					tf_problem(tf, (int64_t)(off + p), 0, "events_lost count %llu is above what "
						   "the recorder can write (2^56): a damaged record",
						   (unsigned long long)rd_u64(q, be));
				*l = ltt_sat_add(*l, rd_u64(q, be));
				counted = ltt_sat_add(counted, rd_u64(q, be));
				break;
			}
			case EVK_BLOCKS_LOST:
				if (rd_u64(q + 4, be) > LTT_MAX_LOST_COUNT)
					tf_problem(tf, (int64_t)(off + p), 0, "blocks_lost event count %llu is above "
						   "what the recorder can write (2^56): a damaged record",
						   (unsigned long long)rd_u64(q + 4, be));
				tf->info.blocks_lost += rd_dedupe_lost(tf, rd_u32(q, be));
				/* modular (not saturated): snapshots read together take off it what older
				 * ones supply, before or after this record (reader/dedupe.c) */
				tf->info.blocks_lost_events += rd_u64(q + 4, be);
				tf->expect_id += rd_u32(q, be);
				break;
			case EVK_BLOCK_START:
			case EVK_BLOCK_END:
				tf->nev--;
				tf_problem(tf, (int64_t)(off + p), 0, "%s inside a block (block_end is at "
					   "offset %llu); rest of block skipped", pl->type->name,
					   (unsigned long long)(off + end));
				goto cut;
			default:
				break;
			}
		}
		if (unlikely(d < 0) && skew(tf, (uint64_t)-(int64_t)d)) {
			tf_problem(tf, (int64_t)(off + p), 0, "time goes back by %lld cycles",
				   -(long long)d);
		}
		prev += (uint64_t)(int64_t)d;
		x->cycles = prev;
		p += EV_HEADER + (uint32_t)size;
	}
	goto finish;
cut:
	tf->info.blocks_cut++;
finish:
	/* block_end */
	if (!(x = push(tf)))
		goto nomem;
	x->off = end;
	x->size = 20;
	x->id = rd_u16(b + end, be);
	if (t->v1 || t->v2) {
		int32_t d = (int32_t)(rd_u32(b + end + 2, be) - (uint32_t)prev);

		x->cycles = prev + (uint64_t)(int64_t)d;
	} else {
		x->cycles = rd_u64(b + end + EV_HEADER + 8, be);
		if (x->cycles < prev && skew(tf, prev - x->cycles))
			tf_problem(tf, (int64_t)(off + end), 0, "time goes back: block_end cycle count %llu "
				   "is below the previous event's %llu", (unsigned long long)x->cycles,
				   (unsigned long long)prev);
	}
	x->ns = anchor_ns(t, b + end + EV_HEADER);
	x->anchor = 1;
	if (r->opt.flags & LTT_READ_CHECK) {
		unsigned char v = 0;
		int64_t z = check_zero_fill(tf, k, end + BLOCK_TS_EVENT, &v);

		if (z >= 0)
			tf_problem(tf, (int64_t)off + z, 0, "block %llu: nonzero byte 0x%02x in the zero "
				   "fill after block_end", (unsigned long long)k, v);
	}
	tf->prev_cycles = x->cycles;
	tf->have_prev = 1;
	if (!tf->info.records)
		tf->info.first_cycles = tf->ev[0].cycles;
	tf->info.last_cycles = x->cycles;
	if (bid != UINT32_MAX)
		rd_dedupe_read(tf, counted);
	time_block(tf);
	return;
damaged:
	tf->info.blocks_damaged++;
	return;
nomem:
	tf_problem(tf, (int64_t)off, 0, "out of memory; rest of tracefile skipped");
	tf->nev = 0;
	tf->done = 1;
}

/* Following: block k with the state before it; a pass stopped at an id not known yet is undone. */
struct before_block {
	struct ltt_tracefile_info info;
	uint64_t prev_cycles, expect_id, last_ns;
	int have_prev, have_expect;
};

static void scan_block_follow(struct tracefile *tf, uint64_t k)
{
	struct ltt_reader *r = tf->trace->reader;
	struct before_block b = { tf->info, tf->prev_cycles, tf->expect_id, tf->last_ns, tf->have_prev,
				  tf->have_expect };
	int expired = 0;

	while (tf->arr_head < tf->narr && tf->arr[tf->arr_head].upto <= k)
		tf->arr_head++;
	if (tf->arr_head < tf->narr)
		tf->seen_ns = tf->arr[tf->arr_head].ns;
	/* a block tried before: what it reported before the id it stopped at is not repeated, and
	 * after 5 s (or once the trace is complete) the id is reported unknown */
	if (tf->stall_since) {
		expired = tf->trace->final || ltt_mono_ns() - tf->stall_since > 5000000000ull;
		r->mute_name = tf->info.name;
		r->mute_below = tf->mute_below;
	}
	tf->stalled = 0;
	tf->may_stall = !expired;
	scan_block(tf, k);
	r->mute_name = NULL;
	if (tf->stalled) {
		tf->info = b.info;
		tf->prev_cycles = b.prev_cycles;
		tf->expect_id = b.expect_id;
		tf->last_ns = b.last_ns;
		tf->have_prev = b.have_prev;
		tf->have_expect = b.have_expect;
		tf->nev = tf->pos = 0;
		if (!tf->stall_since)
			tf->stall_since = ltt_mono_ns();
		return;
	}
	tf->stall_since = 0;
	tf->mute_below = 0;
	tf->next_block = k + 1;
}

void rd_tracefile_scan(struct tracefile *tf, uint64_t k)
{
	scan_block(tf, k);
}

int rd_tracefile_fill(struct tracefile *tf)
{
	while (tf->pos >= tf->nev) {
		if (tf->trace->reader->follow && !tf->done && !tf->trace->final &&
		    (tf->next_block >= tf->info.nblocks || tf->stalled))
			return 0;	/* following: more may come (rd_tracefile_grow, rd_follow_refresh) */
		if (tf->done || tf->next_block >= tf->info.nblocks || tf->next_block > tf->last_block) {
			/* the event yielded last from here was consumed: give the buffers back */
			tf->done = 1;
			free(tf->blk);
			free(tf->ev);
			tf->blk = NULL;
			tf->ev = NULL;
			tf->nev = tf->pos = tf->cap = tf->blk_cap = 0;
			return 0;
		}
		if (tf->trace->reader->follow) {
			scan_block_follow(tf, tf->next_block);
			continue;
		}
		scan_block(tf, tf->next_block++);
	}
	return 1;
}

/* ---- seeking ------------------------------------------------------------------------------------- */

int rd_block_anchor(struct tracefile *tf, uint64_t k, int first, struct rd_anchor *a)
{
	const struct trace *t = tf->trace;
	const int be = t->info.big_endian;
	unsigned char hdr[BLOCK_TS_EVENT], tr[4];
	uint32_t bs = t->info.block_size;
	int64_t e;
	uint16_t id;

	if (k >= tf->info.nblocks || pread(tf->fd, tr, LTT_FMT_TRAILER,
					   (off_t)(k * bs + ltt_block_trailer_off(bs))) != LTT_FMT_TRAILER)
		return -1;
	e = block_end_offset(t, rd_u32(tr, be));
	if (!ltt_block_end_ok(bs, e))
		return -1;
	if (pread(tf->fd, hdr, sizeof(hdr), (off_t)(k * bs + (first ? 0 : (uint64_t)e))) != sizeof(hdr))
		return -1;
	id = rd_u16(hdr, be);
	if (id >= t->nplan || t->plan[id].kind != (first ? EVK_BLOCK_START : EVK_BLOCK_END))
		return -1;
	a->ns = anchor_ns(t, hdr + EV_HEADER);
	a->cycles = rd_u64(hdr + EV_HEADER + 8, be);
	a->block_id = rd_u32(hdr + EV_HEADER + 16, be);
	return 0;
}

int rd_block_anchor_ns(struct tracefile *tf, uint64_t k, int first, uint64_t *ns)
{
	struct rd_anchor a;

	if (rd_block_anchor(tf, k, first, &a))
		return -1;
	*ns = a.ns;
	return 0;
}

void rd_tracefile_seek(struct tracefile *tf, uint64_t from_ns)
{
	uint64_t lo = 0, hi, ns;

	if (!tf->info.nblocks)
		return;
	hi = tf->info.nblocks - 1;
	/* the last block starting strictly before from_ns: earlier blocks hold only earlier events */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2, m = mid;

		while (m <= hi && rd_block_anchor_ns(tf, m, 1, &ns))
			m++;
		if (m > hi)
			hi = mid - 1;
		else if (ns < from_ns)
			lo = m;
		else
			hi = mid - 1;
	}
	tf->next_block = lo;
}
