/* SPDX-License-Identifier: MIT */
/* tests/func/func_jmp.c: function tracing through longjmp, siglongjmp out of signal handlers and
 * vfork (tests/e2e/functions_jmp.sh), built as tests/func/func_tree.c is (-finstrument-functions linked
 * with libltt; -pg and -pg -mfentry run under ltt record --functions). Nothing of ltt is called.
 *
 *   jmp    1. 300 times: setjmp, then deep(10) (10 nested calls of deep) whose innermost longjmps out;
 *          2. SIGALRM every 100 us of real time while spin() calls spin_leaf() without end: the handler
 *             alarm_handler() calls handler_leaf() and siglongjmps out, 300 times;
 *          3. after() 1000 times, each calling after_leaf() once.
 *          Prints "alarms N" (handler runs).
 *   vfork  a vfork child calls vchild() 5 times and _exits; then after() 10 times.
 *   dl LIB dlopen()s LIB (tests/func/func_dl_lib.c), calls its dl_outer() 7 times, dlclose()s it
 *   sleep  run_sleep() calls sleeper() 3 times, each sleeping 100 ms (nanosleep); prints the measured
 *          sleeps' total "slept_ns N" (CLOCK_MONOTONIC around each nanosleep)
 *   crash  run_crash() -> down(40): 40 nested calls of down, the innermost calls leafc() N times
 *          (argv[2], default 2000000) then crash_now(), which writes through a NULL pointer. */
#include <dlfcn.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#define NI __attribute__((noinline, noclone))

volatile unsigned sink;
static jmp_buf jb;
static sigjmp_buf sjb;
static volatile sig_atomic_t alarms;

NI void deep(int n)
{
	if (n > 1)
		deep(n - 1);
	else
		longjmp(jb, 1);
	sink++;
}

NI void spin_leaf(void)
{
	sink++;
}

NI void spin(void)
{
	for (;;)
		spin_leaf();
}

NI void handler_leaf(void)
{
	sink++;
}

NI void alarm_handler(int sig)
{
	(void)sig;
	handler_leaf();
	alarms++;
	siglongjmp(sjb, 1);
}

NI void after_leaf(void)
{
	sink++;
}

NI void after(void)
{
	after_leaf();
	sink++;
}

NI void vchild(void)
{
	sink++;
}

NI void leafc(void)
{
	sink++;
}

/* A real invalid write (not raise()): the sanitizers' checks of it are off so that the SIGSEGV reaches
 * libltt's handler under make asan too. */
NI __attribute__((no_sanitize("undefined", "address"))) void crash_now(void)
{
	*(volatile unsigned *)(sink > 4000000000u ? &sink : NULL) = 1;
	sink++;
}

NI void down(int n, long calls)
{
	if (n > 1) {
		down(n - 1, calls);
	} else {
		for (long i = 0; i < calls; i++)
			leafc();
		crash_now();
	}
	sink++;
}

NI int run_crash(long calls)
{
	down(40, calls);
	return 0;
}

static unsigned long long slept_ns;

NI void sleeper(void)
{
	struct timespec d = { 0, 100000000 }, a, b;

	clock_gettime(CLOCK_MONOTONIC, &a);
	nanosleep(&d, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	slept_ns += (unsigned long long)((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec));
}

NI int run_sleep(void)
{
	for (int i = 0; i < 3; i++)
		sleeper();
	printf("slept_ns %llu\n", slept_ns);
	return 0;
}

static int run_jmp(void)
{
	struct sigaction sa;
	struct itimerval it = { { 0, 100 }, { 0, 100 } };

	for (volatile int i = 0; i < 300; i++)
		if (!setjmp(jb))
			deep(10);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = alarm_handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL))
		return 1;
	setitimer(ITIMER_REAL, &it, NULL);
	while (alarms < 300)
		if (!sigsetjmp(sjb, 1))
			spin();
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	for (int i = 0; i < 1000; i++)
		after();
	printf("alarms %d\n", (int)alarms);
	return 0;
}

static int run_dl(const char *lib)
{
	void *h = dlopen(lib, RTLD_NOW);
	void (*outer)(void);

	if (!h) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 1;
	}
	*(void **)&outer = dlsym(h, "dl_outer");
	if (!outer)
		return 1;
	for (int i = 0; i < 7; i++)
		outer();
	return dlclose(h) ? 1 : 0;
}

static int run_vfork(void)
{
	int status;
	pid_t p = vfork();

	if (p == 0) {
		for (int i = 0; i < 5; i++)
			vchild();
		_exit(0);
	}
	if (p < 0 || waitpid(p, &status, 0) != p || !WIFEXITED(status))
		return 1;
	for (int i = 0; i < 10; i++)
		after();
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "jmp";

	if (!strcmp(mode, "vfork"))
		return run_vfork();
	if (!strcmp(mode, "dl") && argc > 2)
		return run_dl(argv[2]);
	if (!strcmp(mode, "sleep"))
		return run_sleep();
	if (!strcmp(mode, "crash"))
		return run_crash(argc > 2 ? atol(argv[2]) : 2000000);
	return run_jmp();
}
