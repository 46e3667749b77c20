/* SPDX-License-Identifier: MIT */
/* trust_prog: helper of the tests of issue 28 (tests/e2e/trust_*.sh). Recording is started by LTT_TRACE
 * (and LTT_MODE, LTT_SHM_DIR) in the environment; events are flighttest ticks (thread, seq).
 *   trust_prog exits T N        T threads emit N ticks each (thread = index, seq 0..N-1), meet, then all
 *                               call exit(0) at once
 *   trust_prog hole N K         N ticks (thread 0) on this CPU; then tick N reserved with its thread
 *                               written and its seq not (the previous lap's bytes stay there), never
 *                               committed; a second thread on the same CPU commits K ticks (thread 1)
 *                               after it in the same block; then SIGKILL
 *   trust_prog exec PROG ARG... 10 ticks, prints "ready" on stdout, waits for a line on stdin, then
 *                               execv(PROG)
 *   trust_prog handler          10 ticks, installs its own handlers of SIGUSR2 and SIGSEGV (after the
 *                               trace started), prints "ready", sleeps until killed
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ltt/ltt.h>

#include "flighttest.h"

static pthread_barrier_t meet;
static uint64_t per_thread;

static void *exits_thread(void *arg)
{
	uint32_t me = (uint32_t)(uintptr_t)arg;

	for (uint64_t i = 0; i < per_thread; i++)
		trace_flighttest_tick(me, i);
	pthread_barrier_wait(&meet);
	exit(0);
}

static int exits(unsigned t, uint64_t n)
{
	pthread_t th[64];

	if (t < 1 || t > 64)
		return 2;
	per_thread = n;
	pthread_barrier_init(&meet, NULL, t);
	for (unsigned i = 1; i < t; i++)
		pthread_create(&th[i], NULL, exits_thread, (void *)(uintptr_t)i);
	exits_thread((void *)0);
	return 0;
}

static int the_cpu;
static uint64_t after_count;

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void *hole_writer(void *arg)
{
	(void)arg;
	pin(the_cpu);
	for (uint64_t i = 0; i < after_count; i++)
		trace_flighttest_tick(1, i);
	return NULL;
}

static int hole(uint64_t n, uint64_t k)
{
	struct ltt_slot s;
	uint32_t thread = 0;
	pthread_t th;

	the_cpu = sched_getcpu() < 0 ? 0 : sched_getcpu();
	pin(the_cpu);
	for (uint64_t i = 0; i < n; i++)
		trace_flighttest_tick(0, i);
	/* the writer stopped between reserve and commit: its header and thread written, not its seq */
	if (ltt_event_reserve(&s, &ltt_facility_flighttest, 0, 12, 0))
		memcpy(s.payload, &thread, 4);
	after_count = k;
	pthread_create(&th, NULL, hole_writer, NULL);
	pthread_join(th, NULL);
	kill(getpid(), SIGKILL);
	return 1;
}

static int do_exec(char **argv)
{
	char line[16];

	for (uint64_t i = 0; i < 10; i++)
		trace_flighttest_tick(0, i);
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	execv(argv[0], argv);
	perror(argv[0]);
	return 1;
}

static void own(int sig)
{
	(void)sig;
}

static __attribute__((noreturn)) int handler(void)
{
	struct sigaction sa;

	for (uint64_t i = 0; i < 10; i++)
		trace_flighttest_tick(0, i);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = own;
	sigaction(SIGUSR2, &sa, NULL);
	signal(SIGSEGV, own);
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "exits"))
		return exits((unsigned)atoi(argv[2]), strtoull(argv[3], NULL, 10));
	if (argc == 4 && !strcmp(argv[1], "hole"))
		return hole(strtoull(argv[2], NULL, 10), strtoull(argv[3], NULL, 10));
	if (argc >= 3 && !strcmp(argv[1], "exec"))
		return do_exec(argv + 2);
	if (argc == 2 && !strcmp(argv[1], "handler"))
		return handler();
	fprintf(stderr, "usage: trust_prog exits T N | hole N K | exec PROG ARG... | handler\n");
	return 2;
}
