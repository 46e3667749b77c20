/* SPDX-License-Identifier: MIT */
/* ltt_perf_dummy_page (common/perf_page.h). */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/perf_page.h"

int ltt_perf_dummy_page(const void **page, size_t *len)
{
	struct perf_event_attr a;
	long pagesize = sysconf(_SC_PAGESIZE);
	void *m;
	int fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return -errno;
	m = mmap(NULL, (size_t)pagesize, PROT_READ, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED) {
		int err = -errno;

		close(fd);
		return err;
	}
	*page = m;
	*len = (size_t)pagesize;
	return fd;
}
