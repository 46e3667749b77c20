/* SPDX-License-Identifier: MIT */
/* threads_prog: helper of tests/e2e/threads_select.sh (ltt dump --tid, ltt stats --per-thread,
 * ltt stats --profile limited by thread, time and region). Recording is started by LTT_TRACE.
 *
 *   threads_prog count N   threads w0, w1, w2 (ltt_thread_start, Trace2's th01:w0 ...; the kernel's
 *                          name too): wK records one region (enter, leave) around (K + 1) * N
 *                          data_int events; main records N printf events. Prints "main TID" and
 *                          "wK TID" (gettid) on stdout.
 *   threads_prog spin MS   thread "alpha" spins MS ms of CPU time in spin_alpha() inside region
 *                          ("t", "alpha"), then MS ms in spin_outside() outside any region; thread
 *                          "beta" meanwhile spins MS ms in spin_beta() inside region ("t", "beta").
 *                          Prints "alpha TID" and "beta TID".
 * Functions are noinline and not static, so that the symbolizer finds them by name. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <ltt/app.h>
#include <ltt/ltt.h>

#define NOINLINE __attribute__((noinline, noclone))

static long n_events, spin_ms;
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;
volatile unsigned long sink;

static void say(const char *name)
{
	pthread_mutex_lock(&print_lock);
	printf("%s %d\n", name, (int)gettid());
	fflush(stdout);
	pthread_mutex_unlock(&print_lock);
}

static void *counter(void *p)
{
	int k = (int)(intptr_t)p;
	char name[8];

	snprintf(name, sizeof(name), "w%d", k);
	prctl(PR_SET_NAME, name, 0, 0, 0);
	ltt_thread_start(name);
	say(name);
	ltt_region_enter("t", "count");
	for (long i = 0; i < (k + 1) * n_events; i++)
		ltt_data_int("t", "i", i);
	ltt_region_leave("t", "count");
	return NULL;
}

static double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void spin(double ms)
{
	double until = thread_cpu_ms() + ms;

	while (thread_cpu_ms() < until)
		for (int i = 0; i < 1000; i++)
			sink += (unsigned long)i * 7;
}

NOINLINE void spin_alpha(void);
NOINLINE void spin_alpha(void)
{
	spin((double)spin_ms);
	__asm__ volatile("");
}

NOINLINE void spin_outside(void);
NOINLINE void spin_outside(void)
{
	spin((double)spin_ms);
	__asm__ volatile("");
}

NOINLINE void spin_beta(void);
NOINLINE void spin_beta(void)
{
	spin((double)spin_ms);
	__asm__ volatile("");
}

static void *alpha(void *p)
{
	(void)p;
	prctl(PR_SET_NAME, "alpha", 0, 0, 0);
	ltt_thread_start("alpha");
	say("alpha");
	ltt_region_enter("t", "alpha");
	spin_alpha();
	ltt_region_leave("t", "alpha");
	spin_outside();
	return NULL;
}

static void *beta(void *p)
{
	(void)p;
	prctl(PR_SET_NAME, "beta", 0, 0, 0);
	ltt_thread_start("beta");
	say("beta");
	ltt_region_enter("t", "beta");
	spin_beta();
	ltt_region_leave("t", "beta");
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[3];

	if (argc == 3 && !strcmp(argv[1], "count")) {
		n_events = atol(argv[2]);
		say("main");
		for (intptr_t i = 0; i < 3; i++)
			if (pthread_create(&t[i], NULL, counter, (void *)i))
				return 1;
		for (long i = 0; i < n_events; i++)
			ltt_printf("main %ld", i);
		for (int i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "spin")) {
		spin_ms = atol(argv[2]);
		if (pthread_create(&t[0], NULL, alpha, NULL) || pthread_create(&t[1], NULL, beta, NULL))
			return 1;
		pthread_join(t[0], NULL);
		pthread_join(t[1], NULL);
		return 0;
	}
	fprintf(stderr, "usage: threads_prog count N | spin MS\n");
	return 2;
}
