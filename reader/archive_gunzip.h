/* SPDX-License-Identifier: MIT */
/* A gzip decoder feeding libarchive's tar reader: zlib checks every member's CRC-32 and length,
 * which libarchive's own gzip filter does not (its tar reader stops at the end-of-archive blocks and
 * never reaches the trailer), and the stream must end exactly where the file ends. */
#ifndef LTT_READER_ARCHIVE_GUNZIP_H
#define LTT_READER_ARCHIVE_GUNZIP_H

#include <stddef.h>
#include <stdint.h>

struct archive;
struct ltt_gunzip;

/* Opens `path` (already known to start with the gzip magic) as the input of the reader `a`
 * (archive_read_open with our callbacks). 0 or -errno; on failure `a` is not opened. */
int ltt_gunzip_open(struct archive *a, const char *path, struct ltt_gunzip **out);

#define LTT_GUNZIP_MAX_AFTER (16u << 20)	/* decoded bytes tolerated after the tar archive's end */

/* Reads what the tar reader left (its padding) to the end of the file, checking the trailers.
 * 0, or -EBADMSG with the reason in `a`'s error string (also when more than LTT_GUNZIP_MAX_AFTER
 * bytes follow the archive). */
int ltt_gunzip_finish(struct archive *a, struct ltt_gunzip *g);

/* Compressed bytes consumed so far: where in the file a problem was met. */
uint64_t ltt_gunzip_offset(const struct ltt_gunzip *g);

/* 1 once the gzip layer has failed (its reason in the archive's error string). */
int ltt_gunzip_failed(const struct ltt_gunzip *g);

/* Frees the decoder (after archive_read_free, which does not). */
void ltt_gunzip_free(struct ltt_gunzip *g);

#endif
