// SPDX-License-Identifier: MIT
/* tests/func/func_lossy.c: a fast function-traced program for tests/e2e/trust_lossy.sh (issue 34):
 * main calls outer() ROUNDS times, each outer() calls inner() 200 times, as fast as it can, so that tiny
 * rings drop events. It measures every outer() call itself (CLOCK_MONOTONIC around it) and prints
 * "rounds R inner I max_outer_ns M": no call of the trace, inner's or outer's, can last longer than M
 * (inner runs inside an outer), whatever was lost. Usage: func_lossy [ROUNDS] (default 20000). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static volatile unsigned sink;

__attribute__((noinline)) static void inner(unsigned i)
{
	sink += i;
}

__attribute__((noinline)) static void outer(void)
{
	for (unsigned i = 0; i < 200; i++)
		inner(i);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 20000;
	uint64_t max = 0;

	for (unsigned r = 0; r < rounds; r++) {
		uint64_t t0 = now_ns(), d;

		outer();
		d = now_ns() - t0;
		if (d > max)
			max = d;
	}
	printf("rounds %u inner %u max_outer_ns %llu\n", rounds, rounds * 200, (unsigned long long)max);
	return 0;
}
