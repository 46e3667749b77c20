/* SPDX-License-Identifier: MIT */
/* CSV fields (common/escape_csv.h). */
#include <errno.h>

#include "common/buf.h"
#include "common/escape_csv.h"

size_t ltt_csv_escape(char *dst, const char *s, size_t n)
{
	char *p = dst;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			*p++ = '"';
		*p++ = s[i];
	}
	return (size_t)(p - dst);
}

void ltt_csv_to_buf(struct ltt_buf *b, const char *s, size_t n, int quote)
{
	char *p;

	if (!quote && !ltt_csv_needs_quotes(s, n)) {
		ltt_buf_add(b, s, n);
		return;
	}
	if (n > ((size_t)-1) / 4 || !(p = ltt_buf_reserve(b, 2 * n + 2)))
		return;
	p[0] = '"';
	n = ltt_csv_escape(p + 1, s, n);
	p[n + 1] = '"';
	ltt_buf_commit(b, n + 2);
}

int ltt_csv_to_file(FILE *f, const char *s, size_t n, int quote)
{
	const char *e = s + n, *q;

	if (!quote && !ltt_csv_needs_quotes(s, n)) {
		fwrite(s, 1, n, f);
		return ferror(f) ? -EIO : 0;
	}
	fputc('"', f);
	for (; s < e; s = q + 1) {
		q = memchr(s, '"', (size_t)(e - s));
		if (!q) {
			fwrite(s, 1, (size_t)(e - s), f);
			break;
		}
		fwrite(s, 1, (size_t)(q - s + 1), f);
		fputc('"', f);
	}
	fputc('"', f);
	return ferror(f) ? -EIO : 0;
}
