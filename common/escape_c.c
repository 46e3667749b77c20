/* SPDX-License-Identifier: MIT */
/* C string literals (common/escape_c.h). */
#include <errno.h>
#include <string.h>

#include "common/buf.h"
#include "common/escape_c.h"

size_t ltt_c_escape(char *dst, const char *s, size_t n)
{
	char *p = dst;
	int hex = 0;

	for (size_t i = 0; i < n; ) {
		size_t j = ltt_c_plain(s, i, n, hex);

		memcpy(p, s + i, j - i);
		p += j - i;
		i = j;
		hex = 0;
		if (i < n) {
			size_t k = ltt_c_escape_byte((unsigned char)s[i++], p);

			p += k;
			hex = k == 4;
		}
	}
	return (size_t)(p - dst);
}

void ltt_c_to_buf(struct ltt_buf *b, const char *s, size_t n)
{
	char e[LTT_C_ESC_MAX];
	int hex = 0;

	ltt_buf_putc(b, '"');
	for (size_t i = 0; i < n; ) {
		size_t j = ltt_c_plain(s, i, n, hex);

		ltt_buf_add(b, s + i, j - i);
		i = j;
		hex = 0;
		if (i < n) {
			size_t k = ltt_c_escape_byte((unsigned char)s[i++], e);

			ltt_buf_add(b, e, k);
			hex = k == 4;
		}
	}
	ltt_buf_putc(b, '"');
}

int ltt_c_to_file(FILE *f, const char *s, size_t n)
{
	char e[LTT_C_ESC_MAX];
	int hex = 0;

	fputc('"', f);
	for (size_t i = 0; i < n; ) {
		size_t j = ltt_c_plain(s, i, n, hex);

		fwrite(s + i, 1, j - i, f);
		i = j;
		hex = 0;
		if (i < n) {
			size_t k = ltt_c_escape_byte((unsigned char)s[i++], e);

			fwrite(e, 1, k, f);
			hex = k == 4;
		}
	}
	return fputc('"', f) == EOF ? -EIO : 0;
}
