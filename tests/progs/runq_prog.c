/* SPDX-License-Identifier: MIT */
/* runq_prog: helper of tests/e2e/kernel_runq.sh (waiting for a CPU, issue 35). A thread of this
 * process ("rq-woken", SCHED_IDLE, pinned to the first CPU allowed) blocks N times in read() on a pipe
 * that another process (a forked waker, not recorded) writes every MS ms, while a third process (a
 * forked neighbour, nice 0) spins on the same CPU: after each wakeup the thread waits for its CPU, and
 * nothing in a process-scope recording sees who woke it. Prints its ground truth on stdout, read by
 * the thread itself from the kernel's own accounting at its end:
 *   woken tid=T run_delay_ns=D timeslices=S   (/proc/thread-self/schedstat: runnable, switch-ins)
 *   runq_prog [N [MS]]   (default 20 wakeups, 20 ms apart)
 *   runq_prog move MS    a thread ("rq-mover") spends 100 sleeps of 1 ms (and 10 getppid() calls
 *                        before each) on the first CPU allowed, then one on the last, for MS ms, while
 *                        another ("rq-flood") makes getppid() calls on the last CPU as fast as it can
 *                        for the first half (its perf ring overflows, and a flight snapshot's kernel
 *                        rings keep different stretches of time). Prints
 *                        "mover tid=T gap_max_ns=G": the longest time between two of the mover's own
 *                        clock reads around each sleep and move, which bounds its every stretch off a
 *                        CPU between its app events rq.begin and rq.end; and "flood tid=F calls=C" */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ltt/app.h>

static int pfd[2], cpu = -1, n_wakeups = 20, gap_ms = 20;
static unsigned long long res_delay, res_slices;
static long res_tid;

static void pin(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	if (sched_setaffinity(0, sizeof(s), &s))
		perror("sched_setaffinity");
}

static void *woken(void *arg)
{
	char c, buf[128];
	unsigned long long run;
	FILE *f;

	(void)arg;
	pin();
	res_tid = syscall(SYS_gettid);
	{	/* SCHED_IDLE (any user may take it): a wakeup never preempts the neighbour */
		struct sched_param sp = { 0 };

		if (sched_setscheduler(0, SCHED_IDLE, &sp))
			setpriority(PRIO_PROCESS, (id_t)res_tid, 19);
	}
	for (int i = 0; i < n_wakeups; i++)
		if (read(pfd[0], &c, 1) != 1)
			abort();
	f = fopen("/proc/thread-self/schedstat", "re");
	if (!f || !fgets(buf, sizeof(buf), f) || sscanf(buf, "%llu %llu %llu", &run, &res_delay, &res_slices) != 3)
		abort();
	fclose(f);
	return NULL;
}

/* Set by the mover, polled by the flood: relaxed, since nothing else is published through it (the
 * flood's results are read after pthread_join, which orders them). */
static int move_stop;

static void pin_to(int c)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(c, &s);
	sched_setaffinity(0, sizeof(s), &s);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cpu_first, cpu_last;
static long flood_tid;
static unsigned long long flood_calls;

static void *flood(void *arg)
{
	(void)arg;
	flood_tid = syscall(SYS_gettid);
	pin_to(cpu_last);
	while (!__atomic_load_n(&move_stop, __ATOMIC_RELAXED)) {
		syscall(SYS_getppid);
		flood_calls++;
	}
	return NULL;
}

static int move_main(int ms)
{
	struct timespec one = { 0, 1000000 };
	uint64_t end, prev, gap = 0;
	pthread_t fl;
	long me = syscall(SYS_gettid);
	int i = 0;

	if (pthread_create(&fl, NULL, flood, NULL))
		return 1;
	ltt_data_int("rq", "begin", 0);	/* the stretch the gaps bound */
	prev = now_ns();
	end = prev + (uint64_t)ms * 1000000u;
	while (prev < end) {
		if (prev > end - (uint64_t)ms * 500000u)
			__atomic_store_n(&move_stop, 1, __ATOMIC_RELAXED);	/* the flood covers the first half */
		/* 100 ms on the first CPU (sleeps and getppid calls: its kernel ring wraps), then a visit
		 * to the last */
		for (int j = 0; j < 100 + 1; j++) {
			uint64_t t;

			if (j == 0)
				pin_to(cpu_first);
			if (j == 100)
				pin_to(cpu_last);
			for (int k = 0; k < 10 && j < 100; k++)
				syscall(SYS_getppid);
			nanosleep(&one, NULL);
			t = now_ns();
			gap = t - prev > gap ? t - prev : gap;
			prev = t;
		}
		i++;
	}
	ltt_data_int("rq", "end", 0);
	__atomic_store_n(&move_stop, 1, __ATOMIC_RELAXED);
	pthread_join(fl, NULL);
	printf("mover tid=%ld gap_max_ns=%llu\nflood tid=%ld calls=%llu\n", me, (unsigned long long)gap, flood_tid,
	       flood_calls);
	return 0;
}

static void *mover(void *arg)
{
	*(int *)arg = move_main(*(int *)arg);
	return NULL;
}

int main(int argc, char **argv)
{
	cpu_set_t all;
	pid_t nb, wk;
	pthread_t th;

	if (argc > 2 && !strcmp(argv[1], "move")) {
		int arg = atoi(argv[2]);
		pthread_t mv;

		if (sched_getaffinity(0, sizeof(all), &all))
			return 1;
		cpu_first = cpu_last = -1;
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &all)) {
				if (cpu_first < 0)
					cpu_first = c;
				cpu_last = c;
			}
		if (pthread_create(&mv, NULL, mover, &arg) || pthread_join(mv, NULL))
			return 1;
		return arg;
	}
	if (argc > 1)
		n_wakeups = atoi(argv[1]);
	if (argc > 2)
		gap_ms = atoi(argv[2]);
	if (sched_getaffinity(0, sizeof(all), &all) || pipe(pfd))
		return 1;
	for (int c = 0; c < CPU_SETSIZE && cpu < 0; c++)
		if (CPU_ISSET(c, &all))
			cpu = c;
	nb = fork();
	if (nb == 0) {	/* the neighbour: holds the CPU (at most 60 s) */
		time_t end = time(NULL) + 60;

		pin();
		while (time(NULL) < end)
			;
		_exit(0);
	}
	wk = fork();
	if (wk == 0) {	/* the waker: another process, not recorded */
		struct timespec ts = { gap_ms / 1000, (gap_ms % 1000) * 1000000L };

		for (int i = 0; i < n_wakeups; i++) {
			nanosleep(&ts, NULL);
			if (write(pfd[1], "x", 1) != 1)
				_exit(1);
		}
		_exit(0);
	}
	if (nb < 0 || wk < 0 || pthread_create(&th, NULL, woken, NULL))
		return 1;
	pthread_join(th, NULL);
	kill(nb, SIGKILL);
	waitpid(nb, NULL, 0);
	waitpid(wk, NULL, 0);
	printf("woken tid=%ld run_delay_ns=%llu timeslices=%llu\n", res_tid, res_delay, res_slices);
	return 0;
}
