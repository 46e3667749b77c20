/* SPDX-License-Identifier: MIT */
/* rec_stress: records events of the test facility `rtest` from several threads, optionally forcing
 * migrations between CPUs and tracing from a signal handler, then prints what it emitted:
 *   rec_stress THREADS EVENTS [migrate] [signal]
 * prints "emitted ev=N sig=M" (a checker compares with the trace: tests/e2e/recorder_*.sh and
 * tests/unit/test_recorder*.c). Recording is started by LTT_TRACE (or not at all). */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rec_rtest.h"

static unsigned nthreads, nevents;
static int migrate, use_signal;
static uint64_t sig_emitted[64];
static __thread unsigned my_index;
static __thread uint64_t my_sig_seq;

static void on_signal(int sig)
{
	int e = errno;

	(void)sig;
	rtest_sig(my_index, my_sig_seq++);	/* emitted, whether recorded or counted lost */
	__atomic_store_n(&sig_emitted[my_index], my_sig_seq, __ATOMIC_RELAXED);
	errno = e;
}

static void *worker(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	sigset_t usr1;

	/* Created with SIGUSR1 blocked (main): a handler run before my_index is set would trace and
	 * count as thread 0, overwriting sig_emitted[0] with this thread's count (the emitted total
	 * then off by a few either way). */
	my_index = idx;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
	for (uint64_t i = 0; i < nevents; i++) {
		rtest_ev(idx, i, rtest_check(idx, i));
		if (migrate && ncpu > 1 && i % 1000 == 999) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET((int)((i / 1000 + idx) % (uint64_t)ncpu), &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[64];
	uint64_t sigs = 0;
	sigset_t usr1;

	if (argc < 3) {
		fprintf(stderr, "usage: rec_stress THREADS EVENTS [migrate] [signal]\n");
		return 2;
	}
	nthreads = (unsigned)atoi(argv[1]);
	nevents = (unsigned)strtoul(argv[2], NULL, 10);
	for (int i = 3; i < argc; i++) {
		migrate |= !strcmp(argv[i], "migrate");
		use_signal |= !strcmp(argv[i], "signal");
	}
	if (nthreads < 1 || nthreads > 64)
		return 2;
	signal(SIGUSR1, on_signal);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);	/* the workers inherit it (see worker()) */
	for (unsigned i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
	if (use_signal)
		for (int k = 0; k < 200; k++) {
			for (unsigned i = 0; i < nthreads; i++)
				pthread_kill(t[i], SIGUSR1);
			usleep(200);
		}
	for (unsigned i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	for (unsigned i = 0; i < nthreads; i++)
		sigs += __atomic_load_n(&sig_emitted[i], __ATOMIC_RELAXED);
	printf("emitted ev=%llu sig=%llu\n", (unsigned long long)nthreads * nevents, (unsigned long long)sigs);
	return 0;
}
