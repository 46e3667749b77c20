/* SPDX-License-Identifier: MIT */
/* Terminal text: the one rule of every string from a trace or the command line that ltt prints as
 * plain text (thread names, region categories and labels, system.xml's node_name, paths in one-line
 * messages; common/escape_term.c). Any bytes in, text out that a terminal shows as it is, that fits on
 * one line, and from which the original bytes can be told back:
 *   - printable ASCII (0x20-0x7e) but '\' is written as it is; '\' is written \\;
 *   - a valid UTF-8 sequence (common/utf8.h) is written as it is, except the C1 controls U+0080-U+009F
 *     (C2 80 ... C2 9F: U+009B is a CSI to a UTF-8 terminal) and the bidirectional formatting
 *     characters U+200E, U+200F, U+202A-U+202E and U+2066-U+2069 (they reorder what follows), whose
 *     bytes are written \xHH each;
 *   - every other byte is written \xHH (two lowercase hex digits): the control characters 0x00-0x1f
 *     (ESC is \x1b, LF \x0a: no line is ever split), DEL, and each byte that is not part of a valid
 *     sequence (raw C1 bytes 0x80-0x9f included).
 * Nothing is dropped. Where a format has its own escaper (JSON, CSV, XML, C) that one is used instead.
 * The inline core serves every sink: copy ltt_term_plain bytes, write one ltt_term_escape_unit, repeat. */
#ifndef LTT_COMMON_ESCAPE_TERM_H
#define LTT_COMMON_ESCAPE_TERM_H

#include <stddef.h>
#include <stdio.h>

#include "common/utf8.h"

struct ltt_buf;

/* What one escaped byte takes at most (an escape unit of k bytes takes at most 4 * k). */
#define LTT_TERM_ESC_MAX 4

/* The valid UTF-8 sequence at s of l >= 2 bytes is a C1 control or a bidirectional formatting
 * character: written escaped. */
static inline int ltt_term_hidden(const unsigned char *s, size_t l)
{
	if (l == 2)
		return s[0] == 0xc2 && s[1] < 0xa0;
	if (l != 3 || s[0] != 0xe2)
		return 0;
	return (s[1] == 0x80 && (s[2] == 0x8e || s[2] == 0x8f || (s[2] >= 0xaa && s[2] <= 0xae))) ||
	       (s[1] == 0x81 && s[2] >= 0xa6 && s[2] <= 0xa9);
}

/* How many bytes from s (n bytes) are written as they are. */
static inline size_t ltt_term_plain(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, l;

	while (i < n) {
		unsigned char c = s[i];

		if (__builtin_expect(c >= 0x20 && c < 0x7f && c != '\\', 1))
			i++;
		else if (c >= 0x80 && (l = ltt_utf8_len(s + i, n - i)) && !ltt_term_hidden(s + i, l))
			i += l;
		else
			break;
	}
	return i;
}

/* The escape of what starts at s (n >= 1 bytes) where ltt_term_plain stopped, into e (room for
 * 3 * LTT_TERM_ESC_MAX bytes), its length in *elen; returns how many bytes of s it stands for. */
size_t ltt_term_escape_unit(const char *s, size_t n, char *e, size_t *elen);

/* s escaped into dst, which has room for LTT_TERM_ESC_MAX * n bytes; the length written. */
size_t ltt_term_escape(char *dst, const char *s, size_t n);
/* s escaped, added to b / written to f (0, or -EIO). */
void ltt_term_to_buf(struct ltt_buf *b, const char *s, size_t n);
int ltt_term_to_file(FILE *f, const char *s, size_t n);
/* NUL-terminated s escaped into buf (cap >= 1 bytes, NUL-terminated, cut at an escape's boundary
 * when it does not fit); returns buf, for printf's %s. */
const char *ltt_term_str(char *buf, size_t cap, const char *s);
/* NUL-terminated s escaped, in memory of its own (free() it); NULL when out of memory. */
char *ltt_term_dup(const char *s);

#endif
