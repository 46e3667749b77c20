/* SPDX-License-Identifier: MIT */
/* reader/write_losses.c: info/write-losses (reader/write_losses.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io.h"
#include "reader/write_losses.h"

/* dir/info/write-losses opened without blocking, a regular file only (common/io.h): its descriptor,
 * or -errno (-EINVAL: not a regular file). */
static int open_regular(const char *dir, struct stat *st)
{
	char p[4096];
	int fd;

	if ((size_t)snprintf(p, sizeof(p), "%s/info/write-losses", dir) >= sizeof(p))
		return -ENAMETOOLONG;
	fd = ltt_open_regular(p, 0, st);
	return fd == -LTT_ENOTREG ? -EINVAL : fd;
}

int ltt_trace_not_stopped(const char *dir)
{
	struct stat st;
	int fd = open_regular(dir, &st);

	if (fd < 0)
		return 0;
	close(fd);
	return st.st_size == 0;
}

FILE *ltt_write_losses_open(const char *dir)
{
	struct stat st;
	int fd = open_regular(dir, &st);
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}
