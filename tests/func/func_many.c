/* SPDX-License-Identifier: MIT */
/* tests/func/func_many.c: many calls, fast (tests/e2e/blocking.sh, bench/run.sh's blocking rows): each
 * of THREADS threads calls leaf() CALLS times from work(), built with -finstrument-functions and
 * linked with libltt, so every call is a func.entry and a func.exit. Prints "calls N" (all threads). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NI __attribute__((noinline, noclone))

static __thread volatile unsigned long sink;	/* per thread: no data race between the threads */
static unsigned long calls;

NI void leaf(void)
{
	sink++;
}

NI void *work(void *arg)
{
	(void)arg;
	for (unsigned long i = 0; i < calls; i++)
		leaf();
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned threads = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 1;
	pthread_t t[64];

	calls = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	if (threads < 1 || threads > 64)
		threads = 1;
	for (unsigned i = 0; i < threads; i++)
		if (pthread_create(&t[i], NULL, work, NULL))
			return 1;
	for (unsigned i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	printf("calls %lu\n", calls * threads);
	return 0;
}
