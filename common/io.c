/* SPDX-License-Identifier: MIT */
/* File I/O helpers (common/io.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io.h"

int ltt_write_all(int fd, const void *p, size_t n)
{
	const char *s = p;

	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int ltt_open_regular(const char *path, int oflags, struct stat *st)
{
	struct stat tmp, *s = st ? st : &tmp;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | oflags);

	if (fd < 0)
		return -errno;
	if (fstat(fd, s) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	if (!S_ISREG(s->st_mode)) {
		close(fd);
		return -LTT_ENOTREG;
	}
	return fd;
}

int ltt_read_small_file(const char *path, int oflags, size_t max, char **buf, size_t *len)
{
	struct stat st;
	size_t got = 0, size;
	int fd = ltt_open_regular(path, oflags, &st), ret = 0;
	char *b;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return fd;
	if ((uint64_t)st.st_size > max) {
		close(fd);
		return -EFBIG;
	}
	size = (size_t)st.st_size;
	b = malloc(size + 1);
	if (!b) {
		close(fd);
		return -ENOMEM;
	}
	while (got < size) {
		ssize_t n = pread(fd, b + got, size - got, (off_t)got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	if (ret) {
		free(b);
		return ret;
	}
	b[got] = '\0';
	*buf = b;
	*len = got;
	return 0;
}

ssize_t ltt_read_into(const char *path, int oflags, char *buf, size_t n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | oflags);
	ssize_t r;

	if (n)
		buf[0] = '\0';
	if (fd < 0)
		return -errno;
	if (n < 2) {
		close(fd);
		return -ENOBUFS;
	}
	do
		r = read(fd, buf, n - 1);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		r = -errno;
	close(fd);
	if (r == 0)
		return -ENODATA;
	if (r > 0)
		buf[r] = '\0';
	return r;
}
