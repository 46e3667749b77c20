/* SPDX-License-Identifier: MIT */
/* recorder/clock.c: clock choice, TSC calibration, the cycles -> real time map. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <ltt/ltt.h>

#include "clock.h"
#include "common/format.h"

struct ltt_timemap ltt_timemap;

static uint64_t (*test_clock)(void);
static uint64_t test_cps;
static int tsc_checked;
static int tsc_usable;
static uint64_t tsc_cps;
static int force_monotonic;
static int kernel_monotonic;
#if defined(__x86_64__)
static int tsc_invariant(void);
static uint64_t tsc_calibrate(void);
#endif

void ltt_clock_force_monotonic(int on)
{
	force_monotonic = on;
}

void ltt_clock_kernel_monotonic(int on)
{
	kernel_monotonic = on;
}

int ltt_clock_tsc_usable(void)
{
#if defined(__x86_64__)
	if (!tsc_checked) {
		tsc_usable = tsc_invariant();
		if (tsc_usable)
			tsc_cps = tsc_calibrate();
		tsc_usable = tsc_usable && tsc_cps > 0;
		tsc_checked = 1;
	}
#endif
	return tsc_usable && !force_monotonic && !test_clock;
}

static uint64_t ns_of(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t ltt_clock_now_slow(void)
{
	uint64_t (*fn)(void) = __atomic_load_n(&test_clock, __ATOMIC_ACQUIRE);

	if (fn)
		return fn();
	return ns_of(CLOCK_MONOTONIC);
}

#if defined(__x86_64__)
/* Invariant TSC: the kernel lists both constant_tsc and nonstop_tsc for the boot CPU. */
static int tsc_invariant(void)
{
	char line[4096];
	int constant = 0, nonstop = 0;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5))
			continue;
		constant = strstr(line, " constant_tsc") != NULL;
		nonstop = strstr(line, " nonstop_tsc") != NULL;
		break;
	}
	fclose(f);
	return constant && nonstop;
}

/* Cycles per second against CLOCK_MONOTONIC_RAW over about 5 ms of busy waiting. Each end pairs a
 * TSC read with a clock read taken back to back; the error is the jitter of those pairs (< 1 us)
 * over 5 ms: under 0.05 %. */
static uint64_t tsc_calibrate(void)
{
	uint64_t c0, c1, t0, t1;

	t0 = ns_of(CLOCK_MONOTONIC_RAW);
	c0 = __builtin_ia32_rdtsc();
	do {
		t1 = ns_of(CLOCK_MONOTONIC_RAW);
		c1 = __builtin_ia32_rdtsc();
	} while (t1 - t0 < 5000000);
	return (uint64_t)((unsigned __int128)(c1 - c0) * 1000000000u / (t1 - t0));
}
#endif

void ltt_clock_start(void)
{
	uint64_t c, t;

	if (test_clock) {
		ltt_rt.clock_kind = LTT_CLOCK_OTHER;
		ltt_timemap.clock_name = "tsc";
		ltt_timemap.cycles_per_second = test_cps;
	} else {
		if (ltt_clock_tsc_usable() && !kernel_monotonic) {
			ltt_rt.clock_kind = LTT_CLOCK_TSC;
			ltt_timemap.clock_name = "tsc";
			ltt_timemap.cycles_per_second = tsc_cps;
		} else {
			ltt_rt.clock_kind = LTT_CLOCK_OTHER;
			ltt_timemap.clock_name = "monotonic";
			ltt_timemap.cycles_per_second = 1000000000u;
		}
	}
	t = ns_of(CLOCK_REALTIME);
	c = ltt_clock_now();
	ltt_timemap.start_cycles = c;
	ltt_timemap.start_ns = t;
}

void ltt_clock_anchor(uint64_t c, uint32_t *sec, uint32_t *nsec)
{
	ltt_fmt_cycles_time(ltt_timemap.start_cycles, ltt_timemap.start_ns, ltt_timemap.cycles_per_second, c,
			    sec, nsec);
}

void ltt_clock_set_test(uint64_t (*fn)(void), uint64_t cps)
{
	test_cps = cps;
	__atomic_store_n(&test_clock, fn, __ATOMIC_RELEASE);
}
