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

#include "common/format.h"

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
	uint64_t lost[LTT_LOST_CAUSE_COUNT]; /* events_lost by cause */
	uint64_t blocks_lost, blocks_lost_events;
	uint64_t id_gaps;	/* block_id jumps not explained by a summary block */
	char error[256];	/* first structural error, "" if none */
};

#define dec_u32 ltt_get32
#define dec_u64 ltt_get64

/* Payload size of the event id at p (end: the block_end offset); 0 on an unknown id. */
static size_t dec_size(uint16_t id, const unsigned char *p, const unsigned char *end, uint16_t core,
		       uint16_t rtest)
{
	const unsigned char *q;

	switch (id) {
	case LTT_B_FACILITY_LOAD:
		q = memchr(p, 0, (size_t)(end - p));
		return q ? LTT_FACILITY_LOAD_PAYLOAD((size_t)(q - p)) : 0;
	case LTT_B_EVENTS_LOST:
		return LTT_LOST_RECORD_SIZE - LTT_FMT_HEADER;
	case LTT_B_BLOCKS_LOST:
		return LTT_BLOCKS_LOST_SIZE - LTT_FMT_HEADER;
	case LTT_B_BLOCK_START:
	case LTT_B_BLOCK_END:
		return LTT_BLOCK_MARK_SIZE - LTT_FMT_HEADER;
	case LTT_B_HEARTBEAT:
		return LTT_HEARTBEAT_SIZE - LTT_FMT_HEADER;
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
		uint32_t E = dec_u32(blk + ltt_block_trailer_off(bs)), id;
		uint64_t off = LTT_BLOCK_MARK_SIZE;
		int summary;

		if (!ltt_block_end_ok(bs, E))
			DEC_FAIL("%s: block %llu: trailer %u out of range", path, (unsigned long long)block, E);
		if (ltt_get16(blk) != LTT_B_BLOCK_START || ltt_get16(blk + E) != LTT_B_BLOCK_END)
			DEC_FAIL("%s: block %llu: no block_start/block_end", path, (unsigned long long)block);
		id = ltt_fmt_mark_block_id(blk, LTT_HOST_BE);
		if (ltt_fmt_mark_block_id(blk + E, LTT_HOST_BE) != id)
			DEC_FAIL("%s: block %llu: block_end id differs", path, (unsigned long long)block);
		for (uint32_t i = E + LTT_BLOCK_MARK_SIZE; i < ltt_block_trailer_off(bs); i++)
			if (blk[i])
				DEC_FAIL("%s: block %llu: non-zero fill at %u", path, (unsigned long long)block, i);
		summary = id == LTT_SUMMARY_BLOCK_ID;
		st->blocks++;
		if (summary) {
			st->summary_blocks++;
		} else {
			if ((int64_t)id != last_id + 1 && (int64_t)id - last_id - 1 != pending_summary)
				st->id_gaps++;
			last_id = id;
			pending_summary = 0;
		}
		prev = ltt_fmt_mark_cycles(blk, LTT_HOST_BE);
		if (ltt_fmt_mark_cycles(blk + E, LTT_HOST_BE) < prev)
			DEC_FAIL("%s: block %llu: block_end before block_start", path, (unsigned long long)block);
		while (off < E) {
			struct dec_event e;
			uint32_t t = ltt_fmt_time(blk + off, LTT_HOST_BE);
			size_t sz;

			e.id = ltt_get16(blk + off);
			e.payload = blk + off + LTT_FMT_HEADER;
			sz = dec_size(e.id, e.payload, blk + E, core, rtest);
			if (!sz || off + LTT_FMT_HEADER + sz > E)
				DEC_FAIL("%s: offset %llu: id %u: unknown or crosses block_end", path,
					 (unsigned long long)(block * bs + off), e.id);
			e.size = (uint32_t)sz;
			e.cycles = prev + (uint64_t)(int64_t)(int32_t)(t - (uint32_t)prev);
			if (e.id == LTT_B_HEARTBEAT) {
				uint64_t hc = ltt_get64(e.payload + LTT_TS_CYCLES);

				if (hc != e.cycles && (uint32_t)hc != t)
					DEC_FAIL("%s: heartbeat time mismatch", path);
				e.cycles = hc;
				st->heartbeats++;
			}
			/* a few cycles back is allowed (doc/format.md section 5: rdtsc skew) */
			if (e.cycles + (1u << 20) < prev)
				DEC_FAIL("%s: offset %llu: time goes back", path, (unsigned long long)(block * bs + off));
			prev = e.cycles;
			e.block_id = id;
			e.summary = summary;
			if (e.id == LTT_B_EVENTS_LOST && e.payload[8] < LTT_LOST_CAUSE_COUNT)
				st->lost[e.payload[8]] += dec_u64(e.payload);
			if (e.id == LTT_B_BLOCKS_LOST) {
				st->blocks_lost += dec_u32(e.payload);
				st->blocks_lost_events += dec_u64(e.payload + 4);
				pending_summary = dec_u32(e.payload);
			}
			if (e.id >= LTT_B_FIRST_BASE)
				st->events++;
			if (cb)
				cb(arg, &e);
			off += LTT_FMT_HEADER + sz;
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
