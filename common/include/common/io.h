/* SPDX-License-Identifier: MIT */
/* File I/O helpers (common/io.c). Each returns 0 (or a count) or a negative errno. ltt_write_all and
 * ltt_read_into use nothing but system calls: async-signal-safe, no allocation. */
#ifndef LTT_COMMON_IO_H
#define LTT_COMMON_IO_H

#include <stddef.h>
#include <sys/types.h>

/* The negative "errno" of a path that is not a regular file (a FIFO, device, directory, socket): ltt
 * never reads those where it expects a file (a FIFO would block, a device never end). */
#define LTT_ENOTREG 4095

/* Writes all n bytes at p to fd, retrying after EINTR and short writes: 0, -errno, or -EIO when
 * write(2) writes nothing. */
int ltt_write_all(int fd, const void *p, size_t n);

/* Opens path for reading (O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | oflags, e.g. O_NOFOLLOW)
 * only if it is a regular file: O_NONBLOCK so that opening a FIFO never blocks. The descriptor, or
 * -errno, or -LTT_ENOTREG (the file is closed again). *st (when not NULL) is the file's fstat. */
struct stat;
int ltt_open_regular(const char *path, int oflags, struct stat *st);

/* Reads a whole small regular file (ltt_open_regular) into a malloc'ed, NUL-terminated *buf of *len
 * bytes: -EFBIG beyond max bytes (nothing read), -LTT_ENOTREG, -ENOMEM or -errno (*buf NULL then).
 * A file that shrinks while read is read to its new end. */
int ltt_read_small_file(const char *path, int oflags, size_t max, char **buf, size_t *len);

/* One read(2) of at most n - 1 bytes of path (opened O_RDONLY | O_CLOEXEC | oflags) into buf,
 * NUL-terminated: for /proc files and other small ones that need no allocation. The count read (> 0),
 * or -errno, or -ENODATA for an empty file. */
ssize_t ltt_read_into(const char *path, int oflags, char *buf, size_t n);

#endif
