/* SPDX-License-Identifier: MIT */
/* The buffered output every command writes its standard output or files with (struct dump_out,
 * toolkit/dump_out.c): the dump_out_* helpers append to a 256 KiB buffer written with write(2) when
 * full and by dump_out_flush (no stdio per event); the dump_put_* ones format into reserved room, for
 * the formats' hot paths. `ltt dump`'s formats (dump_format.h) are one of its users. */
#ifndef LTT_TOOLKIT_DUMP_OUT_H
#define LTT_TOOLKIT_DUMP_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- buffered output ------------------------------------------------------------------------------ */

#define DUMP_OUT_SIZE (256 * 1024)

struct dump_out {
	int fd;
	int error;		/* first write error (negative errno), then output stops */
	size_t len;
	char buf[DUMP_OUT_SIZE];
};

/* Writes out what is buffered; returns 0 or the first write error. */
int dump_out_flush(struct dump_out *o);

/* Makes room for n bytes (n <= DUMP_OUT_SIZE) and returns where to write them. */
static inline char *dump_out_reserve(struct dump_out *o, size_t n)
{
	if (__builtin_expect(o->len + n > DUMP_OUT_SIZE, 0))
		dump_out_flush(o);
	return o->buf + o->len;
}

static inline void dump_out_mem(struct dump_out *o, const char *s, size_t n)
{
	while (n > DUMP_OUT_SIZE / 2) {	/* long strings go in pieces */
		dump_out_mem(o, s, DUMP_OUT_SIZE / 2);
		s += DUMP_OUT_SIZE / 2;
		n -= DUMP_OUT_SIZE / 2;
	}
	memcpy(dump_out_reserve(o, n), s, n);
	o->len += n;
}

static inline void dump_out_str(struct dump_out *o, const char *s)
{
	dump_out_mem(o, s, strlen(s));
}

static inline void dump_out_char(struct dump_out *o, char c)
{
	*dump_out_reserve(o, 1) = c;
	o->len++;
}

/* The writers below are inlined where they are used: each is a few instructions once inlined, and a
 * call per integer showed as 13% of `ltt dump` (perf record). */
#define DUMP_INLINE static inline __attribute__((always_inline))

/* Direct writers for formats that reserve room first (dump_out_reserve) and fill it with a local
 * pointer: each returns the pointer past what it wrote. dump_put_u64 writes at most 20 bytes,
 * dump_put_time at most 30. Commit with dump_out_commit. */
extern const char dump_digit_pairs[201];

/* v < 10000 in 1 to 4 digits. */
DUMP_INLINE char *dump_put_u4(char *p, uint32_t v)
{
	if (v < 100) {
		if (v < 10) {
			*p = (char)('0' + v);
			return p + 1;
		}
		memcpy(p, dump_digit_pairs + 2 * v, 2);
		return p + 2;
	}
	if (v < 1000) {
		*p = (char)('0' + v / 100);
		memcpy(p + 1, dump_digit_pairs + 2 * (v % 100), 2);
		return p + 3;
	}
	memcpy(p, dump_digit_pairs + 2 * (v / 100), 2);
	memcpy(p + 2, dump_digit_pairs + 2 * (v % 100), 2);
	return p + 4;
}

/* The 8 digits of v < 10^8 (leading zeros) as the 8 bytes of a word in memory order: four independent
 * digit pairs, no chain of divisions, stored at once (no narrow stores for a wide load to trip on). */
DUMP_INLINE uint64_t dump_digits8(uint32_t v)
{
	uint32_t a = v / 10000, b = v % 10000;
	uint16_t d0, d1, d2, d3;

	memcpy(&d0, dump_digit_pairs + 2 * (a / 100), 2);
	memcpy(&d1, dump_digit_pairs + 2 * (a % 100), 2);
	memcpy(&d2, dump_digit_pairs + 2 * (b / 100), 2);
	memcpy(&d3, dump_digit_pairs + 2 * (b % 100), 2);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return d0 | (uint64_t)d1 << 16 | (uint64_t)d2 << 32 | (uint64_t)d3 << 48;
#else
	return (uint64_t)d0 << 48 | (uint64_t)d1 << 32 | (uint64_t)d2 << 16 | d3;
#endif
}

/* v < 10^8 in exactly 8 digits (leading zeros). */
DUMP_INLINE char *dump_put_8(char *p, uint32_t v)
{
	uint64_t d = dump_digits8(v);

	memcpy(p, &d, 8);
	return p + 8;
}

/* v < 10^8 without leading zeros. */
DUMP_INLINE char *dump_put_u8(char *p, uint32_t v)
{
	uint32_t lo;

	if (v < 10000)
		return dump_put_u4(p, v);
	lo = v % 10000;
	p = dump_put_u4(p, v / 10000);
	memcpy(p, dump_digit_pairs + 2 * (lo / 100), 2);
	memcpy(p + 2, dump_digit_pairs + 2 * (lo % 100), 2);
	return p + 4;
}

DUMP_INLINE char *dump_put_u64(char *p, uint64_t v)
{
	if (v < 100000000u)
		return dump_put_u8(p, (uint32_t)v);
	if (v < 10000000000000000ull) {
		p = dump_put_u8(p, (uint32_t)(v / 100000000u));
		return dump_put_8(p, (uint32_t)(v % 100000000u));
	}
	p = dump_put_u4(p, (uint32_t)(v / 10000000000000000ull));
	p = dump_put_8(p, (uint32_t)(v / 100000000u % 100000000u));
	return dump_put_8(p, (uint32_t)(v % 100000000u));
}

DUMP_INLINE char *dump_put_time(char *p, uint64_t ns)
{
	uint32_t frac = (uint32_t)(ns % 1000000000ull);

	p = dump_put_u64(p, ns / 1000000000ull);
	p[0] = '.';
	p[1] = (char)('0' + frac / 100000000u);
	return dump_put_8(p + 2, frac % 100000000u);
}

/* n bytes of s at p, for a literal built by the format with DUMP_PAD readable bytes after it, written
 * where DUMP_PAD bytes more than n are reserved: one fixed-size copy of 16, 32 or 64 bytes (one to
 * four vector moves) when n is at most DUMP_PAD, instead of a call to memcpy. */
#define DUMP_PAD 64
DUMP_INLINE char *dump_put_padded(char *p, const char *s, size_t n)
{
	if (__builtin_expect(n <= 16, 1))
		memcpy(p, s, 16);
	else if (__builtin_expect(n <= 32, 1))
		memcpy(p, s, 32);
	else if (__builtin_expect(n <= DUMP_PAD, 1))
		memcpy(p, s, DUMP_PAD);
	else
		memcpy(p, s, n);
	return p + n;
}

#define dump_put_lit(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

static inline void dump_out_commit(struct dump_out *o, const char *end)
{
	o->len = (size_t)(end - o->buf);
}

/* Decimal integers. */
void dump_out_u64(struct dump_out *o, uint64_t v);
void dump_out_i64(struct dump_out *o, int64_t v);
/* "SECONDS.NANOSECONDS", 9 digits of nanoseconds. */
void dump_out_time(struct dump_out *o, uint64_t ns);
/* A double, shortest form that reads back the same ("%.17g" at worst); nan/inf as given by the format. */
void dump_out_double(struct dump_out *o, double d);
/* The escapers of common/, each language's one rule (stated in common/include/common/escape_*.h):
 * a JSON string literal, quotes included (bytes that are not valid UTF-8 become \u00XX); a C string
 * literal, quotes included (\" \\ \n \t \xHH); XML text for content or a double-quoted attribute; one
 * CSV field, quoted when it must be (or always, quote nonzero); terminal text. The _body forms write the inside of a
 * JSON string / a quoted CSV field, without the quotes. */
void dump_out_json_string(struct dump_out *o, const char *s, size_t n);
void dump_out_json_body(struct dump_out *o, const char *s, size_t n);
void dump_out_csv_body(struct dump_out *o, const char *s, size_t n);
void dump_out_c_string(struct dump_out *o, const char *s, size_t n);
void dump_out_xml_text(struct dump_out *o, const char *s, size_t n);
void dump_out_csv_field(struct dump_out *o, const char *s, size_t n, int quote);
/* Terminal text (common/escape_term.h): a string of the trace (a thread name...) in a text format. */
void dump_out_term(struct dump_out *o, const char *s, size_t n);
/* printf into o, for what is not on a hot path: at most 511 bytes a call (more is cut). */
void dump_out_printf(struct dump_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An unsigned integer of `bytes` bytes (1 to 8) at q in a payload of byte order be: for formats that
 * read flat structs straight from the payload. */
static inline uint64_t dump_get_uint(const unsigned char *q, unsigned bytes, int be)
{
	uint64_t v = 0;

	if (be)
		for (unsigned i = 0; i < bytes; i++)
			v = v << 8 | q[i];
	else
		for (unsigned i = bytes; i-- > 0; )
			v = v << 8 | q[i];
	return v;
}

#endif
