/* SPDX-License-Identifier: MIT */
/* Terminal text (common/escape_term.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"
#include "common/escape_term.h"

static size_t hex_byte(unsigned char c, char *e)
{
	static const char hex[] = "0123456789abcdef";

	e[0] = '\\';
	e[1] = 'x';
	e[2] = hex[c >> 4];
	e[3] = hex[c & 15];
	return 4;
}

size_t ltt_term_escape_unit(const char *str, size_t n, char *e, size_t *elen)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t l = s[0] >= 0x80 ? ltt_utf8_len(s, n) : 0;

	if (s[0] == '\\') {
		e[0] = e[1] = '\\';
		*elen = 2;
		return 1;
	}
	if (l < 2)	/* a control character or a byte of no valid sequence */
		l = 1;
	*elen = 0;
	for (size_t i = 0; i < l; i++)	/* a hidden sequence (C1, bidi) is written byte by byte */
		*elen += hex_byte(s[i], e + *elen);
	return l;
}

size_t ltt_term_escape(char *dst, const char *s, size_t n)
{
	char *p = dst;
	size_t i = 0, elen;

	while (i < n) {
		size_t run = ltt_term_plain(s + i, n - i);

		memcpy(p, s + i, run);
		p += run;
		i += run;
		if (i < n) {
			i += ltt_term_escape_unit(s + i, n - i, p, &elen);
			p += elen;
		}
	}
	return (size_t)(p - dst);
}

void ltt_term_to_buf(struct ltt_buf *b, const char *s, size_t n)
{
	char e[3 * LTT_TERM_ESC_MAX];
	size_t i = 0, elen;

	while (i < n) {
		size_t run = ltt_term_plain(s + i, n - i);

		ltt_buf_add(b, s + i, run);
		i += run;
		if (i < n) {
			i += ltt_term_escape_unit(s + i, n - i, e, &elen);
			ltt_buf_add(b, e, elen);
		}
	}
}

int ltt_term_to_file(FILE *f, const char *s, size_t n)
{
	char e[3 * LTT_TERM_ESC_MAX];
	size_t i = 0, elen;

	while (i < n) {
		size_t run = ltt_term_plain(s + i, n - i);

		fwrite(s + i, 1, run, f);
		i += run;
		if (i < n) {
			i += ltt_term_escape_unit(s + i, n - i, e, &elen);
			fwrite(e, 1, elen, f);
		}
	}
	return ferror(f) ? -EIO : 0;
}

const char *ltt_term_str(char *buf, size_t cap, const char *s)
{
	char e[3 * LTT_TERM_ESC_MAX];
	size_t n = strlen(s), i = 0, len = 0, elen;

	while (i < n) {
		size_t run = ltt_term_plain(s + i, n - i);

		if (len + run >= cap) {	/* cut: whole UTF-8 sequences only */
			run = cap - 1 - len;
			while (run && ((unsigned char)s[i + run] & 0xc0) == 0x80)
				run--;
			memcpy(buf + len, s + i, run);
			len += run;
			break;
		}
		memcpy(buf + len, s + i, run);
		len += run;
		i += run;
		if (i < n) {
			size_t k = ltt_term_escape_unit(s + i, n - i, e, &elen);

			if (len + elen >= cap)
				break;
			memcpy(buf + len, e, elen);
			len += elen;
			i += k;
		}
	}
	buf[len] = 0;
	return buf;
}

char *ltt_term_dup(const char *s)
{
	size_t n = strlen(s);
	char *d = malloc(LTT_TERM_ESC_MAX * n + 1);

	if (d)
		d[ltt_term_escape(d, s, n)] = 0;
	return d;
}
