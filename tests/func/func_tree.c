/* SPDX-License-Identifier: MIT */
/* tests/func/func_tree.c: a program with a known call tree for function tracing (tests/e2e/functions.sh),
 * built with -finstrument-functions (linked with libltt) and with -pg, -pg -mfentry (unmodified, run
 * under ltt record --functions). Nothing of ltt is called: the hooks record it all.
 *
 *   tree     the loop calls a() 100 times, each a() calls b() 10 times, each b() calls c() once; then
 *            rec(50): a recursion 50 deep (50 calls of rec); then leaf_short() 20 times and
 *            leaf_long() 3 times (minimum-duration rule: leaf_long lasts at least 2 ms)
 *   crash    tree, then crash_here() writes through a NULL pointer (SIGSEGV)
 *   threads  tree in 3 threads at once (each: 100 a, 1000 b, 1000 c, 50 rec)
 *   signal   tree, with SIGALRM every 200 us of CPU time calling sig_handler() -> sig_leaf() */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#define NI __attribute__((noinline, noclone))

volatile unsigned sink;
volatile unsigned handled;

NI void c(void)
{
	sink++;
}

NI void b(void)
{
	c();
	sink++;		/* no tail call: c's parent stays b under -pg */
}

NI void a(void)
{
	for (int i = 0; i < 10; i++)
		b();
	sink++;
}

NI void rec(int n)
{
	if (n > 1)
		rec(n - 1);
	sink++;
}

NI void leaf_short(void)
{
	sink++;
}

NI void leaf_long(void)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) < 2000000L);
	sink++;
}

/* A real invalid write (not raise()): the sanitizers' checks of it are off so that the SIGSEGV reaches
 * libltt's handler under make asan too. */
NI __attribute__((no_sanitize("undefined", "address"))) void crash_here(void)
{
	*(volatile int *)(sink > 1000000000u ? &handled : NULL) = 1;
	sink++;
}

NI void sig_leaf(void)
{
	sink++;
}

NI void sig_handler(int sig)
{
	(void)sig;
	sig_leaf();
	handled++;
}

NI void tree(void)
{
	for (int i = 0; i < 100; i++)
		a();
	rec(50);
	for (int i = 0; i < 20; i++)
		leaf_short();
	for (int i = 0; i < 3; i++)
		leaf_long();
	sink++;
}

NI void *worker(void *arg)
{
	(void)arg;
	tree();
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "tree";

	if (!strcmp(mode, "threads")) {
		pthread_t t[3];

		for (int i = 0; i < 3; i++)
			if (pthread_create(&t[i], NULL, worker, NULL))
				return 1;
		for (int i = 0; i < 3; i++)
			pthread_join(t[i], NULL);
		return 0;
	}
	if (!strcmp(mode, "signal")) {
		struct sigaction sa;
		struct itimerval it = { { 0, 200 }, { 0, 200 } };

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = sig_handler;
		sa.sa_flags = SA_RESTART;
		sigaction(SIGPROF, &sa, NULL);
		setitimer(ITIMER_PROF, &it, NULL);
		for (int k = 0; k < 20; k++)
			tree();
		memset(&it, 0, sizeof(it));
		setitimer(ITIMER_PROF, &it, NULL);
		printf("handled %u\n", handled);
		return 0;
	}
	tree();
	if (!strcmp(mode, "crash"))
		crash_here();
	return 0;
}
