/* SPDX-License-Identifier: MIT */
/* UTF-8 as the escapers read it (RFC 3629): a sequence is valid when it is the shortest encoding of a
 * code point up to U+10FFFF that is not a surrogate (U+D800-U+DFFF). Overlong forms (C0 80, E0 80 80,
 * F0 80 80 80), encoded surrogates (ED A0 80 ... ED BF BF), lead bytes C0, C1, F5-FF, stray
 * continuation bytes and sequences cut short are not. */
#ifndef LTT_COMMON_UTF8_H
#define LTT_COMMON_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* The length (1 to 4) of the valid sequence at s (n >= 1 bytes left), 0 when s[0] starts none. */
static inline size_t ltt_utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

#endif
