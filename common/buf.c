/* SPDX-License-Identifier: MIT */
/* The growable buffer (common/buf.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/buf.h"

char *ltt_buf_reserve(struct ltt_buf *b, size_t n)
{
	if (b->nomem)
		return NULL;
	if (n >= (size_t)-1 / 2 - b->len) {
		b->nomem = 1;
		return NULL;
	}
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (b->len + n + 1 > cap)
			cap *= 2;
		p = realloc(b->buf, cap);
		if (!p) {
			b->nomem = 1;
			return NULL;
		}
		b->buf = p;
		b->cap = cap;
	}
	return b->buf + b->len;
}

void ltt_buf_commit(struct ltt_buf *b, size_t n)
{
	if (b->nomem || !b->buf)
		return;
	b->len += n;
	b->buf[b->len] = '\0';
}

void ltt_buf_add(struct ltt_buf *b, const void *s, size_t n)
{
	char *p = ltt_buf_reserve(b, n);

	if (!p)
		return;
	if (n)
		memcpy(p, s, n);
	ltt_buf_commit(b, n);
}

void ltt_buf_puts(struct ltt_buf *b, const char *s)
{
	ltt_buf_add(b, s, strlen(s));
}

void ltt_buf_putc(struct ltt_buf *b, char c)
{
	ltt_buf_add(b, &c, 1);
}

void ltt_buf_vprintf(struct ltt_buf *b, const char *fmt, va_list ap)
{
	char tmp[256], *p;
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap2);
	va_end(ap2);
	if (n < 0) {
		b->nomem = 1;
		return;
	}
	if ((size_t)n < sizeof(tmp)) {
		ltt_buf_add(b, tmp, (size_t)n);
		return;
	}
	p = ltt_buf_reserve(b, (size_t)n);
	if (!p)
		return;
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	ltt_buf_commit(b, (size_t)n);
}

void ltt_buf_printf(struct ltt_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ltt_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void ltt_buf_reset(struct ltt_buf *b)
{
	b->len = 0;
	if (b->buf)
		b->buf[0] = '\0';
}

char *ltt_buf_detach(struct ltt_buf *b, size_t *len)
{
	char *s = b->nomem ? NULL : b->buf ? b->buf : strdup("");
	size_t n = b->len;

	if (b->nomem)
		free(b->buf);
	b->buf = NULL;
	b->len = b->cap = 0;
	b->nomem = 0;
	if (len)
		*len = s ? n : 0;
	return s;
}

void ltt_buf_free(struct ltt_buf *b)
{
	free(b->buf);
	b->buf = NULL;
	b->len = b->cap = 0;
	b->nomem = 0;
}
