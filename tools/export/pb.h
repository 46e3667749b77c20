/* SPDX-License-Identifier: MIT */
/* A small protobuf writer (wire format only, no schema) for the Perfetto export. A message is built
 * in a growable buffer; one byte is reserved for a nested message's length and filled at pb_end
 * (larger messages are moved forward to make room), so nothing is encoded twice. Varints, zigzag-free
 * int64 (two's complement, 10 bytes when negative), fixed64, doubles and length-delimited bytes. */
#ifndef LTT_TOOLS_EXPORT_PB_H
#define LTT_TOOLS_EXPORT_PB_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PB_VARINT = 0, PB_FIXED64 = 1, PB_LEN = 2, PB_FIXED32 = 5 };

struct pb {
	uint8_t *buf;
	size_t len, cap;
	int error;		/* -ENOMEM once growing failed; writes are then dropped */
};

int pb_grow(struct pb *p, size_t n);	/* pb.c */
void pb_free(struct pb *p);

/* Room for n more bytes: 1, or 0 after an allocation failure (p->error set). */
static inline int pb_room(struct pb *p, size_t n)
{
	if (__builtin_expect(p->len + n <= p->cap, 1))
		return 1;
	return pb_grow(p, n) == 0;
}

static inline uint8_t *pb_put_varint(uint8_t *w, uint64_t v)
{
	while (v >= 0x80) {
		*w++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*w++ = (uint8_t)v;
	return w;
}

/* A tag and a varint value (uint32/64, int32/64 as two's complement, enum, bool). */
static inline void pb_uint(struct pb *p, uint32_t field, uint64_t v)
{
	if (!pb_room(p, 20))
		return;
	p->len = (size_t)(pb_put_varint(pb_put_varint(p->buf + p->len, (uint64_t)field << 3 | PB_VARINT), v) - p->buf);
}

static inline void pb_int(struct pb *p, uint32_t field, int64_t v)
{
	pb_uint(p, field, (uint64_t)v);
}

static inline void pb_fixed64(struct pb *p, uint32_t field, uint64_t v)
{
	uint8_t *w;

	if (!pb_room(p, 18))
		return;
	w = pb_put_varint(p->buf + p->len, (uint64_t)field << 3 | PB_FIXED64);
	for (int i = 0; i < 8; i++)
		*w++ = (uint8_t)(v >> (8 * i));	/* little endian on the wire */
	p->len = (size_t)(w - p->buf);
}

static inline void pb_double(struct pb *p, uint32_t field, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	pb_fixed64(p, field, v);
}

static inline void pb_bytes(struct pb *p, uint32_t field, const void *s, size_t n)
{
	uint8_t *w;

	if (!pb_room(p, n + 20))
		return;
	w = pb_put_varint(pb_put_varint(p->buf + p->len, (uint64_t)field << 3 | PB_LEN), n);
	memcpy(w, s, n);
	p->len = (size_t)(w + n - p->buf);
}

static inline void pb_str(struct pb *p, uint32_t field, const char *s)
{
	pb_bytes(p, field, s, strlen(s));
}

/* Opens a nested message (or any length-delimited field): returns the offset to give pb_end. One
 * byte is reserved for the length. */
static inline size_t pb_begin(struct pb *p, uint32_t field)
{
	uint8_t *w;

	if (!pb_room(p, 16))
		return 0;
	w = pb_put_varint(p->buf + p->len, (uint64_t)field << 3 | PB_LEN);
	p->len = (size_t)(w - p->buf) + 1;
	return p->len;
}

/* Closes the message opened at off: a length under 128 fits the reserved byte (small messages, the
 * common case); a larger message is moved forward to make room for its length. Messages still open
 * started before off, so their offsets stay valid. */
static inline void pb_end(struct pb *p, size_t off)
{
	size_t n = p->len - off, extra = 0;
	uint8_t *w;

	if (!off || p->error)
		return;
	if (__builtin_expect(n < 128, 1)) {
		p->buf[off - 1] = (uint8_t)n;
		return;
	}
	for (size_t v = n >> 7; v; v >>= 7)
		extra++;
	if (!pb_room(p, extra))
		return;
	memmove(p->buf + off + extra, p->buf + off, n);
	w = pb_put_varint(p->buf + off - 1, n);
	(void)w;
	p->len += extra;
}

#endif
