/* SPDX-License-Identifier: MIT */
/* JSON strings (common/escape_json.h). */
#include <errno.h>
#include <string.h>

#include "common/buf.h"
#include "common/escape_json.h"

size_t ltt_json_escape(char *dst, const char *s, size_t n)
{
	char *p = dst;
	size_t i = 0;

	while (i < n) {
		size_t run = ltt_json_plain(s + i, n - i);

		memcpy(p, s + i, run);
		p += run;
		i += run;
		if (i < n)
			p += ltt_json_escape_byte((unsigned char)s[i++], p);
	}
	return (size_t)(p - dst);
}

void ltt_json_to_buf(struct ltt_buf *b, const char *s, size_t n)
{
	size_t i = 0;
	char e[LTT_JSON_ESC_MAX];

	ltt_buf_putc(b, '"');
	while (i < n) {
		size_t run = ltt_json_plain(s + i, n - i);

		ltt_buf_add(b, s + i, run);
		i += run;
		if (i < n)
			ltt_buf_add(b, e, ltt_json_escape_byte((unsigned char)s[i++], e));
	}
	ltt_buf_putc(b, '"');
}

int ltt_json_to_file(FILE *f, const char *s, size_t n)
{
	size_t i = 0;
	char e[LTT_JSON_ESC_MAX];

	fputc('"', f);
	while (i < n) {
		size_t run = ltt_json_plain(s + i, n - i);

		fwrite(s + i, 1, run, f);
		i += run;
		if (i < n)
			fwrite(e, 1, ltt_json_escape_byte((unsigned char)s[i++], e), f);
	}
	return fputc('"', f) == EOF ? -EIO : 0;
}
