/* SPDX-License-Identifier: MIT */
/* perf_rseq: the rseq event path under forced preemption and migration (tests/e2e/perf_rseq_migrate.sh).
 *   perf_rseq THREADS EVENTS
 * Built with LTT_RSEQ_TEST_SPIN (ltt/static/rseq.h): every restartable sequence of this program's
 * inline event path spins a while between its start and its commit instruction, so that the kernel's
 * preemptions, the migrations forced here (a thread moving the workers between CPUs every 100 us with
 * sched_setaffinity) and the signals sent here (their handler traces) land inside the sequences.
 * Signals go to the workers until they have all finished, and each worker waits at its midpoint until
 * its handler has run once: every run has at least THREADS signal events amid the others.
 * Prints "emitted ev=N sig=M" (what the trace must hold, as rec_stress) and
 * "rseq=R aborts=A slow=S": whether the rings were per-CPU (ltt_rt.rseq), the sequences restarted
 * or found on another CPU, and the commits that went out of line (migrated since their reservation). */
#define LTT_RSEQ_TEST_SPIN 1500

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "rec_rtest.h"

__thread unsigned long ltt_rseq_test_aborts, ltt_rseq_test_slow;

static unsigned nthreads, nevents;
static uint64_t sig_emitted[64];
static unsigned long total_aborts, total_slow;
static pid_t tids[64];
static int done;
static unsigned running;	/* workers not finished */
static __thread unsigned my_index;
static __thread uint64_t my_sig_seq;

static void on_signal(int sig)
{
	(void)sig;
	rtest_sig(my_index, my_sig_seq++);
	__atomic_store_n(&sig_emitted[my_index], my_sig_seq, __ATOMIC_RELAXED);
}

static void *worker(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg;

	sigset_t usr1;

	/* created with SIGUSR1 blocked: its handler needs my_index */
	my_index = idx;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);
	__atomic_store_n(&tids[idx], gettid(), __ATOMIC_RELEASE);
	for (uint64_t i = 0; i < nevents; i++) {
		/* the handler runs on this thread: the load sees its increment */
		while (i == nevents / 2 && !__atomic_load_n(&my_sig_seq, __ATOMIC_RELAXED))
			sched_yield();
		rtest_ev(idx, i, rtest_check(idx, i));
	}
	__atomic_add_fetch(&total_aborts, ltt_rseq_test_aborts, __ATOMIC_RELAXED);
	__atomic_add_fetch(&total_slow, ltt_rseq_test_slow, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&running, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Moves the workers between CPUs (each to a CPU of its own choice, changing every round). */
static void *migrator(void *arg)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	struct timespec ts = { 0, 100000 };

	(void)arg;
	for (unsigned k = 0; ncpu > 1 && !__atomic_load_n(&done, __ATOMIC_ACQUIRE); k++) {
		for (unsigned i = 0; i < nthreads; i++) {
			pid_t t = __atomic_load_n(&tids[i], __ATOMIC_ACQUIRE);
			cpu_set_t set;

			if (!t)
				continue;
			CPU_ZERO(&set);
			CPU_SET((int)((k + i) % (unsigned)ncpu), &set);
			sched_setaffinity(t, sizeof(set), &set);	/* fails harmlessly once t exited */
		}
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[64], m;
	uint64_t sigs = 0;
	sigset_t usr1;

	if (argc < 3) {
		fprintf(stderr, "usage: perf_rseq THREADS EVENTS\n");
		return 2;
	}
	nthreads = (unsigned)atoi(argv[1]);
	nevents = (unsigned)strtoul(argv[2], NULL, 10);
	if (nthreads < 1 || nthreads > 64)
		return 2;
	signal(SIGUSR1, on_signal);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	/* the workers inherit it: a handler run before my_index is set would trace and count as
	 * worker 0, overwriting sig_emitted[0] (the emitted total then off by a few either way) */
	pthread_sigmask(SIG_BLOCK, &usr1, NULL);
	running = nthreads;
	for (unsigned i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, worker, (void *)(uintptr_t)i);
	pthread_create(&m, NULL, migrator, NULL);
	while (__atomic_load_n(&running, __ATOMIC_ACQUIRE)) {
		for (unsigned i = 0; i < nthreads; i++)
			pthread_kill(t[i], SIGUSR1);
		usleep(500);
	}
	for (unsigned i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(m, NULL);
	for (unsigned i = 0; i < nthreads; i++)
		sigs += __atomic_load_n(&sig_emitted[i], __ATOMIC_RELAXED);
	printf("emitted ev=%llu sig=%llu\n", (unsigned long long)nthreads * nevents, (unsigned long long)sigs);
	printf("rseq=%u aborts=%lu slow=%lu\n", ltt_rt.rseq, total_aborts, total_slow);
	return 0;
}
