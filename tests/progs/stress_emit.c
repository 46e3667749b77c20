/* SPDX-License-Identifier: MIT */
/* stress_emit: the emitting side of `make stress` (tests/stress/run.sh). THREADS threads each record
 * EVENTS rtest.ev events (thread, seq, check) as fast as they can, moving themselves to the next CPU
 * every 1,000 events; a signaling thread interrupts them with SIGUSR1, whose handler records an
 * rtest.sig and raises SIGUSR2 in the same thread, whose handler (nested inside the first) records
 * another: tracing from nested signal handlers while the interrupted thread was inside its own event.
 * Recording is started by LTT_TRACE (discard or flight: LTT_MODE). When done prints
 *   emitted ev=N sig=M sigmax=K   (K: the most rtest.sig of one thread)
 * for stress_check, which reads the trace back. Run while an outside `taskset` loop moves the threads
 * too (run.sh).
 *   stress_emit THREADS EVENTS */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rec_rtest.h"

#define MAX_THREADS 64

static unsigned nthreads;
static uint64_t nevents;
static pthread_t tids[MAX_THREADS];
static int done[MAX_THREADS];
static uint64_t sig_count[MAX_THREADS];	/* rtest.sig emitted by each thread, seq numbers 0.. */
static __thread unsigned my_index;

static void emit_sig(void)
{
	uint64_t seq = sig_count[my_index];

	rtest_sig(my_index, seq);	/* emitted, whether recorded or counted lost */
	/* relaxed: only this thread writes its counter; main reads it after pthread_join */
	__atomic_store_n(&sig_count[my_index], seq + 1, __ATOMIC_RELAXED);
}

static void on_usr2(int sig)
{
	int e = errno;

	(void)sig;
	emit_sig();
	errno = e;
}

static void on_usr1(int sig)
{
	int e = errno;

	(void)sig;
	emit_sig();
	pthread_kill(pthread_self(), SIGUSR2);	/* delivered now, nested in this handler */
	emit_sig();
	errno = e;
}

static void *worker(void *arg)
{
	unsigned idx = (unsigned)(uintptr_t)arg;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	sigset_t sigs;

	/* Created with SIGUSR1/SIGUSR2 blocked: a handler run before my_index is set would count its
	 * events as thread 0's (a racy read-modify-write of sig_count[0]: emitted miscounted by a few). */
	my_index = idx;
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGUSR1);
	sigaddset(&sigs, SIGUSR2);
	pthread_sigmask(SIG_UNBLOCK, &sigs, NULL);
	for (uint64_t i = 0; i < nevents; i++) {
		rtest_ev(idx, i, rtest_check(idx, i));
		if (ncpu > 1 && i % 1000 == 999) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET((int)((i / 1000 + idx) % (uint64_t)ncpu), &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
	}
	/* release: pairs with the acquire load of the signaling thread, which then stops signaling it */
	__atomic_store_n(&done[idx], 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *signaler(void *arg)
{
	struct timespec ts = { 0, 200000 };	/* 0.2 ms */
	unsigned live;

	(void)arg;
	do {
		live = 0;
		for (unsigned i = 0; i < nthreads; i++)
			if (!__atomic_load_n(&done[i], __ATOMIC_ACQUIRE)) {	/* pairs with worker's release */
				pthread_kill(tids[i], SIGUSR1);
				live++;
			}
		nanosleep(&ts, NULL);
	} while (live);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sigaction sa;
	sigset_t blocked;
	pthread_t sg;
	uint64_t sigs = 0, sigmax = 0;

	if (argc != 3 || (nthreads = (unsigned)atoi(argv[1])) < 1 || nthreads > MAX_THREADS ||
	    !(nevents = strtoull(argv[2], NULL, 10))) {
		fprintf(stderr, "usage: stress_emit THREADS(1-%d) EVENTS\n", MAX_THREADS);
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_usr2;
	sigaction(SIGUSR2, &sa, NULL);
	sigemptyset(&blocked);
	sigaddset(&blocked, SIGUSR1);
	sigaddset(&blocked, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &blocked, NULL);	/* inherited: each worker unblocks once it has its index */
	for (unsigned i = 0; i < nthreads; i++)
		if (pthread_create(&tids[i], NULL, worker, (void *)(uintptr_t)i)) {
			perror("stress_emit: pthread_create");
			return 1;
		}
	if (pthread_create(&sg, NULL, signaler, NULL)) {
		perror("stress_emit: pthread_create");
		return 1;
	}
	pthread_join(sg, NULL);	/* first: it signals workers until they are done, never after a join */
	for (unsigned i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	for (unsigned i = 0; i < nthreads; i++) {
		sigs += sig_count[i];
		if (sig_count[i] > sigmax)
			sigmax = sig_count[i];
	}
	printf("emitted ev=%llu sig=%llu sigmax=%llu\n", (unsigned long long)(nevents * nthreads),
	       (unsigned long long)sigs, (unsigned long long)sigmax);
	return 0;
}
