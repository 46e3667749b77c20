/* SPDX-License-Identifier: MIT */
/* The floor: what any tracer must do per event, and nothing more.
 *
 * Each event reads the time-stamp counter (rdtsc, the cheapest clock on x86-64) and copies a
 * 6-byte header (id, low 32 bits of the time, as doc/format.md) and the payload into the buffer of the
 * CPU the thread is pinned to, advancing a plain (non-atomic) write position. No reservation protocol,
 * no commit, no consumer: this is the cost a tracer cannot go below. Usage and output:
 * bench/workload.h. */
#include <sched.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t floor_clock(void)
{
	return __rdtsc();
}
#else
#include <time.h>
static inline uint64_t floor_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

#define FLOOR_CPUS	 64
#define FLOOR_BUF_BYTES	 (1u << 20)	/* a 1 MiB buffer per CPU: stays in cache like a tracer's block */
#define FLOOR_MAX_EVENT	 64

/* One buffer per CPU, each on its own cache lines; the writer is the thread pinned to that CPU. */
struct floor_buf {
	size_t pos;
	char data[FLOOR_BUF_BYTES];
} __attribute__((aligned(64)));

static struct floor_buf floor_bufs[FLOOR_CPUS];
static __thread struct floor_buf *floor_mine;

static inline char *floor_reserve(size_t len)
{
	struct floor_buf *b = floor_mine;
	char *p;

	if (__builtin_expect(b == NULL, 0)) {
		int cpu = sched_getcpu();

		b = floor_mine = &floor_bufs[(cpu < 0 ? 0 : cpu) % FLOOR_CPUS];
	}
	if (__builtin_expect(b->pos + len > FLOOR_BUF_BYTES, 0))
		b->pos = 0;
	p = b->data + b->pos;
	b->pos += len;
	return p;
}

static inline void floor_header(char *p, uint16_t id)
{
	uint32_t t = (uint32_t)floor_clock();

	memcpy(p, &id, 2);
	memcpy(p + 2, &t, 4);
}

static inline void bench_emit_int3(uint64_t a, uint64_t b, uint32_t c)
{
	char *p = floor_reserve(6 + 20);

	floor_header(p, 20);
	memcpy(p + 6, &a, 8);
	memcpy(p + 14, &b, 8);
	memcpy(p + 22, &c, 4);
}

static inline void bench_emit_str(uint64_t v, const char *s)
{
	size_t n = strnlen(s, FLOOR_MAX_EVENT - 15) + 1;
	char *p = floor_reserve(6 + 8 + n);

	floor_header(p, 21);
	memcpy(p + 6, &v, 8);
	memcpy(p + 14, s, n);
}

#include "workload.h"

int main(int argc, char **argv)
{
	struct bench_result r;

	if (bench_run(argc, argv, &r))
		return 2;
	bench_print(&r);
	return 0;
}
