/* SPDX-License-Identifier: MIT */
/* Known I/O for tests/e2e/io_files.sh (ltt stats --io, the io table): with LTT_TRACE and LTT_KERNEL set
 * (libltt starts from them), the program
 * - opens PATH with openat and writes it 2000 times, write i of (i * 37) % 500 + 1 bytes;
 * - writes 50 x 10 bytes through dup(fd), 5 x 3 bytes through dup2(fd, 100), 4 x 6 bytes through
 *   fcntl(fd, F_DUPFD, 200), closing each copy; then closes fd;
 * - writes 3 x 11 bytes on fd PRE_FD (the second argument, if given), which the shell opened before the
 *   program started (named by the recording's fd table at start);
 * - writes 30 x 8 bytes into a pipe and reads them back 8 at a time;
 * - serves 20 requests on a socketpair: a client thread writes 16 bytes, the main thread reads them,
 *   sleeps 2 ms and writes 32 bytes back (the request latency read -> write the io table gives).
 * and prints what it did (counts, bytes, the pipe's and socket's inodes, its tid, its own measure of
 * each request from before its read to after its write) for the test to compare. */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>


#define REQUESTS 20

static int sv[2];

static void *client(void *arg)
{
	char req[16] = "request", rep[32];

	(void)arg;
	for (int i = 0; i < REQUESTS; i++) {
		size_t got = 0;

		if (write(sv[1], req, sizeof(req)) != (ssize_t)sizeof(req))
			exit(3);
		while (got < sizeof(rep)) {
			ssize_t n = read(sv[1], rep + got, sizeof(rep) - got);

			if (n <= 0)
				exit(3);
			got += (size_t)n;
		}
	}
	return NULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int wr(int fd, const char *buf, size_t n)
{
	return write(fd, buf, n) == (ssize_t)n ? 0 : -1;
}

int main(int argc, char **argv)
{
	static char buf[512];
	unsigned long long bytes = 0, dup_bytes = 0, pre = 0;
	uint64_t max_req = 0, min_req = UINT64_MAX;
	struct timespec two_ms = { 0, 2000000 };
	struct stat st;
	pthread_t th;
	int fd, d, p[2];

	if (argc != 2 && argc != 3)
		return 2;
	memset(buf, 'x', sizeof(buf));
	fd = openat(AT_FDCWD, argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return 1;
	for (int i = 0; i < 2000; i++) {
		size_t n = (size_t)(i * 37) % 500 + 1;

		if (wr(fd, buf, n))
			return 1;
		bytes += n;
	}
	d = dup(fd);
	for (int i = 0; i < 50; i++)
		if (d < 0 || wr(d, buf, 10))
			return 1;
	close(d);
	if (dup2(fd, 100) != 100)
		return 1;
	for (int i = 0; i < 5; i++)
		if (wr(100, buf, 3))
			return 1;
	close(100);
	d = fcntl(fd, F_DUPFD, 200);
	for (int i = 0; i < 4; i++)
		if (d < 200 || wr(d, buf, 6))
			return 1;
	close(d);
	close(fd);
	dup_bytes = 50 * 10 + 5 * 3 + 4 * 6;
	if (argc == 3) {
		for (int i = 0; i < 3; i++)
			if (wr(atoi(argv[2]), buf, 11))
				return 1;
		pre = 3;
	}
	if (pipe(p) || fstat(p[0], &st))
		return 1;
	printf("pipe=pipe:[%llu]\n", (unsigned long long)st.st_ino);
	for (int i = 0; i < 30; i++)
		if (wr(p[1], buf, 8) || read(p[0], buf, 8) != 8)
			return 1;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || fstat(sv[0], &st))
		return 1;
	printf("socket=socket:[%llu]\n", (unsigned long long)st.st_ino);
	if (pthread_create(&th, NULL, client, NULL))
		return 1;
	for (int i = 0; i < REQUESTS; i++) {
		uint64_t t0 = now_ns(), dt;
		size_t got = 0;

		while (got < 16) {
			ssize_t n = read(sv[0], buf + got, 16 - got);

			if (n <= 0)
				return 1;
			got += (size_t)n;
		}
		nanosleep(&two_ms, NULL);
		if (wr(sv[0], buf, 32))
			return 1;
		dt = now_ns() - t0;
		max_req = dt > max_req ? dt : max_req;
		min_req = dt < min_req ? dt : min_req;
	}
	pthread_join(th, NULL);
	printf("tid=%ld writes=2000 bytes=%llu dup_writes=59 dup_bytes=%llu pre_writes=%llu\n",
	       (long)syscall(SYS_gettid), bytes, dup_bytes, pre);
	printf("requests=%d min_req_ns=%llu max_req_ns=%llu\n", REQUESTS, (unsigned long long)min_req,
	       (unsigned long long)max_req);
	return 0;
}
