/* SPDX-License-Identifier: MIT */
/* bench_getppid: N getppid() system calls in one thread (bench/rows/kernel.sh): the program under
 * `ltt record --kernel=syscalls` and `perf record -e raw_syscalls:*`. Prints the wall time per call.
 *   bench_getppid N */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	struct timespec a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	clock_gettime(CLOCK_MONOTONIC, &b);
	/* ltt_recording(): linked with libltt as a traced program is, and says whether it recorded */
	printf("ns_per_call=%.1f recording=%d\n",
	       ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / (double)n, ltt_recording());
	return 0;
}
