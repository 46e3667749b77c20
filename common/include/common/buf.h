/* SPDX-License-Identifier: MIT */
/* One growable byte buffer (common/buf.c), always NUL-terminated once anything was added. Running
 * out of memory is sticky: the buffer keeps what it had, sets nomem and ignores every later addition,
 * so a writer checks once at the end. Zero-initialised (LTT_BUF_INIT) it is empty and owns nothing.
 * Not for the event path: it allocates. */
#ifndef LTT_COMMON_BUF_H
#define LTT_COMMON_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct ltt_buf {
	char *buf;	/* NULL until something is added; then len bytes and a NUL */
	size_t len, cap;
	int nomem;	/* an allocation failed: nothing is added any more */
};

#define LTT_BUF_INIT { NULL, 0, 0, 0 }

/* Makes room for n more bytes (and the NUL) and returns where they go, or NULL (nomem set); commit
 * what was written there with ltt_buf_commit. */
char *ltt_buf_reserve(struct ltt_buf *b, size_t n);
void ltt_buf_commit(struct ltt_buf *b, size_t n);

void ltt_buf_add(struct ltt_buf *b, const void *s, size_t n);
void ltt_buf_puts(struct ltt_buf *b, const char *s);
void ltt_buf_putc(struct ltt_buf *b, char c);
void ltt_buf_printf(struct ltt_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ltt_buf_vprintf(struct ltt_buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/* Empties b, keeping its memory. */
void ltt_buf_reset(struct ltt_buf *b);
/* The malloc'ed text (the caller frees it; "" allocated when b is empty), or NULL when b ran out of
 * memory; b is empty and owns nothing afterwards, either way. */
char *ltt_buf_detach(struct ltt_buf *b, size_t *len);
void ltt_buf_free(struct ltt_buf *b);

#endif
