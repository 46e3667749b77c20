/* SPDX-License-Identifier: MIT */
/* recorder_decode.h: a small, strict decoder of the tracefiles libltt writes, for the recorder's tests
 * (independent of libltt-reader): checks every block's structure (doc/format.md section 4), rebuilds
 * full cycle counts (section 5) and hands each event to a callback. Sizes are known for builtin
 * events, the core facility and the test facility rtest. */
#ifndef TEST_RECORDER_DECODE_H
#define TEST_RECORDER_DECODE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dec_event {
	uint16_t id;
	uint64_t cycles;	/* rebuilt full count */
	const unsigned char *payload;
	uint32_t size;
	uint32_t block_id;
	int summary;		/* in a summary block */
};

struct dec_stats {
	uint64_t blocks, summary_blocks, events, heartbeats;
	uint64_t lost[5];	/* events_lost by cause */
	uint64_t blocks_lost, blocks_lost_events;
	uint64_t id_gaps;	/* block_id jumps not explained by a summary block */
	char error[256];	/* first structural error, "" if none */
};

static uint32_t dec_u32(const unsigned char *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static uint64_t dec_u64(const unsigned char *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* Payload size of the event id at p (end: the block_end offset); 0 on an unknown id. */
static size_t dec_size(uint16_t id, const unsigned char *p, const unsigned char *end, uint16_t core,
		       uint16_t rtest)
{
	const unsigned char *q;

	switch (id) {
	case 0: q = memchr(p, 0, (size_t)(end - p)); return q ? (size_t)(q - p) + 9 : 0;
	case 1: return 9;
	case 2: return 12;
	case 17: case 18: return 20;
	case 19: return 16;
	}
	if (core && id >= core && id < core + 14) {
		switch (id - core) {
		case 0: q = memchr(p, 0, (size_t)(end - p)); return q ? (size_t)(q - p) + 1 + 48 : 0;
		case 1: q = memchr(p + 8, 0, (size_t)(end - p - 8)); if (!q) return 0;
			q = memchr(q + 1, 0, (size_t)(end - q - 1)); return q ? (size_t)(q - p) + 1 : 0;
		case 2: q = memchr(p + 8, 0, (size_t)(end - p - 8)); return q ? (size_t)(q - p) + 1 : 0;
		case 3: return 4;
		case 4: q = memchr(p + 4, 0, (size_t)(end - p - 4)); return q ? (size_t)(q - p) + 1 : 0;
		case 5: return 8;
		case 13: q = memchr(p, 0, (size_t)(end - p)); return q ? (size_t)(q - p) + 1 + 4 : 0;	/* event_rules */
		}
	}
	if (rtest && id >= rtest && id < rtest + 3) {
		switch (id - rtest) {
		case 0: return 20;
		case 1: return 12;
		case 2: return 8 + dec_u32(p + 4);
		}
	}
	return 0;
}

#define DEC_FAIL(...) do { if (!st->error[0]) snprintf(st->error, sizeof(st->error), __VA_ARGS__); \
			   goto out; } while (0)

/* Decodes the tracefile path; cb gets every event (builtin ones too). Returns 0, or -1 if the file
 * cannot be read (st->error says structural problems). */
static int dec_file(const char *path, uint32_t bs, uint16_t core, uint16_t rtest,
		    void (*cb)(void *arg, const struct dec_event *e), void *arg, struct dec_stats *st)
{
	FILE *f = fopen(path, "rb");
	unsigned char *blk = malloc(bs);
	uint64_t prev = 0, block = 0;
	int64_t last_id = -1;
	uint32_t pending_summary = 0;

	if (!f || !blk) {
		if (f)
			fclose(f);
		free(blk);
		return -1;
	}
	while (fread(blk, 1, bs, f) == bs) {
		uint32_t E = dec_u32(blk + bs - 4), id;
		uint64_t off = 26;
		int summary;

		if (E < 26 || E > bs - 30)
			DEC_FAIL("%s: block %llu: trailer %u out of range", path, (unsigned long long)block, E);
		if (dec_u32(blk) % 65536 != 17 || (blk[E] | blk[E + 1] << 8) != 18)
			DEC_FAIL("%s: block %llu: no block_start/block_end", path, (unsigned long long)block);
		id = dec_u32(blk + 22);
		if (dec_u32(blk + E + 22) != id)
			DEC_FAIL("%s: block %llu: block_end id differs", path, (unsigned long long)block);
		for (uint32_t i = E + 26; i < bs - 4; i++)
			if (blk[i])
				DEC_FAIL("%s: block %llu: non-zero fill at %u", path, (unsigned long long)block, i);
		summary = id == 0xFFFFFFFFu;
		st->blocks++;
		if (summary) {
			st->summary_blocks++;
		} else {
			if ((int64_t)id != last_id + 1 && (int64_t)id - last_id - 1 != pending_summary)
				st->id_gaps++;
			last_id = id;
			pending_summary = 0;
		}
		prev = dec_u64(blk + 14);
		if (dec_u64(blk + E + 14) < prev)
			DEC_FAIL("%s: block %llu: block_end before block_start", path, (unsigned long long)block);
		while (off < E) {
			struct dec_event e;
			uint32_t t = dec_u32(blk + off + 2);
			size_t sz;

			e.id = (uint16_t)(blk[off] | blk[off + 1] << 8);
			e.payload = blk + off + 6;
			sz = dec_size(e.id, e.payload, blk + E, core, rtest);
			if (!sz || off + 6 + sz > E)
				DEC_FAIL("%s: offset %llu: id %u: unknown or crosses block_end", path,
					 (unsigned long long)(block * bs + off), e.id);
			e.size = (uint32_t)sz;
			e.cycles = prev + (uint64_t)(int64_t)(int32_t)(t - (uint32_t)prev);
			if (e.id == 19) {
				if (dec_u64(e.payload + 8) != e.cycles && (uint32_t)dec_u64(e.payload + 8) != t)
					DEC_FAIL("%s: heartbeat time mismatch", path);
				e.cycles = dec_u64(e.payload + 8);
				st->heartbeats++;
			}
			/* a few cycles back is allowed (doc/format.md section 5: rdtsc skew) */
			if (e.cycles + (1u << 20) < prev)
				DEC_FAIL("%s: offset %llu: time goes back", path, (unsigned long long)(block * bs + off));
			prev = e.cycles;
			e.block_id = id;
			e.summary = summary;
			if (e.id == 1 && e.payload[8] < 5)
				st->lost[e.payload[8]] += dec_u64(e.payload);
			if (e.id == 2) {
				st->blocks_lost += dec_u32(e.payload);
				st->blocks_lost_events += dec_u64(e.payload + 4);
				pending_summary = dec_u32(e.payload);
			}
			if (e.id > 19)
				st->events++;
			if (cb)
				cb(arg, &e);
			off += 6 + sz;
		}
		if (off != E)
			DEC_FAIL("%s: block %llu: events end at %llu, not at %u", path, (unsigned long long)block,
				 (unsigned long long)off, E);
		block++;
	}
out:
	fclose(f);
	free(blk);
	return 0;
}

#endif
