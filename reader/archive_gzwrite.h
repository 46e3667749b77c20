/* SPDX-License-Identifier: MIT */
/* A gzip writer that compresses on several threads: the input is cut into fixed-size chunks, each
 * deflated into its own gzip member (RFC 1952 allows members back to back; every gzip reader,
 * ltt's included, reads them as one stream), and the members are written in order. The chunking is
 * fixed, so the same input gives the same bytes whatever the number of threads. */
#ifndef LTT_READER_ARCHIVE_GZWRITE_H
#define LTT_READER_ARCHIVE_GZWRITE_H

#include <stddef.h>

struct ltt_gzwrite;

/* Writes to fd at gzip level 1..9 with `threads` compressing threads (0: one per online CPU, at most
 * 8; 1: compress in the caller's thread). 0 or -errno. */
int ltt_gzwrite_open(struct ltt_gzwrite **out, int fd, int level, unsigned threads);

/* Appends len bytes. 0 or -errno (a write error, or an earlier one). */
int ltt_gzwrite_write(struct ltt_gzwrite *g, const void *buf, size_t len);

/* Compresses and writes what remains, then stops the threads. 0 or -errno. The fd stays open. */
int ltt_gzwrite_close(struct ltt_gzwrite *g);

/* Frees the writer (stopping its threads if ltt_gzwrite_close was not called). NULL is a no-op. */
void ltt_gzwrite_free(struct ltt_gzwrite *g);

#endif
