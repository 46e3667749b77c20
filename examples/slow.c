/* SPDX-License-Identifier: MIT */
/* slow: the program of README.md's "Why was it slow?" walk-through. Its main thread runs three regions
 * of the app API (<ltt/app.h>, doc/app-api.md), each slow for a different reason, so that
 * `ltt record --kernel --waits` followed by `ltt stats --regions`, `--sched` and `--waits` tell them
 * apart:
 *   pipe: blocked 100 ms in read() on a pipe a helper thread writes after sleeping 100 ms;
 *   lock: waits 50 ms for a mutex the helper holds (seen with --waits);
 *   spin: 30 ms on the CPU.
 * Build: make examples (build/examples/slow), linked with libltt; nothing records until `ltt record`
 * (or LTT_TRACE) says so. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <ltt/app.h>

static int fds[2];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static int held;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts))
		;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void *helper(void *arg)
{
	(void)arg;
	ltt_thread_start("helper");
	sleep_ms(100);
	if (write(fds[1], "x", 1) != 1)
		perror("slow: write");
	/* hold the lock 50 ms while main waits for it */
	pthread_mutex_lock(&lock);
	pthread_mutex_lock(&ready_lock);
	held = 1;
	pthread_cond_signal(&ready);
	pthread_mutex_unlock(&ready_lock);
	sleep_ms(50);
	pthread_mutex_unlock(&lock);
	ltt_thread_exit();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char c;
	volatile unsigned long spins = 0;
	double end;

	ltt_cmd_start(argc, argv);
	if (pipe(fds)) {
		perror("slow: pipe");
		return 1;
	}
	pthread_create(&t, NULL, helper, NULL);

	ltt_region_enter("slow", "pipe");
	if (read(fds[0], &c, 1) != 1)
		perror("slow: read");
	ltt_region_leave("slow", "pipe");

	pthread_mutex_lock(&ready_lock);
	while (!held)
		pthread_cond_wait(&ready, &ready_lock);
	pthread_mutex_unlock(&ready_lock);
	ltt_region_enter("slow", "lock");
	pthread_mutex_lock(&lock);
	pthread_mutex_unlock(&lock);
	ltt_region_leave("slow", "lock");

	ltt_region_enter("slow", "spin");
	for (end = now_ms() + 30; now_ms() < end;)
		spins++;
	ltt_region_leave("slow", "spin");

	pthread_join(t, NULL);
	printf("slow: pipe, lock and spin done\n");
	return 0;
}
