/* SPDX-License-Identifier: MIT */
/* LTTng-UST tracepoint provider of the benchmark: the same two payloads as bench/bench.xml.
 * Read several times by lttng-ust's macros (LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ). */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER ltt_bench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./lttng_tp.h"

#if !defined(LTT_BENCH_LTTNG_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define LTT_BENCH_LTTNG_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(ltt_bench, int3,
	LTTNG_UST_TP_ARGS(uint64_t, a, uint64_t, b, uint32_t, c),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, a, a)
		lttng_ust_field_integer(uint64_t, b, b)
		lttng_ust_field_integer(uint32_t, c, c)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(ltt_bench, str,
	LTTNG_UST_TP_ARGS(uint64_t, v, const char *, s),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, v, v)
		lttng_ust_field_string(s, s)
	)
)

#endif

#include <lttng/tracepoint-event.h>
