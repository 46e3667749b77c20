/* SPDX-License-Identifier: MIT */
/* calls: a program for function tracing without a line of tracing code (README.md, doc/recorder.md
 * "Function tracing"): a known call tree, 10 outer() calls, each calling middle() 10 times, each
 * middle() calling leaf() once. Build it with -pg (no libltt needed: `ltt record --functions`
 * preloads libltt.so) and -O0 or -fno-inline, so that the compiler neither inlines the calls nor hoists
 * them out of the loops (at -O1 GCC may do both):
 *     cc -pg -O0 -o calls_pg examples/calls.c
 *     build/bin/ltt record -o /tmp/calls --functions -- ./calls_pg
 *     build/bin/ltt stats --functions /tmp/calls     (10 outer, 100 middle, 100 leaf) */
#include <stdio.h>

static unsigned long sink;

void leaf(unsigned i);
void middle(unsigned i);
void outer(unsigned i);

void leaf(unsigned i)
{
	sink += i * 2654435761u;
}

void middle(unsigned i)
{
	for (unsigned k = 0; k < 1000; k++)
		sink ^= k + i;
	leaf(i);
}

void outer(unsigned i)
{
	for (unsigned k = 0; k < 10; k++)
		middle(i * 10 + k);
}

int main(void)
{
	for (unsigned i = 0; i < 10; i++)
		outer(i);
	printf("calls: %lu\n", sink & 0xff);
	return 0;
}
