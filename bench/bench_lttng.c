/* SPDX-License-Identifier: MIT */
/* The benchmark workload traced by LTTng-UST 2.13 (provider bench/lttng_tp.h).
 * Whether it records is decided outside, by the lttng session bench/run.sh sets up; started with no
 * session enabled it is the "not recording" row. Usage and output: bench/workload.h. */
#include <stdint.h>

#include "lttng_tp.h"

static inline void bench_emit_int3(uint64_t a, uint64_t b, uint32_t c)
{
	lttng_ust_tracepoint(ltt_bench, int3, a, b, c);
}

static inline void bench_emit_str(uint64_t v, const char *s)
{
	lttng_ust_tracepoint(ltt_bench, str, v, s);
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
