/* SPDX-License-Identifier: MIT */
/* gzip decoding for packed traces with zlib (RFC 1952 members, one after the other). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <zlib.h>

#include "archive_gunzip.h"

#define IN_SIZE (256u << 10)
#define OUT_SIZE (256u << 10)

struct ltt_gunzip {
	int fd;
	z_stream z;
	int in_member;		/* inside a member (else between members, or done) */
	int eof;		/* no more bytes in the file */
	int failed;
	uint64_t consumed;	/* compressed bytes fed to zlib and used */
	unsigned char in[IN_SIZE];
	unsigned char out[OUT_SIZE];
};

/* Refills the input buffer when empty; 0, or -1 with the error set. */
static int fill(struct archive *a, struct ltt_gunzip *g)
{
	ssize_t r;

	if (g->z.avail_in || g->eof)
		return 0;
	do
		r = read(g->fd, g->in, IN_SIZE);
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		archive_set_error(a, errno, "read error: %s", strerror(errno));
		return -1;
	}
	g->z.next_in = g->in;
	g->z.avail_in = (uInt)r;
	g->eof = r == 0;
	return 0;
}

/* Decodes up to OUT_SIZE bytes into g->out; returns how many, 0 at the clean end, -1 on error. */
static la_ssize_t decode(struct archive *a, struct ltt_gunzip *g)
{
	g->z.next_out = g->out;
	g->z.avail_out = OUT_SIZE;
	while (g->z.avail_out == OUT_SIZE) {
		uInt before;
		int zr;

		if (g->failed || fill(a, g) < 0)
			goto failed;
		if (!g->in_member) {
			if (!g->z.avail_in)
				return 0;	/* the file ends between members: done */
			if (g->z.next_in[0] != 0x1f) {
				archive_set_error(a, EINVAL, "data after the end of the gzip stream");
				goto failed;
			}
			if (inflateReset(&g->z) != Z_OK) {
				archive_set_error(a, EINVAL, "%s", g->z.msg ? g->z.msg : "inflateReset failed");
				goto failed;
			}
			g->in_member = 1;
		}
		if (!g->z.avail_in) {
			archive_set_error(a, EINVAL, "truncated gzip data");
			goto failed;
		}
		before = g->z.avail_in;
		zr = inflate(&g->z, Z_NO_FLUSH);
		g->consumed += before - g->z.avail_in;
		if (zr == Z_STREAM_END) {
			g->in_member = 0;	/* CRC-32 and length checked by zlib */
		} else if (zr != Z_OK && zr != Z_BUF_ERROR) {
			archive_set_error(a, EINVAL, "%s", zr == Z_MEM_ERROR ? "out of memory" :
					  g->z.msg ? g->z.msg : "corrupt gzip data");
			goto failed;
		}
	}
	return (la_ssize_t)(OUT_SIZE - g->z.avail_out);
failed:
	g->failed = 1;
	return -1;
}

static la_ssize_t read_cb(struct archive *a, void *client, const void **buf)
{
	struct ltt_gunzip *g = client;

	*buf = g->out;
	return decode(a, g);
}

int ltt_gunzip_open(struct archive *a, const char *path, struct ltt_gunzip **out)
{
	struct ltt_gunzip *g = calloc(1, sizeof(*g));

	*out = NULL;
	if (!g)
		return -ENOMEM;
	g->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (g->fd < 0) {
		int e = errno;

		free(g);
		return -e;
	}
	posix_fadvise(g->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	if (inflateInit2(&g->z, 16 + MAX_WBITS) != Z_OK) {	/* 16: gzip wrapper, trailer checked */
		close(g->fd);
		free(g);
		return -ENOMEM;
	}
	*out = g;
	if (archive_read_open(a, g, NULL, read_cb, NULL) != ARCHIVE_OK)
		return -EBADMSG;
	return 0;
}

int ltt_gunzip_finish(struct archive *a, struct ltt_gunzip *g)
{
	uint64_t after = 0;
	la_ssize_t r;

	/* Tar writers pad to their record size (10 KiB for most); a lot more is a decompression bomb
	 * hidden after the archive, not worth inflating to the end. */
	while ((r = decode(a, g)) > 0) {
		after += (uint64_t)r;
		if (after > LTT_GUNZIP_MAX_AFTER) {
			archive_set_error(a, EINVAL, "more than %u bytes after the end of the tar archive",
					  LTT_GUNZIP_MAX_AFTER);
			return -EBADMSG;
		}
	}
	return r < 0 ? -EBADMSG : 0;
}

uint64_t ltt_gunzip_offset(const struct ltt_gunzip *g)
{
	return g ? g->consumed : 0;
}

int ltt_gunzip_failed(const struct ltt_gunzip *g)
{
	return g && g->failed;
}

void ltt_gunzip_free(struct ltt_gunzip *g)
{
	if (!g)
		return;
	inflateEnd(&g->z);
	close(g->fd);
	free(g);
}
