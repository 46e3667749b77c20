/* SPDX-License-Identifier: MIT */
/* CSV fields (RFC 4180), the one rule of every CSV ltt writes (common/escape_csv.c):
 *   - a field is written as it is unless it holds ',', '"', CR or LF, or the caller wants it quoted:
 *     then it stands between double quotes, each '"' in it doubled;
 *   - nothing else changes: CSV has no escapes, so control characters and bytes that are not UTF-8
 *     are written as they are (a consumer reads bytes; an LF inside quotes is part of the field). */
#ifndef LTT_COMMON_ESCAPE_CSV_H
#define LTT_COMMON_ESCAPE_CSV_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

struct ltt_buf;

/* Nonzero when s (n bytes) must be quoted. */
static inline int ltt_csv_needs_quotes(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r')
			return 1;
	return 0;
}

/* The inside of a quoted field: s with each '"' doubled, into dst (room for 2 * n bytes); the length
 * written. */
size_t ltt_csv_escape(char *dst, const char *s, size_t n);
/* s as one field (quoted when it must be, or always when quote is nonzero), added to b / written to f
 * (0, or -EIO). */
void ltt_csv_to_buf(struct ltt_buf *b, const char *s, size_t n, int quote);
int ltt_csv_to_file(FILE *f, const char *s, size_t n, int quote);

#endif
