/* SPDX-License-Identifier: MIT */
/* The probes of the LTTng-UST provider (bench/lttng_tp.h), linked into bench_lttng. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "lttng_tp.h"
