/* SPDX-License-Identifier: MIT */
/* JSON strings (RFC 8259), the one rule of every JSON ltt writes (common/escape_json.c). Any bytes in,
 * valid JSON out:
 *   - '"' and '\' are written \" and \\; LF and TAB \n and \t;
 *   - every other control character (0x00-0x1f) is written \u00XX (two lowercase hex digits);
 *     DEL (0x7f) is written as it is (JSON allows it);
 *   - a valid UTF-8 sequence (common/utf8.h) is written as it is;
 *   - each byte that is not part of a valid sequence (invalid, overlong, a surrogate, cut short) is
 *     written \u00XX of its value: the byte read as Latin-1. Nothing is dropped and nothing becomes
 *     U+FFFD, so the original bytes can be told back from the output (ltt dump's rule since 0.1:
 *     tests/golden/reader/kinds.json).
 * The inline core below serves every sink: copy ltt_json_plain bytes, write one ltt_json_escape_byte,
 * repeat (ltt dump's output layer runs it on every string it writes). */
#ifndef LTT_COMMON_ESCAPE_JSON_H
#define LTT_COMMON_ESCAPE_JSON_H

#include <stddef.h>
#include <stdio.h>

#include "common/utf8.h"

struct ltt_buf;

/* What one escaped byte takes at most. */
#define LTT_JSON_ESC_MAX 6

/* How many bytes from s (n bytes) are written as they are. */
static inline size_t ltt_json_plain(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, l;

	while (i < n) {
		unsigned char c = s[i];

		if (__builtin_expect(c >= 0x20 && c < 0x80 && c != '"' && c != '\\', 1))
			i++;
		else if (c >= 0x80 && (l = ltt_utf8_len(s + i, n - i)))
			i += l;
		else
			break;
	}
	return i;
}

/* The escape of byte c where ltt_json_plain stopped, into e (LTT_JSON_ESC_MAX bytes); its length. */
static inline size_t ltt_json_escape_byte(unsigned char c, char *e)
{
	static const char hex[] = "0123456789abcdef";

	e[0] = '\\';
	if (c == '"' || c == '\\') {
		e[1] = (char)c;
		return 2;
	}
	if (c == '\n' || c == '\t') {
		e[1] = c == '\n' ? 'n' : 't';
		return 2;
	}
	e[1] = 'u';
	e[2] = '0';
	e[3] = '0';
	e[4] = hex[c >> 4];
	e[5] = hex[c & 15];
	return 6;
}

/* s escaped (no quotes) into dst, which has room for LTT_JSON_ESC_MAX * n bytes; the length written. */
size_t ltt_json_escape(char *dst, const char *s, size_t n);
/* A JSON string literal of s, quotes included, added to b / written to f (0, or -EIO). */
void ltt_json_to_buf(struct ltt_buf *b, const char *s, size_t n);
int ltt_json_to_file(FILE *f, const char *s, size_t n);

#endif
