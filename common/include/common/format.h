/* SPDX-License-Identifier: MIT */
/* common/format.h: the LTT trace format (doc/format.md) in code, in one place: the builtin ids, the
 * lost causes, the sizes of the builtin records, the block geometry (where block_end may stand, the
 * zero fill, the trailer), the byte accessors and the encoders and decoders of the builtin records.
 * Libc only and all static inline: the recorder, the reader, `ltt recover` and the tests include it,
 * so that changing a layout (the block trailer, a record) is one edit here, with doc/format.md in the
 * same commit. The installed inline event path (include/ltt/static/ring.h) cannot include it; the few
 * numbers it repeats are checked against these in recorder/ring.h, and the public reader's ids and
 * causes (include/ltt/reader.h) in reader/reader_internal.h. */
#ifndef LTT_COMMON_FORMAT_H
#define LTT_COMMON_FORMAT_H

#include <stdint.h>
#include <string.h>

/* ---- sizes (sections 4 to 7) --------------------------------------------------------------------- */

#define LTT_FMT_HEADER	  6u  /* event header: uint16 id + uint32 time (low half of the cycles) */
#define LTT_FMT_TIMESTAMP 16u /* uint32 seconds, uint32 nanoseconds, uint64 cycle_count */
#define LTT_FMT_TRAILER	  4u  /* uint32 at block_size - 4: the offset E of block_end */

/* Builtin ids (section 6): the builtin facility, never in control/facilities. */
enum ltt_builtin_id {
	LTT_B_FACILITY_LOAD = 0,
	LTT_B_EVENTS_LOST = 1,
	LTT_B_BLOCKS_LOST = 2,
	/* 3 .. 16 reserved */
	LTT_B_BLOCK_START = 17,
	LTT_B_BLOCK_END = 18,
	LTT_B_HEARTBEAT = 19,
	LTT_B_FIRST_BASE = 20, /* ids below are builtin; base codes of facilities start here */
};

/* Payload offsets of a timestamp (heartbeat) and block anchor (block_start, block_end). */
#define LTT_TS_SEC	  0u
#define LTT_TS_NSEC	  4u
#define LTT_TS_CYCLES	  8u
#define LTT_MARK_BLOCK_ID LTT_FMT_TIMESTAMP

/* Sizes of the builtin records, header included. */
#define LTT_BLOCK_MARK_SIZE  (LTT_FMT_HEADER + LTT_FMT_TIMESTAMP + 4u) /* block_start/end: 26 */
#define LTT_HEARTBEAT_SIZE   (LTT_FMT_HEADER + LTT_FMT_TIMESTAMP)      /* time_heartbeat: 22 */
#define LTT_LOST_RECORD_SIZE (LTT_FMT_HEADER + 8u + 1u)		       /* events_lost: 15 */
#define LTT_BLOCKS_LOST_SIZE (LTT_FMT_HEADER + 4u + 8u)		       /* blocks_lost: 18 */
/* facility_load of a name of n bytes: name, NUL, uint32 checksum, uint32 base_code. */
#define LTT_FACILITY_LOAD_PAYLOAD(n) ((n) + 1u + 4u + 4u)

/* block_id of a summary block (section 7): not part of the sequence. */
#define LTT_SUMMARY_BLOCK_ID 0xFFFFFFFFu

/* events_lost causes (section 7), as the uint8 of the record. */
enum ltt_lost_cause_rec {
	LTT_LOST_CAUSE_BUFFER_FULL,
	LTT_LOST_CAUSE_TOO_BIG,
	LTT_LOST_CAUSE_NESTED,
	LTT_LOST_CAUSE_TORN,
	LTT_LOST_CAUSE_INTERNAL,
	LTT_LOST_CAUSE_KERNEL,
	LTT_LOST_CAUSE_COUNT
};

/* Block sizes ltt's recorder writes (powers of two; readers take 64 bytes to 2^31). */
#define LTT_BLOCK_SIZE_MIN 4096u
#define LTT_BLOCK_SIZE_MAX (256u << 20)
/* Room the recorder keeps in a block for the builtin records: it records events of up to
 * block_size - LTT_BLOCK_ROOM bytes, header included (section 4), and counts larger ones too_big. */
#define LTT_BLOCK_ROOM 128u

_Static_assert(LTT_BLOCK_MARK_SIZE == 26, "doc/format.md section 4: block_start is 26 bytes");
_Static_assert(LTT_HEARTBEAT_SIZE == 22 && LTT_LOST_RECORD_SIZE == 15 && LTT_BLOCKS_LOST_SIZE == 18,
	       "doc/format.md section 6: payloads 16, 9 and 12 bytes");
_Static_assert(LTT_BLOCK_ROOM >= 2 * LTT_BLOCK_MARK_SIZE + LTT_FMT_TRAILER + LTT_HEARTBEAT_SIZE,
	       "a block holds block_start, a heartbeat, block_end and the trailer around its largest event");
_Static_assert(LTT_LOST_CAUSE_COUNT <= 8, "struct ltt_ring keeps lost[8]");
_Static_assert(LTT_BLOCK_SIZE_MAX <= UINT32_MAX / 2 && (LTT_BLOCK_SIZE_MIN & (LTT_BLOCK_SIZE_MIN - 1)) == 0,
	       "block offsets and the trailer are uint32");

/* ---- block geometry (section 4) ------------------------------------------------------------------ */
/* offset 0: block_start; 26: events; E: block_end; E + 26: zero fill; bs - 4: trailer = E. */

/* Offset of the trailer in a block of bs bytes. */
static inline uint64_t ltt_block_trailer_off(uint64_t bs)
{
	return bs - LTT_FMT_TRAILER;
}

/* Largest offset of block_end (E <= bs - 30): where a writer's reservations must end. */
static inline uint64_t ltt_block_end_max(uint64_t bs)
{
	return bs - LTT_FMT_TRAILER - LTT_BLOCK_MARK_SIZE;
}

/* Whether e can be block_end's offset in a block of bs bytes: 26 <= e <= bs - 30. */
static inline int ltt_block_end_ok(uint64_t bs, int64_t e)
{
	return bs >= LTT_BLOCK_MARK_SIZE * 2 + LTT_FMT_TRAILER && e >= (int64_t)LTT_BLOCK_MARK_SIZE &&
	       (uint64_t)e <= ltt_block_end_max(bs);
}

/* Bytes of zero fill after a block_end at e (from e + 26 up to the trailer). */
static inline uint64_t ltt_block_fill(uint64_t bs, uint64_t e)
{
	return ltt_block_end_max(bs) - e;
}

/* The largest payload the recorder records in a block of bs bytes. */
static inline uint32_t ltt_block_max_payload(uint32_t bs)
{
	return bs - LTT_BLOCK_ROOM - LTT_FMT_HEADER;
}

/* ---- byte accessors ------------------------------------------------------------------------------ */
/* ltt_getN/ltt_putN: native byte order (what the recorder writes). ltt_loadN: a trace's byte order,
 * be != 0 big-endian (section 2: a trace is in its writer's order). Any alignment. */

static inline uint16_t ltt_get16(const void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return v;
}

static inline uint32_t ltt_get32(const void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t ltt_get64(const void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline void ltt_put16(void *p, uint16_t v)
{
	memcpy(p, &v, 2);
}

static inline void ltt_put32(void *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

static inline void ltt_put64(void *p, uint64_t v)
{
	memcpy(p, &v, 8);
}

#define LTT_HOST_BE (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__)

static inline uint16_t ltt_load16(const void *p, int be)
{
	uint16_t v = ltt_get16(p);

	return be != LTT_HOST_BE ? __builtin_bswap16(v) : v;
}

static inline uint32_t ltt_load32(const void *p, int be)
{
	uint32_t v = ltt_get32(p);

	return be != LTT_HOST_BE ? __builtin_bswap32(v) : v;
}

static inline uint64_t ltt_load64(const void *p, int be)
{
	uint64_t v = ltt_get64(p);

	return be != LTT_HOST_BE ? __builtin_bswap64(v) : v;
}

/* ---- real time of a cycle count (section 5, "Real time") ---------------------------------------- */

/* The trace's linear map: start_ns (CLOCK_REALTIME, ns since the Epoch) at start_cycles, cps cycles
 * a second (0: 1 GHz). Times before the Epoch are 0. */
static inline void ltt_fmt_cycles_time(uint64_t start_cycles, uint64_t start_ns, uint64_t cps, uint64_t c,
				       uint32_t *sec, uint32_t *nsec)
{
	__int128 d = (__int128)(int64_t)(c - start_cycles), ns = (__int128)start_ns;

	ns += d * 1000000000 / (__int128)(cps ? cps : 1000000000u);
	if (ns < 0)
		ns = 0;
	*sec = (uint32_t)(ns / 1000000000);
	*nsec = (uint32_t)(ns % 1000000000);
}

/* ---- encoders (native byte order) ---------------------------------------------------------------- */

/* An event header: id and the low half of cycle count c. */
static inline void ltt_fmt_header(char *p, uint16_t id, uint64_t c)
{
	ltt_put16(p, id);
	ltt_put32(p + 2, (uint32_t)c);
}

/* time_heartbeat at c (real time sec.nsec). */
static inline void ltt_fmt_heartbeat(char *p, uint64_t c, uint32_t sec, uint32_t nsec)
{
	ltt_fmt_header(p, LTT_B_HEARTBEAT, c);
	ltt_put32(p + LTT_FMT_HEADER + LTT_TS_SEC, sec);
	ltt_put32(p + LTT_FMT_HEADER + LTT_TS_NSEC, nsec);
	ltt_put64(p + LTT_FMT_HEADER + LTT_TS_CYCLES, c);
}

/* block_start or block_end (id) at c, of block block_id. */
static inline void ltt_fmt_block_mark(char *p, uint16_t id, uint64_t c, uint32_t sec, uint32_t nsec,
				      uint32_t block_id)
{
	ltt_fmt_heartbeat(p, c, sec, nsec);
	ltt_put16(p, id);
	ltt_put32(p + LTT_FMT_HEADER + LTT_MARK_BLOCK_ID, block_id);
}

/* events_lost: count events of cause dropped, reported at c. */
static inline void ltt_fmt_events_lost(char *p, uint64_t c, uint64_t count, uint8_t cause)
{
	ltt_fmt_header(p, LTT_B_EVENTS_LOST, c);
	ltt_put64(p + LTT_FMT_HEADER, count);
	p[LTT_FMT_HEADER + 8] = (char)cause;
}

/* blocks_lost: blocks missing just before the next block, holding events. */
static inline void ltt_fmt_blocks_lost(char *p, uint64_t c, uint32_t blocks, uint64_t events)
{
	ltt_fmt_header(p, LTT_B_BLOCKS_LOST, c);
	ltt_put32(p + LTT_FMT_HEADER, blocks);
	ltt_put64(p + LTT_FMT_HEADER + 4, events);
}

/* One events_lost record at c per non-zero count[cause] (LTT_LOST_CAUSE_COUNT counts), in cause order,
 * from p on. Returns the bytes written. */
static inline uint32_t ltt_fmt_lost_records(char *p, uint64_t c, const uint64_t *count)
{
	uint32_t n = 0;

	for (unsigned i = 0; i < LTT_LOST_CAUSE_COUNT; i++)
		if (count[i]) {
			ltt_fmt_events_lost(p + n, c, count[i], (uint8_t)i);
			n += LTT_LOST_RECORD_SIZE;
		}
	return n;
}

/* The trailer of the block at blk (bs bytes): block_end at e. */
static inline void ltt_fmt_trailer(char *blk, uint64_t bs, uint32_t e)
{
	ltt_put32(blk + ltt_block_trailer_off(bs), e);
}

/* Ends the block at blk (bs bytes) whose block_end is written at e: the zero fill and the trailer. */
static inline void ltt_fmt_seal(char *blk, uint64_t bs, uint32_t e)
{
	memset(blk + e + LTT_BLOCK_MARK_SIZE, 0, ltt_block_fill(bs, e));
	ltt_fmt_trailer(blk, bs, e);
}

/* The same with the block_end given (its 26 bytes) copied to e first. */
static inline void ltt_fmt_close(char *blk, uint64_t bs, uint32_t e, const char *block_end)
{
	memcpy(blk + e, block_end, LTT_BLOCK_MARK_SIZE);
	ltt_fmt_seal(blk, bs, e);
}

/* Builds in buf (bs bytes) the summary block (section 7) announcing `blocks` blocks of `events`
 * events missing before the block whose block_start is next_start: its anchors repeat that one's. */
static inline void ltt_fmt_summary_block(char *buf, uint64_t bs, const char *next_start, uint32_t blocks,
					 uint64_t events)
{
	char *p = buf + LTT_BLOCK_MARK_SIZE;
	char end[LTT_BLOCK_MARK_SIZE];

	memcpy(buf, next_start, LTT_BLOCK_MARK_SIZE);
	ltt_put32(buf + LTT_FMT_HEADER + LTT_MARK_BLOCK_ID, LTT_SUMMARY_BLOCK_ID);
	ltt_fmt_blocks_lost(p, ltt_get64(next_start + LTT_FMT_HEADER + LTT_TS_CYCLES), blocks, events);
	memcpy(end, buf, LTT_BLOCK_MARK_SIZE);
	ltt_put16(end, LTT_B_BLOCK_END);
	ltt_fmt_close(buf, bs, LTT_BLOCK_MARK_SIZE + LTT_BLOCKS_LOST_SIZE, end);
}

/* ---- decoders (a trace's byte order: be) --------------------------------------------------------- */

/* The id and time fields of the event header at p. */
static inline uint16_t ltt_fmt_id(const void *p, int be)
{
	return ltt_load16(p, be);
}

static inline uint32_t ltt_fmt_time(const void *p, int be)
{
	return ltt_load32((const char *)p + 2, be);
}

/* A timestamp or block anchor, decoded from its payload. */
struct ltt_fmt_anchor {
	uint32_t sec, nsec;
	uint64_t cycles;
	uint32_t block_id; /* block anchors only */
};

static inline void ltt_fmt_anchor_get(const void *payload, int be, int with_block_id,
				      struct ltt_fmt_anchor *a)
{
	const char *q = payload;

	a->sec = ltt_load32(q + LTT_TS_SEC, be);
	a->nsec = ltt_load32(q + LTT_TS_NSEC, be);
	a->cycles = ltt_load64(q + LTT_TS_CYCLES, be);
	a->block_id = with_block_id ? ltt_load32(q + LTT_MARK_BLOCK_ID, be) : 0;
}

/* The cycle count and the block_id of the block anchor (block_start, block_end) at p (its header). */
static inline uint64_t ltt_fmt_mark_cycles(const void *p, int be)
{
	return ltt_load64((const char *)p + LTT_FMT_HEADER + LTT_TS_CYCLES, be);
}

static inline uint32_t ltt_fmt_mark_block_id(const void *p, int be)
{
	return ltt_load32((const char *)p + LTT_FMT_HEADER + LTT_MARK_BLOCK_ID, be);
}

/* The count and the cause of the events_lost record at p (its header). */
static inline uint64_t ltt_fmt_lost_count(const void *p, int be)
{
	return ltt_load64((const char *)p + LTT_FMT_HEADER, be);
}

static inline uint8_t ltt_fmt_lost_cause(const void *p)
{
	return ((const uint8_t *)p)[LTT_FMT_HEADER + 8];
}

/* The trailer of the block at blk (bs bytes), as written (the dialects read it differently). */
static inline uint32_t ltt_fmt_trailer_get(const void *blk, uint64_t bs, int be)
{
	return ltt_load32((const char *)blk + ltt_block_trailer_off(bs), be);
}

#endif
