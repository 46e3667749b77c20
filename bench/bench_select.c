/* SPDX-License-Identifier: MIT */
/* The benchmark workload with context="tid" events (facility bench/benchtid.xml: bench/bench.xml's
 * events plus the thread id the generated code takes from libltt's per-thread cache). Compared with
 * bench_ltt, the same events without the tid, by bench/rows/select.sh. Usage and output:
 * bench/workload.h. */
#include <stdint.h>
#include <stdlib.h>

#include <ltt/ltt.h>
#include "benchtid.h"

static inline void bench_emit_int3(uint64_t a, uint64_t b, uint32_t c)
{
	trace_benchtid_int3(a, b, c);
}

static inline void bench_emit_str(uint64_t v, const char *s)
{
	trace_benchtid_str(v, s);
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
