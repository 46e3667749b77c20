/* SPDX-License-Identifier: MIT */
/* recorder/clock.h: the cycle counter, its calibration and the one linear map from cycles to real
 * time that every anchor of a trace uses (doc/format.md section 5, doc/recorder.md "Clock"). */
#ifndef LTT_RECORDER_CLOCK_H
#define LTT_RECORDER_CLOCK_H

#include <stdint.h>

struct ltt_timemap {
	const char *clock_name;		/* "tsc" or "monotonic" */
	uint64_t cycles_per_second;
	uint64_t start_cycles;
	uint64_t start_ns;		/* CLOCK_REALTIME at start_cycles, ns since the Epoch */
};
extern struct ltt_timemap ltt_timemap;

/* Chooses the clock (once per process: TSC calibration busy-waits 5 ms) and takes the (cycles, real
 * time) pair of a new trace into ltt_timemap. */
void ltt_clock_start(void);
/* Real time of cycle count c by the trace's map. */
void ltt_clock_anchor(uint64_t c, uint32_t *sec, uint32_t *nsec);
/* Nonzero when the next trace would use the TSC (calibrates it the first time). */
int ltt_clock_tsc_usable(void);
/* Kernel events (recorder/kernel_clock.c): the next traces use CLOCK_MONOTONIC (on != 0), the clock
 * perf can stamp its records in, where perf gives no TSC conversion. */
void ltt_clock_kernel_monotonic(int on);
/* Tests: use CLOCK_MONOTONIC even where the TSC is usable (on != 0), as on machines without it. */
void ltt_clock_force_monotonic(int on);
/* Tests: use fn as the cycle counter (cycles_per_second cps); fn NULL restores the real clock. */
void ltt_clock_set_test(uint64_t (*fn)(void), uint64_t cps);

#endif
