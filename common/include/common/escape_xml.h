/* SPDX-License-Identifier: MIT */
/* XML 1.0 text, for element content and attribute values between double quotes, in a UTF-8 document:
 * the one rule of every XML ltt writes (common/escape_xml.c). Any bytes in, well-formed XML out:
 *   - '&', '<', '>' and '"' are written &amp; &lt; &gt; &quot; ('\'' as it is);
 *   - TAB, LF and CR are written &#9; &#10; &#13; (so that an attribute keeps them: a parser turns
 *     them into spaces when they stand as they are);
 *   - every other control character (0x00-0x1f) is left out: XML 1.0 cannot carry it at all, not even
 *     as a character reference; DEL (0x7f) is written as it is (an XML Char);
 *   - a valid UTF-8 sequence (common/utf8.h) is written as it is, except U+FFFE and U+FFFF (not XML
 *     Chars), which become U+FFFD;
 *   - each byte that is not part of a valid sequence (invalid, overlong, a surrogate, cut short)
 *     becomes U+FFFD (EF BF BD).
 * The inline core serves every sink: copy ltt_xml_plain bytes, write one ltt_xml_escape_unit, repeat. */
#ifndef LTT_COMMON_ESCAPE_XML_H
#define LTT_COMMON_ESCAPE_XML_H

#include <stddef.h>
#include <stdio.h>

#include "common/utf8.h"

struct ltt_buf;

/* What one escape takes at most. */
#define LTT_XML_ESC_MAX 6

/* How many bytes from s (n bytes) are written as they are. */
static inline size_t ltt_xml_plain(const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, l;

	while (i < n) {
		unsigned char c = s[i];

		if (__builtin_expect(c >= 0x20 && c < 0x80 && c != '&' && c != '<' && c != '>' && c != '"', 1))
			i++;
		else if (c >= 0x80 && (l = ltt_utf8_len(s + i, n - i)) &&
			 !(l == 3 && c == 0xef && s[i + 1] == 0xbf && (s[i + 2] == 0xbe || s[i + 2] == 0xbf)))
			i += l;
		else
			break;
	}
	return i;
}

/* Where ltt_xml_plain stopped (n >= 1 bytes at s): writes the escape into e (LTT_XML_ESC_MAX bytes),
 * its length in *elen (0: left out); returns how many bytes of s it stands for. */
size_t ltt_xml_escape_unit(const char *s, size_t n, char *e, size_t *elen);

/* s escaped (no quotes) into dst, which has room for LTT_XML_ESC_MAX * n bytes; the length written. */
size_t ltt_xml_escape(char *dst, const char *s, size_t n);
/* s escaped, added to b / written to f (0, or -EIO). */
void ltt_xml_to_buf(struct ltt_buf *b, const char *s, size_t n);
int ltt_xml_to_file(FILE *f, const char *s, size_t n);

#endif
