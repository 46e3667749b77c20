// SPDX-License-Identifier: MIT
/* tests/func/func_args.c: calls with known arguments and return values, for function tracing's -A/-R
 * (tests/e2e/functions_args.sh) and its library calls through the PLT (tests/e2e/functions_plt.sh).
 * "args": fadd(3, 4), then fadd(i, i + 1) for i in [0, 100), fadd(-3, 1); many(1..8) (arguments 7 and 8
 * on the stack); fmul(1.5, 2.0f); slen of "hello, world", NULL, a 200-byte string (cut at 96), and a
 * pointer that cannot be read (0x10); pick(0), pick(1) (string return values).
 * "plt": 500 getppid() through the PLT, 7 strlen. Prints its own counts. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

__attribute__((noinline)) int fadd(int a, int b)
{
	return a + b;
}

__attribute__((noinline)) long many(long a, long b, long c, long d, long e, long f, long g, long h)
{
	return a + b + c + d + e + f + g + h;
}

__attribute__((noinline)) double fmul(double x, float y)
{
	return x * y;
}

__attribute__((noinline)) int slen(const char *s)
{
	int n = 0;

	if (!s || s == (const char *)0x10)
		return -1;
	while (s[n])
		n++;
	return n;
}

__attribute__((noinline)) const char *pick(int i)
{
	return i ? "one" : "zero";
}

int main(int argc, char **argv)
{
	volatile long sink = 0;

	if (argc > 1 && !strcmp(argv[1], "plt")) {
		long n = 0;
		volatile size_t z = 0;

		for (int i = 0; i < 500; i++)
			n += getppid() > 0;
		for (int i = 0; i < 7; i++)
			z += strlen(argv[0] + i % 2);
		printf("getppid %ld strlen 7\n", n);
		return (int)(z & 0);
	}
	static char longs[201];

	memset(longs, 'x', 200);
	sink += fadd(3, 4);
	for (int i = 0; i < 100; i++)
		sink += fadd(i, i + 1);
	sink += fadd(-3, 1);
	sink += many(1, 2, 3, 4, 5, 6, 7, 8);
	sink += (long)fmul(1.5, 2.0f);
	sink += slen("hello, world");
	sink += slen(NULL);
	sink += slen(longs);
	sink += slen((const char *)0x10);
	sink += (long)pick(0)[0] + (long)pick(1)[0];
	printf("fadd 102 sum %ld\n", (long)sink);
	return 0;
}
