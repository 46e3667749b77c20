/* SPDX-License-Identifier: MIT */
/* The program of the scheduling tests (tests/e2e/sched_waits.sh, sched_e2e.sh), printing its own
 * ground truth on stdout, one "key value" per line:
 *   sched_prog waits        a thread holds a mutex 50 ms while the main thread waits for it
 *                           (holder TID, waiter TID, lock ADDRESS); then 100000 uncontended
 *                           lock/unlock pairs on another mutex (uncontended ADDRESS)
 *   sched_prog all          the kernel issue's program and more, each thread named: a sleeper (10
 *                           sleeps of 50 ms: sleeper TID), a writer (2000 write() of 64 bytes to
 *                           /dev/null, each between two app data events: writer TID), a spinner
 *                           (spins 300 ms of its own CPU time: spinner TID, spinner_cpu_ns from
 *                           CLOCK_THREAD_CPUTIME_ID), a reader whose region io/pipe blocks in read()
 *                           on a pipe the main thread fills 100 ms later (reader TID), and the 50 ms
 *                           mutex wait of `waits` (holder TID, waiter TID, lock ADDRESS). */
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <ltt/app.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int held;
static int pipefd[2];
/* Each thread's tid and the spinner's CPU time, printed by the main thread at the end: a thread's own
 * printf would be one more write() on its account. */
static uint32_t tid_holder, tid_sleeper, tid_writer, tid_spinner, tid_reader;
static uint64_t spinner_cpu;

static uint32_t tid(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *holder(void *arg)
{
	(void)arg;
	ltt_thread_start("holder");
	pthread_mutex_lock(&lock);
	tid_holder = tid();
	__atomic_store_n(&held, 1, __ATOMIC_RELEASE);	/* pairs with the acquire in mutex_wait() */
	/* the 50 ms start once the waiter blocks: glibc's lock word is 2 when a thread waits on it */
	while (__atomic_load_n(&lock.__data.__lock, __ATOMIC_RELAXED) != 2)
		sleep_ms(1);
	sleep_ms(50);
	pthread_mutex_unlock(&lock);
	ltt_thread_exit();
	return NULL;
}

/* The calling thread waits about 50 ms for the mutex a new thread holds. */
static void mutex_wait(void)
{
	pthread_t th;

	if (pthread_create(&th, NULL, holder, NULL))
		return;
	while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))	/* pairs with the release in holder() */
		sleep_ms(1);
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
	pthread_join(th, NULL);
	printf("holder %" PRIu32 "\nwaiter %" PRIu32 "\nlock %p\n", tid_holder, tid(), (void *)&lock);
}

static void uncontended(void)
{
	static pthread_mutex_t mine = PTHREAD_MUTEX_INITIALIZER;

	for (int i = 0; i < 100000; i++) {
		pthread_mutex_lock(&mine);
		pthread_mutex_unlock(&mine);
	}
	printf("uncontended %p\n", (void *)&mine);
}

static void *sleeper(void *arg)
{
	(void)arg;
	ltt_thread_start("sleeper");
	tid_sleeper = tid();
	for (int i = 0; i < 10; i++)
		sleep_ms(50);
	ltt_thread_exit();
	return NULL;
}

static void *writer(void *arg)
{
	char buf[64];
	int fd = open("/dev/null", O_WRONLY);

	(void)arg;
	ltt_thread_start("writer");
	tid_writer = tid();
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < 2000; i++) {
		ltt_data_int("w", "before", i);
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			break;
		ltt_data_int("w", "after", i);
	}
	close(fd);
	ltt_thread_exit();
	return NULL;
}

static void *spinner(void *arg)
{
	volatile uint64_t x = 0;
	uint64_t t0;

	(void)arg;
	ltt_thread_start("spinner");
	t0 = thread_cpu_ns();
	while (thread_cpu_ns() - t0 < 300000000u)
		for (int i = 0; i < 1000; i++)
			x += (uint64_t)i;
	tid_spinner = tid();
	spinner_cpu = thread_cpu_ns();
	ltt_thread_exit();
	return NULL;
}

static void *reader(void *arg)
{
	char c;

	(void)arg;
	ltt_thread_start("reader");
	tid_reader = tid();
	ltt_region_enter("io", "pipe");
	if (read(pipefd[0], &c, 1) != 1)
		c = 0;
	ltt_region_leave("io", "pipe");
	ltt_thread_exit();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[4];
	void *(*fn[4])(void *) = { sleeper, writer, spinner, reader };

	setvbuf(stdout, NULL, _IOLBF, 0);
	ltt_cmd_start(argc, argv);
	if (argc > 1 && !strcmp(argv[1], "waits")) {
		mutex_wait();
		uncontended();
		return 0;
	}
	if (pipe(pipefd))
		return 1;
	for (int i = 0; i < 4; i++)
		if (pthread_create(&th[i], NULL, fn[i], NULL))
			return 1;
	sleep_ms(100);
	if (write(pipefd[1], "x", 1) != 1)
		return 1;
	mutex_wait();
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	printf("sleeper %" PRIu32 "\nwriter %" PRIu32 "\nspinner %" PRIu32 "\nspinner_cpu_ns %" PRIu64 "\nreader %" PRIu32
	       "\n", tid_sleeper, tid_writer, tid_spinner, spinner_cpu, tid_reader);
	return 0;
}
