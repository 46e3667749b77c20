/* SPDX-License-Identifier: MIT */
/* The monotonic clock for timeouts, deadlines and rates (not the trace's clock: recorder/clock.h).
 * clock_gettime is async-signal-safe and, through the vDSO, no system call. */
#ifndef LTT_COMMON_CLOCK_H
#define LTT_COMMON_CLOCK_H

#include <stdint.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds. */
static inline uint64_t ltt_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#endif
