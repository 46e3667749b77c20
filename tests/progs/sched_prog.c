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
 *                           mutex wait of `waits` (holder TID, waiter TID, lock ADDRESS). The
 *                           sleeper's own measure of its sleeps (each until a deadline 50 ms
 *                           ahead, TIMER_ABSTIME): sleeper_asleep_ns, the time to the deadlines,
 *                           and sleeper_late_ns, from the deadlines to the returns (the timer's
 *                           slack, then the wait for a CPU)
 *   sched_prog sleep        the sleeper alone (sleeper, sleeper_asleep_ns, sleeper_late_ns)
 *   sched_prog yield N      a thread calls sched_yield N times while another spins on the same CPU
 *                           (both pinned to the first CPU allowed): yielder TID, yields N and
 *                           yields_switched, the calls during which the thread's involuntary
 *                           switch count (getrusage RUSAGE_THREAD, where the kernel counts a yield
 *                           that switched) went up */
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <ltt/app.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static volatile int held;
static int pipefd[2];
static int reader_in;	/* the reader is in its region: the 100 ms start (a late thread start is not in it) */
/* Each thread's tid and the spinner's CPU time, printed by the main thread at the end: a thread's own
 * printf would be one more write() on its account. */
static uint32_t tid_holder, tid_sleeper, tid_writer, tid_spinner, tid_reader;
static uint64_t spinner_cpu, sleeper_asleep, sleeper_late;
static volatile int spin_on, spin_stop;

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

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
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
	for (int i = 0; i < 10; i++) {
		uint64_t before = mono_ns(), deadline = before + 50000000u;
		struct timespec ts = { (time_t)(deadline / 1000000000u), (long)(deadline % 1000000000u) };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
			;
		sleeper_asleep += deadline - before;
		sleeper_late += mono_ns() - deadline;
	}
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
	__atomic_store_n(&reader_in, 1, __ATOMIC_RELEASE);	/* pairs with main's acquire load */
	if (read(pipefd[0], &c, 1) != 1)
		c = 0;
	ltt_region_leave("io", "pipe");
	ltt_thread_exit();
	return NULL;
}

/* Both yield threads run on the first CPU the process may use. */
static void pin_first_cpu(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set)) {
			CPU_ZERO(&set);
			CPU_SET(c, &set);
			sched_setaffinity(0, sizeof(set), &set);
			return;
		}
}

static void *yield_spinner(void *arg)
{
	(void)arg;
	pin_first_cpu();
	__atomic_store_n(&spin_on, 1, __ATOMIC_RELEASE);	/* pairs with the acquire in yields() */
	while (!__atomic_load_n(&spin_stop, __ATOMIC_RELAXED))
		;
	return NULL;
}

static void *yields(void *arg)
{
	long n = (long)(intptr_t)arg, switched = 0;
	struct rusage a, b;

	ltt_thread_start("yielder");
	pin_first_cpu();
	while (!__atomic_load_n(&spin_on, __ATOMIC_ACQUIRE))	/* pairs with the release in yield_spinner() */
		sleep_ms(1);	/* (not a yield: only the N below are) */
	for (long i = 0; i < n; i++) {
		getrusage(RUSAGE_THREAD, &a);
		sched_yield();
		getrusage(RUSAGE_THREAD, &b);
		switched += b.ru_nivcsw > a.ru_nivcsw;
	}
	__atomic_store_n(&spin_stop, 1, __ATOMIC_RELAXED);
	printf("yielder %" PRIu32 "\nyields %ld\nyields_switched %ld\n", tid(), n, switched);
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
	if (argc > 2 && !strcmp(argv[1], "yield")) {
		pthread_t y[2];

		if (pthread_create(&y[0], NULL, yield_spinner, NULL) ||
		    pthread_create(&y[1], NULL, yields, (void *)(intptr_t)atol(argv[2])))
			return 1;
		pthread_join(y[1], NULL);
		pthread_join(y[0], NULL);
		return 0;
	}
	if (argc > 1 && !strcmp(argv[1], "sleep")) {
		pthread_t sl;

		if (pthread_create(&sl, NULL, sleeper, NULL) || pthread_join(sl, NULL))
			return 1;
		printf("sleeper %" PRIu32 "\nsleeper_asleep_ns %" PRIu64 "\nsleeper_late_ns %" PRIu64 "\n", tid_sleeper,
		       sleeper_asleep, sleeper_late);
		return 0;
	}
	if (pipe(pipefd))
		return 1;
	for (int i = 0; i < 4; i++)
		if (pthread_create(&th[i], NULL, fn[i], NULL))
			return 1;
	while (!__atomic_load_n(&reader_in, __ATOMIC_ACQUIRE))
		sleep_ms(1);
	sleep_ms(100);
	if (write(pipefd[1], "x", 1) != 1)
		return 1;
	mutex_wait();
	for (int i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	printf("sleeper_asleep_ns %" PRIu64 "\nsleeper_late_ns %" PRIu64 "\n", sleeper_asleep, sleeper_late);
	printf("sleeper %" PRIu32 "\nwriter %" PRIu32 "\nspinner %" PRIu32 "\nspinner_cpu_ns %" PRIu64 "\nreader %" PRIu32
	       "\n", tid_sleeper, tid_writer, tid_spinner, spinner_cpu, tid_reader);
	return 0;
}
