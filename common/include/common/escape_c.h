/* SPDX-License-Identifier: MIT */
/* C string literals, the one rule of every C string ltt writes: ltt dump's text formats and the
 * headers ltt gen generates (common/escape_c.c). Any bytes in, the body of a C string literal out that
 * a C compiler reads back as exactly those bytes:
 *   - '"' and '\' are written \" and \\; LF and TAB \n and \t;
 *   - printable ASCII (0x20-0x7e) is written as it is, but for two cases that C would read otherwise:
 *     a '?' right after a '?' is written \? (no trigraph), and a hex digit right after a byte written
 *     \xHH is written \xHH too (C reads every hex digit after \x into the escape);
 *   - every other byte (the other control characters, DEL, every byte from 0x80: UTF-8 or not) is
 *     written \xHH (two lowercase hex digits).
 * The inline core serves every sink: copy ltt_c_plain bytes, write one ltt_c_escape_byte, repeat. */
#ifndef LTT_COMMON_ESCAPE_C_H
#define LTT_COMMON_ESCAPE_C_H

#include <stddef.h>
#include <stdio.h>

struct ltt_buf;

/* What one escaped byte takes at most. */
#define LTT_C_ESC_MAX 4

static inline int ltt_c_is_hex_digit(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* The end of the run of bytes written as they are that starts at s[i] (i < n); after_hex: what was
 * written last is an \xHH escape (a hex digit cannot follow it). s[i - 1] is looked at when i > 0. */
static inline size_t ltt_c_plain(const char *str, size_t i, size_t n, int after_hex)
{
	const unsigned char *s = (const unsigned char *)str;

	if (after_hex && i < n && ltt_c_is_hex_digit(s[i]))
		return i;
	for (; i < n; i++) {
		unsigned char c = s[i];

		if (__builtin_expect(c < 0x20 || c >= 0x7f || c == '"' || c == '\\', 0))
			break;
		if (__builtin_expect(c == '?', 0) && i > 0 && s[i - 1] == '?')
			break;
	}
	return i;
}

/* The escape of byte c where ltt_c_plain stopped, into e (LTT_C_ESC_MAX bytes); its length (4 for an
 * \xHH escape: pass after_hex to the next ltt_c_plain). */
static inline size_t ltt_c_escape_byte(unsigned char c, char *e)
{
	static const char hex[] = "0123456789abcdef";

	e[0] = '\\';
	if (c == '"' || c == '\\' || c == '?') {
		e[1] = (char)c;
		return 2;
	}
	if (c == '\n' || c == '\t') {
		e[1] = c == '\n' ? 'n' : 't';
		return 2;
	}
	e[1] = 'x';
	e[2] = hex[c >> 4];
	e[3] = hex[c & 15];
	return 4;
}

/* s escaped (no quotes) into dst, which has room for LTT_C_ESC_MAX * n bytes; the length written. */
size_t ltt_c_escape(char *dst, const char *s, size_t n);
/* A C string literal of s, quotes included, added to b / written to f (0, or -EIO). */
void ltt_c_to_buf(struct ltt_buf *b, const char *s, size_t n);
int ltt_c_to_file(FILE *f, const char *s, size_t n);

#endif
