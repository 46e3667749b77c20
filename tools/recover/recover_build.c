/* SPDX-License-Identifier: MIT */
/* recover_build.c: rebuilds a trace directory from a ring file whose process died (SIGKILL, the
 * OOM killer): every block committed before the death, the partly committed ones cut back to their
 * last event that was committed, and the events reserved but never committed dropped and counted
 * (events_lost, cause torn). The file is never trusted: every offset is checked against its size and
 * every event is sized from its facility before it is copied (doc/flight-recorder.md "Recovery"). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltt/eventdefs.h>

#include "common/format.h"
#include "common/grow.h"
#include "common/io.h"
#include "common/private.h"
#include "recorder/shm_layout.h"
#include "recover.h"

#define MARK		LTT_BLOCK_MARK_SIZE
#define MAX_IDS		65536

struct ring_view {
	const struct ltt_ring *r;	/* in the mapping (read only) */
	const char *data;
	const uint64_t *commit;
	const uint32_t *base;
	uint32_t bs, n, shift, blog2;
};

struct rb {
	const char *map;
	size_t size;
	const struct ltt_region *rg;
	int big_endian;
	enum ltt_arch_size arch;
	/* id -> body type (NULL: no payload), known[] says the id is decodable */
	const struct ltt_type_desc *body[MAX_IDS];
	unsigned char known[MAX_IDS];
	struct ltt_eventdefs **defs;	/* one per facility record kept */
	unsigned ndefs, capdefs;
	char *block;			/* scratch block */
	unsigned warned;		/* facility warnings printed */
	int single;			/* at most one thread could be writing at the death (the
					 * file's thread count, recorder/shm_layout.h) */
	struct recover_stats *st;
	char *err;
	size_t errlen;
};

static void seterr(struct rb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void seterr(struct rb *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b->err, b->errlen, fmt, ap);
	va_end(ap);
}

static int pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* ---- the file -------------------------------------------------------------------------------------- */

static int check_ring(struct rb *b, unsigned i, struct ring_view *v)
{
	const struct ltt_region *rg = b->rg;
	const struct ltt_ring *r = &rg->rings[i];
	uint64_t off = (uint64_t)((const char *)r - b->map);

	if (r->block_size != rg->block_size || r->shift >= 32 || (1ull << r->shift) != rg->block_size ||
	    r->blocks_log2 >= 32 || (1ull << r->blocks_log2) != rg->blocks || r->slot_mask != rg->blocks - 1 ||
	    r->data_off > rg->size || (uint64_t)rg->blocks * rg->block_size > rg->size - r->data_off ||
	    r->commit_off > rg->size || (uint64_t)rg->blocks * 8 > rg->size - r->commit_off ||
	    r->base_off > rg->size || (uint64_t)rg->blocks * 4 > rg->size - r->base_off ||
	    (r->commit_off & 7) || (r->base_off & 3)) {
		seterr(b, "offset %llu: ring %u: geometry does not match the region", (unsigned long long)off, i);
		return -EINVAL;
	}
	v->r = r;
	v->data = b->map + r->data_off;
	v->commit = (const uint64_t *)(const void *)(b->map + r->commit_off);
	v->base = (const uint32_t *)(const void *)(b->map + r->base_off);
	v->bs = rg->block_size;
	v->n = rg->blocks;
	v->shift = r->shift;
	v->blog2 = r->blocks_log2;
	return 0;
}

static int check_region(struct rb *b)
{
	const struct ltt_region *rg = b->rg;
	const struct ltt_shm_meta *m = (const struct ltt_shm_meta *)(const void *)rg->reserved;

	if (b->size < sizeof(*rg) || memcmp(rg->magic, LTT_REGION_MAGIC, 8) || rg->version != 1) {
		seterr(b, "offset 0: not an ltt ring file");
		return -EINVAL;
	}
	if (memcmp(m->magic, LTT_SHM_MAGIC, 8)) {
		seterr(b, "offset %zu: no recovery metadata", offsetof(struct ltt_region, reserved));
		return -EINVAL;
	}
	if (rg->ncpu < 1 || rg->ncpu > 65536 || rg->nrings != rg->ncpu + LTT_CONTROL_RINGS +
	    ((rg->flags & LTT_REGION_KERNEL) ? rg->ncpu : 0) ||
	    !pow2(rg->block_size) || rg->block_size < 4096 || rg->block_size > (256u << 20) ||
	    !pow2(rg->blocks) || rg->blocks < 2 || rg->blocks > 65536 || rg->size > b->size ||
	    sizeof(*rg) + (uint64_t)rg->nrings * sizeof(struct ltt_ring) > rg->size) {
		seterr(b, "offset 0: region geometry out of range or larger than the file");
		return -EINVAL;
	}
	if (m->meta_off != rg->size || m->meta_len > b->size - m->meta_off) {
		seterr(b, "offset %zu: metadata outside the file", offsetof(struct ltt_region, reserved));
		return -EINVAL;
	}
	b->single = m->threads_known == 1 && m->threads <= 1;
	return 0;
}

/* ---- facilities ------------------------------------------------------------------------------------ */

static const struct ltt_facility_desc *find_facility(struct rb *b, const char *name, uint32_t sum)
{
	for (unsigned i = 0; i < b->ndefs; i++)
		for (uint32_t k = 0; k < b->defs[i]->n_facilities; k++) {
			const struct ltt_facility_desc *f = &b->defs[i]->facilities[k];

			if (f->checksum == sum && !strcmp(f->name, name))
				return f;
		}
	return NULL;
}

static int write_file(const char *dir, const char *name, const char *p, size_t n)
{
	char path[4096];
	FILE *f;
	int rc = 0;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	f = fopen(path, "we");
	if (!f)
		return -errno;
	if (n && fwrite(p, 1, n, f) != n)
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

/* Metadata records: system.xml, facility XML (parsed, and written to eventdefs/). */
static int read_records(struct rb *b, const char *out)
{
	const struct ltt_shm_meta *m = (const struct ltt_shm_meta *)(const void *)b->rg->reserved;
	uint64_t off = m->meta_off, end = m->meta_off + m->meta_len;
	int have_system = 0, rc;

	while (off + sizeof(struct ltt_shm_rec) <= end) {
		struct ltt_shm_rec h;
		const char *p;

		memcpy(&h, b->map + off, sizeof(h));
		if (h.len > end - off - sizeof(h)) {
			seterr(b, "offset %llu: metadata record runs past the end", (unsigned long long)off);
			return -EINVAL;
		}
		p = b->map + off + sizeof(h);
		if (h.type == LTT_SHM_REC_SYSTEM) {
			/* ltt_recovered="1" goes just before the '>' ending the attributes */
			const char *gt = memchr(p, '>', h.len);
			static const char attr[] = "ltt_recovered=\"1\"\n";
			char *x;

			if (!gt) {
				seterr(b, "offset %llu: system.xml record without '>'", (unsigned long long)off);
				return -EINVAL;
			}
			x = malloc(h.len + sizeof(attr));
			if (!x)
				return -ENOMEM;
			memcpy(x, p, (size_t)(gt - p));
			memcpy(x + (gt - p), attr, sizeof(attr) - 1);
			memcpy(x + (gt - p) + sizeof(attr) - 1, gt, h.len - (size_t)(gt - p));
			rc = write_file(out, "info/system.xml", x, h.len + sizeof(attr) - 1);
			free(x);
			if (rc)
				return rc;
			have_system = 1;
		} else if (h.type == LTT_SHM_REC_FACILITY) {
			size_t nlen = strnlen(p, h.len);
			char fname[300], perr[512];
			struct ltt_eventdefs *defs;
			const struct ltt_facility_desc *f;

			if (nlen == h.len || nlen == 0 || nlen > 200 || strchr(p, '/') || p[0] == '.') {
				seterr(b, "offset %llu: facility record without a valid name", (unsigned long long)off);
				return -EINVAL;
			}
			if (ltt_eventdefs_parse_mem(p + nlen + 1, h.len - nlen - 1, p, &defs, perr, sizeof(perr))) {
				fprintf(stderr, "ltt recover: offset %llu: facility %s does not parse (%s); its "
					"events are not recovered\n", (unsigned long long)off, p, perr);
				b->st->lost_facilities++;
			} else if (defs->n_facilities) {
				f = &defs->facilities[0];
				snprintf(fname, sizeof(fname), "eventdefs/%s.xml", p);
				if (find_facility(b, f->name, f->checksum)) {
					ltt_eventdefs_free(defs);
				} else {
					for (unsigned i = 0; i < b->ndefs; i++)
						if (b->defs[i]->n_facilities && !strcmp(b->defs[i]->facilities[0].name, f->name))
							snprintf(fname, sizeof(fname), "eventdefs/%s.%08x.xml", p, f->checksum);
					if (LTT_GROW(b->defs, b->ndefs + 1, b->capdefs)) {
						ltt_eventdefs_free(defs);
						return -ENOMEM;
					}
					b->defs[b->ndefs++] = defs;
					rc = write_file(out, fname, p + nlen + 1, h.len - nlen - 1);
					if (rc)
						return rc;
				}
			} else {
				ltt_eventdefs_free(defs);
			}
		}
		off += ltt_shm_rec_span(h.len);
	}
	if (!have_system) {
		seterr(b, "offset %llu: no system.xml record", (unsigned long long)m->meta_off);
		return -EINVAL;
	}
	return 0;
}

/* ---- events ---------------------------------------------------------------------------------------- */

/* Size of the event at p (at most avail bytes), or 0 when it cannot be sized (unknown id, runs past). */
static size_t event_size(struct rb *b, const char *p, size_t avail)
{
	uint16_t id;
	size_t sz;

	if (avail < LTT_FMT_HEADER)
		return 0;
	id = ltt_get16(p);
	switch (id) {
	case LTT_B_FACILITY_LOAD: {
		size_t n = LTT_FMT_HEADER +
			   LTT_FACILITY_LOAD_PAYLOAD(strnlen(p + LTT_FMT_HEADER, avail - LTT_FMT_HEADER));

		return n <= avail ? n : 0;
	}
	case LTT_B_EVENTS_LOST:
		return avail >= LTT_LOST_RECORD_SIZE ? LTT_LOST_RECORD_SIZE : 0;
	case LTT_B_BLOCKS_LOST:
		return avail >= LTT_BLOCKS_LOST_SIZE ? LTT_BLOCKS_LOST_SIZE : 0;
	case LTT_B_HEARTBEAT:
		return avail >= LTT_HEARTBEAT_SIZE ? LTT_HEARTBEAT_SIZE : 0;
	default:
		break;
	}
	if (!b->known[id])
		return 0;
	if (!b->body[id])
		return LTT_FMT_HEADER;
	if (ltt_type_encoded_size(b->body[id], b->arch, b->big_endian, p + LTT_FMT_HEADER,
				  avail - LTT_FMT_HEADER, &sz))
		return 0;
	return LTT_FMT_HEADER + sz;
}

/* The smallest size an event with the header at p can have (its id's type; sizes of builtin records). */
static size_t event_min_size(struct rb *b, const char *p)
{
	uint16_t id = ltt_get16(p);

	switch (id) {
	case LTT_B_FACILITY_LOAD:
		return LTT_FMT_HEADER + LTT_FACILITY_LOAD_PAYLOAD(0);
	case LTT_B_EVENTS_LOST:
		return LTT_LOST_RECORD_SIZE;
	case LTT_B_BLOCKS_LOST:
		return LTT_BLOCKS_LOST_SIZE;
	case LTT_B_HEARTBEAT:
		return LTT_HEARTBEAT_SIZE;
	default:
		break;
	}
	return LTT_FMT_HEADER + (b->body[id] ? b->body[id]->fixed_size[b->arch] : 0);
}

static void place_load(struct rb *b, const char *p, size_t size)
{
	const char *name = p + LTT_FMT_HEADER;
	size_t n = strnlen(name, size - LTT_FMT_HEADER);
	uint32_t sum = ltt_get32(name + n + 1), base = ltt_get32(name + n + 5);
	const struct ltt_facility_desc *f = find_facility(b, name, sum);

	if (!f) {
		b->st->lost_facilities++;
		if (name[0] && b->warned++ < 8)
			fprintf(stderr, "ltt recover: facility %s (checksum 0x%08x) has no XML in the file; its "
				"events are not recovered\n", name, sum);
		return;
	}
	for (uint32_t i = 0; i < f->n_events && base + i < MAX_IDS; i++) {
		b->known[base + i] = 1;
		b->body[base + i] = f->events[i].body;
	}
}

/* Bytes of block seq committed (its slot's commit word); > bs when the slot no longer holds it. */
static uint64_t committed(const struct ring_view *v, uint64_t seq)
{
	uint64_t w = v->commit[seq & (v->n - 1)];

	return (uint32_t)((uint32_t)w - (uint32_t)((seq >> v->blog2) << v->shift));
}

static uint32_t events_in(const struct ring_view *v, uint64_t seq)
{
	uint64_t w = v->commit[seq & (v->n - 1)];

	return (uint32_t)(w >> 32) - v->base[seq & (v->n - 1)] -
	       (committed(v, seq) == v->bs && (uint32_t)(((seq >> v->blog2) + 1) << v->shift) == 0);
}

/* block_start or block_end (id) at cycle count c, anchored by the region's linear map (the recorder's,
 * recorder/clock.c). */
static void mark(const struct ltt_region *rg, char *p, uint16_t id, uint64_t c, uint32_t block_id)
{
	uint32_t sec, nsec;

	ltt_fmt_cycles_time(rg->start_cycles, rg->start_time_ns, rg->cycles_per_second, c, &sec, &nsec);
	ltt_fmt_block_mark(p, id, c, sec, nsec, block_id);
}

/* Closes the block in buf at offset e: block_end (cycle count c), zero fill, trailer. */
static void close_block(struct rb *b, char *buf, uint32_t e, uint64_t c, uint32_t block_id)
{
	mark(b->rg, buf + e, LTT_B_BLOCK_END, c, block_id);
	ltt_fmt_seal(buf, b->rg->block_size, e);
}

/* ---- blocks ---------------------------------------------------------------------------------------- */

struct tfout {
	FILE *f;
	uint64_t pend_blocks, pend_events;	/* not written, to announce with a summary block */
	uint64_t torn;				/* torn events not yet reported */
	uint64_t last_cycles;
	int wrote;
};

static int put_block(struct rb *b, struct tfout *o, const char *blk)
{
	uint32_t bs = b->rg->block_size;

	if (o->pend_blocks) {
		char *s = malloc(bs);

		if (!s)
			return -ENOMEM;
		ltt_fmt_summary_block(s, bs, blk,
				      o->pend_blocks > UINT32_MAX ? UINT32_MAX : (uint32_t)o->pend_blocks,
				      o->pend_events);
		if (fwrite(s, 1, bs, o->f) != bs) {
			free(s);
			return -EIO;
		}
		free(s);
		b->st->blocks++;
		o->pend_blocks = o->pend_events = 0;
	}
	if (fwrite(blk, 1, bs, o->f) != bs)
		return -EIO;
	b->st->blocks++;
	o->wrote = 1;
	return 0;
}

/* A block whose writers all committed: checked, then copied as is. */
static int good_block(struct rb *b, const char *blk, uint64_t seq)
{
	uint32_t bs = b->rg->block_size, e = ltt_get32(blk + ltt_block_trailer_off(bs));

	return ltt_get16(blk) == LTT_B_BLOCK_START &&
	       ltt_fmt_mark_block_id(blk, LTT_HOST_BE) == (uint32_t)seq && ltt_block_end_ok(bs, e) &&
	       ltt_get16(blk + e) == LTT_B_BLOCK_END &&
	       ltt_fmt_mark_block_id(blk + e, LTT_HOST_BE) == (uint32_t)seq;
}

/* Block seq, not complete: `reserved` bytes reserved in it, `have` committed. With one writing thread
 * the missing bytes are the last ones reserved (its one event in flight is its latest): events are
 * sized from the start and kept while they end at or before `cut` = reserved - missing; the rest is
 * dropped and counted torn. With several threads, a writer killed between reserve and commit may have
 * left its hole anywhere, other threads committing after it (its bytes are the previous lap's, and
 * would decode as an event): events are kept only up to the first one that could be such a hole, one
 * whose smallest possible size fits in the missing bytes, or whose time goes back (a header not yet
 * written); where the missing bytes are not known (a block not sealed in this lap), none is kept. The
 * copy is closed after the last event kept. Returns 1 with the block in b->block, 0 if the block
 * cannot be trusted at all. */
static int salvage(struct rb *b, struct tfout *o, const char *blk, uint64_t seq, uint64_t reserved,
		   uint64_t have)
{
	uint32_t bs = b->rg->block_size, e;
	uint64_t limit = reserved, cut, prev, off = MARK, keep = MARK, after = 0, torn, missing;
	int consistent = 1, builtin_after = 0, unsealed = 0;

	if (have > reserved || ltt_get16(blk) != LTT_B_BLOCK_START ||
	    ltt_fmt_mark_block_id(blk, LTT_HOST_BE) != (uint32_t)seq)
		return 0;	/* the opener died before writing block_start */
	if (reserved != bs && reserved > ltt_block_end_max(bs))
		return 0;	/* the recorder never reserves there: a damaged write offset */
	cut = have;
	if (reserved == bs) {
		/* sealed: the events end at the trailer's block_end when the closer wrote it (this lap's:
		 * its block_id is seq), and its bytes from there to the end were committed with it */
		e = ltt_get32(blk + ltt_block_trailer_off(bs));
		if (ltt_block_end_ok(bs, e) && ltt_get16(blk + e) == LTT_B_BLOCK_END &&
		    ltt_fmt_mark_block_id(blk + e, LTT_HOST_BE) == (uint32_t)seq && have >= bs - e) {
			limit = e;
			cut = have - (bs - e);
		} else {
			/* not sealed: its closer (the opener of the next block, or a flush) died between
			 * its CAS on the write offset and the seal, and where the block's reservations
			 * ended is not known. What lies past the committed bytes is the previous lap's
			 * (it would decode as events): the events end at `have`; torn ones in this
			 * block, if any (another writer preempted), are not counted */
			limit = have;
			unsealed = 1;
		}
	}
	if (cut < MARK)
		return 0;
	/* the bytes a hole may take (several threads): all of them when not known */
	missing = b->single ? 0 : unsealed ? UINT64_MAX : limit - cut;
	prev = ltt_fmt_mark_cycles(blk, LTT_HOST_BE);
	while (off < limit) {
		size_t sz = event_size(b, blk + off, limit - off);
		uint16_t id = ltt_get16(blk + off);

		if (!sz) {
			consistent = 0;
			break;
		}
		if (after == 0 && missing &&
		    (event_min_size(b, blk + off) <= missing ||
		     (id != LTT_B_HEARTBEAT &&
		      (int32_t)(ltt_fmt_time(blk + off, LTT_HOST_BE) - (uint32_t)prev) < 0))) {
			cut = off;	/* it may be a hole: nothing from here on is kept */
			consistent = consistent && off + sz <= limit;
		}
		if (off + sz <= cut && after == 0) {
			/* kept: its full cycle count (doc/format.md section 5) */
			if (id == LTT_B_HEARTBEAT)
				prev = ltt_fmt_mark_cycles(blk + off, LTT_HOST_BE);
			else
				prev = prev +
				       (uint64_t)(int64_t)(int32_t)(ltt_fmt_time(blk + off, LTT_HOST_BE) -
								    (uint32_t)prev);
			keep = off + sz;
		} else {
			after++;
			builtin_after |= id < LTT_B_FIRST_BASE;
		}
		off += sz;
	}
	if (off != limit && reserved != bs)
		consistent = 0;
	/* Torn: the events decoded after the cut when they fill it exactly and are the traced program's
	 * own (reservations write the header first); one when the bytes there do not decode (a payload
	 * never written). */
	if (keep == cut && keep == limit)
		torn = 0;
	else if (keep == cut && consistent && !builtin_after && after)
		torn = after;
	else
		torn = after > 1 && consistent && !builtin_after ? after : 1;
	if (keep > ltt_block_end_max(bs))
		return 0;	/* no room for block_end: damaged */
	memcpy(b->block, blk, keep);
	close_block(b, b->block, (uint32_t)keep, prev, (uint32_t)seq);
	o->last_cycles = prev;
	o->torn += torn;
	b->st->salvaged++;
	return 1;
}

/* Carries into the high half of a slot's commit word before lap `lap` (each lap whose end is a multiple
 * of 2^32 bytes carried one, doc/recorder.md "Accounting"). */
static uint32_t carries_before(const struct ring_view *v, uint64_t lap)
{
	return (uint32_t)((lap << v->shift) >> 32);
}

/* Flight mode, the process killed while the opener of block head was between its reservation and the
 * end of its accounting (recorder/ring.c: the CAS on write_off, the seal of the block before, the
 * overwritten count, events then blocks, then base[] and block_start). Nothing was committed in the
 * new block yet (the caller checked), so its slot still holds block head - n whole. Returns 1 when
 * that block was not counted in overwritten_events: the file then holds it, unaccounted, and it is
 * recovered like any retained block; 0 when it was counted (or cannot be told: then it stays counted
 * as overwritten, as the counters say).
 *
 * The test: every slot's base[] is the high half of its commit word when its block was opened, i.e.
 * the events (and reported drops) of every earlier block of that slot, plus the carries. With
 * base[] of the victim's slot still the victim's own (set after the counters), the sum over the slots
 * is, mod 2^32, the overwritten count without the victim. */
static int victim_unaccounted(struct rb *b, const struct ring_view *v, uint64_t head)
{
	const struct ltt_ring *r = v->r;
	uint64_t victim = head - v->n;
	uint32_t sum = 0;

	if (r->overwritten_blocks != victim || !good_block(b, v->data + ((victim & (v->n - 1)) << v->shift), victim))
		return 0;
	for (uint64_t seq = victim; seq < head; seq++)
		sum += v->base[seq & (v->n - 1)] - carries_before(v, seq >> v->blog2);
	/* equal: not counted (a victim of 0 events is either way: recovering it adds nothing) */
	return (uint32_t)r->overwritten_events == sum;
}

/* Writes one tracefile from ring v; cpu: overwrite accounting applies. */
static int rebuild_ring(struct rb *b, const struct ring_view *v, const char *out, const char *name,
			int overwrite, int always)
{
	const struct ltt_ring *r = v->r;
	uint64_t w = r->write_off & ~LTT_RING_CLOSED, head = w >> v->shift, pos = w & (v->bs - 1);
	uint64_t last = pos ? head + 1 : head, first = last > v->n ? last - v->n : 0, lost = 0;
	struct tfout o = { 0 };
	char path[4096];
	int rc = 0, opening;

	snprintf(path, sizeof(path), "%s/%s", out, name);
	if (!always && last == 0)
		return 0;
	o.f = fopen(path, "we");
	if (!o.f)
		return -errno;
	/* The block being opened at the kill: reserved (pos > 0), nothing committed in it yet, so no
	 * block_start of its own (its slot still holds the block it overwrites) or a block_start
	 * written but not committed. Not damage: its opener's event is torn, and its slot's previous
	 * block is recovered if the opener had not counted it overwritten yet. */
	opening = pos && committed(v, head) == 0;
	if (opening) {
		last = head;
		b->st->opening++;
		o.torn++;
		if (overwrite && head >= v->n && victim_unaccounted(b, v, head))
			first = head - v->n;
	}
	if (overwrite && first) {
		o.pend_blocks = first;
		o.pend_events = r->overwritten_events;
		b->st->overwritten_blocks += first;
		b->st->overwritten_events += r->overwritten_events;
	}
	for (uint64_t seq = first; seq < last && !rc; seq++) {
		const char *blk = v->data + ((seq & (v->n - 1)) << v->shift);
		uint64_t have = committed(v, seq), reserved = seq == head ? pos : v->bs;

		if (have == v->bs && good_block(b, blk, seq)) {
			rc = put_block(b, &o, blk);
			o.last_cycles = ltt_fmt_mark_cycles(
				blk + ltt_fmt_trailer_get(blk, v->bs, LTT_HOST_BE), LTT_HOST_BE);
		} else if (have <= reserved && salvage(b, &o, blk, seq, reserved, have)) {
			rc = put_block(b, &o, b->block);
		} else {
			o.pend_blocks++;
			o.pend_events += have <= v->bs ? events_in(v, seq) : 0;
			b->st->unreadable_blocks++;
		}
	}
	for (unsigned c = 0; c < LTT_LOST_CAUSE_COUNT; c++)
		lost |= r->lost[c];
	/* what is still to report goes into one last block: dropped events by cause, torn events,
	 * blocks that could not be copied */
	if (!rc && (lost || o.torn || o.pend_blocks)) {
		uint64_t c = o.last_cycles ? o.last_cycles : r->last_tsc;
		uint64_t n[LTT_LOST_CAUSE_COUNT];
		uint32_t e;

		for (unsigned k = 0; k < LTT_LOST_CAUSE_COUNT; k++)
			n[k] = r->lost[k] + (k == LTT_LOST_CAUSE_TORN ? o.torn : 0);
		mark(b->rg, b->block, LTT_B_BLOCK_START, c, (uint32_t)last);
		e = MARK + ltt_fmt_lost_records(b->block + MARK, c, n);
		close_block(b, b->block, e, c, (uint32_t)last);
		b->st->torn += o.torn;
		rc = put_block(b, &o, b->block);
	}
	if (fclose(o.f) && !rc)
		rc = -errno;
	if (rc)
		seterr(b, "%s: %s", path, strerror(-rc));
	return rc;
}

/* control/facilities first: its facility_load events say which id is which event. */
static void learn_ids(struct rb *b, const struct ring_view *v)
{
	uint64_t w = v->r->write_off & ~LTT_RING_CLOSED, head = w >> v->shift, pos = w & (v->bs - 1);
	uint64_t last = pos ? head + 1 : head;

	for (uint64_t seq = last > v->n ? last - v->n : 0; seq < last; seq++) {
		const char *blk = v->data + ((seq & (v->n - 1)) << v->shift);
		uint64_t limit = seq == head ? pos : ltt_block_end_max(v->bs), off = MARK;

		if (ltt_get16(blk) != LTT_B_BLOCK_START || (seq == head && pos > ltt_block_end_max(v->bs)))
			continue;
		if (seq != head && ltt_block_end_ok(v->bs, ltt_fmt_trailer_get(blk, v->bs, LTT_HOST_BE)))
			limit = ltt_fmt_trailer_get(blk, v->bs, LTT_HOST_BE);
		while (off < limit) {
			size_t sz = event_size(b, blk + off, limit - off);

			if (!sz)
				break;
			if (ltt_get16(blk + off) == LTT_B_FACILITY_LOAD)
				place_load(b, blk + off, sz);
			off += sz;
		}
	}
}

int recover_rebuild(const char *path, const char *out, struct recover_stats *st, char *err, size_t errlen)
{
	static const char *const ctl[] = { "control/facilities", "control/processes", "control/interrupts",
					   "control/persistent" };
	static const char *const subs[] = { "", "/eventdefs", "/info", "/control", "/cpu" };
	struct rb *b = calloc(1, sizeof(*b));
	struct ring_view v;
	struct stat sb;
	int fd, rc = 0, priv = 0;

	if (!b)
		return -ENOMEM;
	memset(st, 0, sizeof(*st));
	b->st = st;
	b->err = err;
	b->errlen = errlen;
	b->arch = ltt_arch_size_host();
	b->big_endian = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	fd = ltt_open_regular(path, 0, &sb);	/* a FIFO never hangs it */
	if (fd < 0) {
		rc = fd == -LTT_ENOTREG ? -EINVAL : fd;
		seterr(b, "%s", fd == -LTT_ENOTREG ? "not a regular file" : strerror(-fd));
		goto free_b;
	}
	b->size = (size_t)sb.st_size;
	if (b->size < sizeof(struct ltt_region)) {
		seterr(b, "offset 0: shorter than a ring file header");
		rc = -EINVAL;
		goto close_fd;
	}
	b->map = mmap(NULL, b->size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (b->map == MAP_FAILED) {
		rc = -errno;
		seterr(b, "%s", strerror(errno));
		goto close_fd;
	}
	b->rg = (const struct ltt_region *)(const void *)b->map;
	rc = check_region(b);
	for (unsigned i = 0; !rc && i < b->rg->nrings; i++)
		rc = check_ring(b, i, &v);
	if (rc)
		goto unmap;
	b->block = malloc(b->rg->block_size);
	if (!b->block) {
		rc = -ENOMEM;
		goto unmap;
	}
	/* kernel events: the trace may hold other users' (the ring file does not say whose): private, as
	 * libltt makes such a trace (common/private.h, doc/security.md) */
	priv = (b->rg->flags & LTT_REGION_KERNEL) != 0;
	for (unsigned i = 0; i < 5 && !rc; i++) {
		char p[4096];

		snprintf(p, sizeof(p), "%s%s", out, subs[i]);
		if (mkdir(p, ltt_dir_mode(priv))) {
			rc = -errno;
			seterr(b, "%s: %s", p, strerror(errno));
		}
	}
	if (!rc)
		rc = read_records(b, out);
	if (rc)
		goto free_block;
	check_ring(b, b->rg->ncpu + LTT_RING_FACILITIES, &v);
	learn_ids(b, &v);
	for (unsigned c = 0; c < LTT_CONTROL_RINGS && !rc; c++) {
		check_ring(b, b->rg->ncpu + c, &v);
		rc = rebuild_ring(b, &v, out, ctl[c], 0, c != LTT_RING_PERSISTENT);
	}
	for (unsigned i = 0; i < b->rg->ncpu && !rc; i++) {
		char name[32];

		snprintf(name, sizeof(name), "cpu/%u", i);
		check_ring(b, i, &v);
		rc = rebuild_ring(b, &v, out, name, (b->rg->flags & LTT_REGION_OVERWRITE) != 0, 0);
	}
	/* kernel/N (doc/format.md section 13): rebuilt as the CPU rings */
	if (!rc && (b->rg->flags & LTT_REGION_KERNEL)) {
		char p[4096];

		snprintf(p, sizeof(p), "%s/kernel", out);
		if (mkdir(p, ltt_dir_mode(priv))) {
			rc = -errno;
			seterr(b, "%s: %s", p, strerror(errno));
		}
	}
	for (unsigned i = 0; (b->rg->flags & LTT_REGION_KERNEL) && i < b->rg->ncpu && !rc; i++) {
		char name[32];
		unsigned k = b->rg->ncpu + LTT_CONTROL_RINGS + i;

		snprintf(name, sizeof(name), "kernel/%u", i);
		check_ring(b, k, &v);
		rc = rebuild_ring(b, &v, out, name, (b->rg->flags & LTT_REGION_OVERWRITE) != 0, 0);
	}
	if (!rc && priv && (rc = ltt_tree_private(out)))	/* the files: made with the umask */
		seterr(b, "%s: %s", out, strerror(-rc));
free_block:
	free(b->block);
unmap:
	munmap((void *)b->map, b->size);
close_fd:
	if (fd >= 0)
		close(fd);
free_b:
	for (unsigned i = 0; i < b->ndefs; i++)
		ltt_eventdefs_free(b->defs[i]);
	free(b->defs);
	free(b);
	return rc;
}
