/* SPDX-License-Identifier: MIT */
/* perf_io: what writing trace blocks to a file costs the consumer thread, in CPU time per MiB, the
 * way recorder/consumer.c writes them (doc/recorder.md, "Performance"). Not a test: a measuring tool,
 * never run by `make check`.
 *
 * Usage: perf_io FILE BLOCKS_PER_WRITE(1-16) buffered|direct [MIB(default 256)]
 * Writes MIB MiB of 1 MiB blocks (cycling through an 8 MiB page-aligned buffer, as a ring) with
 * pwritev of BLOCKS_PER_WRITE blocks, then removes FILE. Output, one line:
 *   cpu_ms_per_mib=F wall_ms_per_mib=F
 * cpu: the process CPU time (user + system) in the write loop; wall: its elapsed time (direct
 * writes wait for the device: wall gives the bandwidth a consumer can sustain). */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define BLOCK	(1u << 20)
#define RING	8u

static double ns_of(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	struct iovec iov[16];
	unsigned long per, mib = 256;
	double c0, w0, c1, w1;
	uint64_t off = 0;
	char *buf;
	int fd, flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;

	if (argc < 4 || argc > 5)
		goto usage;
	per = strtoul(argv[2], NULL, 10);
	if (per < 1 || per > 16)
		goto usage;
	if (!strcmp(argv[3], "direct"))
		flags |= O_DIRECT;
	else if (strcmp(argv[3], "buffered"))
		goto usage;
	if (argc == 5 && (mib = strtoul(argv[4], NULL, 10)) < 1)
		goto usage;
	buf = aligned_alloc(4096, (size_t)RING * BLOCK);
	if (!buf)
		return 1;
	memset(buf, 0x5a, (size_t)RING * BLOCK);
	fd = open(argv[1], flags, 0666);
	if (fd < 0) {
		fprintf(stderr, "perf_io: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	c0 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	w0 = ns_of(CLOCK_MONOTONIC);
	for (unsigned long done = 0; done < mib; done += per) {
		unsigned long k = mib - done < per ? mib - done : per;
		ssize_t w;

		for (unsigned long j = 0; j < k; j++)
			iov[j] = (struct iovec){ buf + ((done + j) % RING) * BLOCK, BLOCK };
		w = pwritev(fd, iov, (int)k, (off_t)off);
		if (w != (ssize_t)(k * BLOCK)) {
			fprintf(stderr, "perf_io: %s: %s\n", argv[1], w < 0 ? strerror(errno) : "short write");
			unlink(argv[1]);
			return 1;
		}
		off += k * BLOCK;
	}
	c1 = ns_of(CLOCK_PROCESS_CPUTIME_ID);
	w1 = ns_of(CLOCK_MONOTONIC);
	close(fd);
	unlink(argv[1]);
	free(buf);
	printf("cpu_ms_per_mib=%.3f wall_ms_per_mib=%.3f\n", (c1 - c0) / 1e6 / (double)mib,
	       (w1 - w0) / 1e6 / (double)mib);
	return 0;
usage:
	fprintf(stderr, "usage: perf_io FILE BLOCKS_PER_WRITE(1-16) buffered|direct [MIB]\n");
	return 2;
}
