/* SPDX-License-Identifier: MIT */
/* kernel_prog: helper of tests/e2e/kernel_*.sh (kernel events, doc/recorder.md "Kernel events").
 * Recording is started by LTT_TRACE (and LTT_KERNEL). Three threads:
 *   sleeper  10 sleeps of 50 ms
 *   writer   N write()s of 64 bytes to /dev/null, each between app data events
 *            (kp.before = i, then kp.after = i)
 *   spinner  spins until both others are done
 * Each prints on stdout, after its work: "THREAD tid=T switches=S" (S: its getrusage(RUSAGE_THREAD)
 * ru_nvcsw + ru_nivcsw), then the program prints "done".
 *   kernel_prog run [N]           N writes (default 2000)
 *   kernel_prog storm N           N getppid() calls in the main thread, then "done"
 *   kernel_prog segv              the writer's work, then a SIGSEGV
 *   kernel_prog hang              the writer's work, then sleeps (a test kills it) */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <ltt/app.h>
#include <ltt/ltt.h>

static long n_writes = 2000;
static volatile int finished;

static void report(const char *name)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	printf("%s tid=%ld switches=%ld\n", name, (long)syscall(SYS_gettid), ru.ru_nvcsw + ru.ru_nivcsw);
	fflush(stdout);
}

static void *sleeper(void *p)
{
	struct timespec ts = { 0, 50 * 1000 * 1000 }, a, b;

	(void)p;
	pthread_setname_np(pthread_self(), "kp-sleeper");
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < 10; i++)
		nanosleep(&ts, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	/* the sleeps' wall time: the waits for a CPU after each timer included */
	printf("sleeper_wall_ms=%ld\n", (long)((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000));
	report("sleeper");
	__atomic_add_fetch(&finished, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void writes(void)
{
	char buf[64];
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

	memset(buf, 'x', sizeof(buf));
	for (long i = 0; i < n_writes; i++) {
		ltt_data_int("kp", "before", i);
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			abort();
		ltt_data_int("kp", "after", i);
	}
	close(fd);
}

static void *writer(void *p)
{
	(void)p;
	pthread_setname_np(pthread_self(), "kp-writer");
	writes();
	report("writer");
	__atomic_add_fetch(&finished, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void *spinner(void *p)
{
	volatile unsigned long x = 0;

	(void)p;
	pthread_setname_np(pthread_self(), "kp-spinner");
	while (__atomic_load_n(&finished, __ATOMIC_SEQ_CST) < 2)
		x++;
	report("spinner");
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[3];

	if (argc > 2)
		n_writes = atol(argv[2]);
	if (argc > 1 && !strcmp(argv[1], "storm")) {
		for (long i = 0; i < n_writes; i++)
			syscall(SYS_getppid);
		printf("done\n");
		return 0;
	}
	if (argc > 1 && (!strcmp(argv[1], "segv") || !strcmp(argv[1], "hang"))) {
		writes();
		printf("done\n");
		fflush(stdout);
		if (!strcmp(argv[1], "segv"))
			raise(SIGSEGV);
		for (;;)
			pause();
	}
	pthread_create(&t[0], NULL, sleeper, NULL);
	pthread_create(&t[1], NULL, writer, NULL);
	pthread_create(&t[2], NULL, spinner, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("done\n");
	return 0;
}
