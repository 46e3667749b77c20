/* SPDX-License-Identifier: MIT */
/* recorder/kernel_clock.c: one timeline for kernel and user events (doc/format.md section 13). perf
 * stamps its records in the trace's clock where it can (use_clockid, CLOCK_MONOTONIC); where the trace
 * clock is the TSC, perf's own clock is converted back to TSC cycles by the kernel's published formula
 * (struct perf_event_mmap_page: cap_user_time_zero, time_zero, time_mult, time_shift). */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ltt/static/atomic.h>

#include "common/perf_page.h"
#include "clock.h"
#include "kernel.h"

uint64_t ltt_kernel_time_of(const struct ltt_kconv *c, uint64_t cyc)
{
	uint64_t quot = cyc >> c->shift, rem = cyc & ((1ull << c->shift) - 1);

	return c->time_zero + quot * c->mult + ((rem * c->mult) >> c->shift);
}

uint64_t ltt_kernel_tsc_of(const struct ltt_kconv *c, uint64_t t)
{
	uint64_t cyc;

	if (t <= c->time_zero || !c->mult)
		return 0;
	/* the inverse of the linear part, then the exact step: time_of is non-decreasing */
	cyc = (uint64_t)(((unsigned __int128)(t - c->time_zero) << c->shift) / c->mult);
	while (ltt_kernel_time_of(c, cyc) < t)
		cyc++;
	while (cyc && ltt_kernel_time_of(c, cyc - 1) >= t)
		cyc--;
	return cyc;
}

int ltt_kernel_conv_read(const void *page, struct ltt_kconv *c)
{
	const volatile struct perf_event_mmap_page *pg = page;
	uint32_t seq;

	do {
		seq = pg->lock;
		/* Read barrier: the fields after the sequence count; pairs with the kernel's update
		 * (seqcount write side, perf_event_update_userpage); a no-op under TSan (atomic.h) */
		ltt_smp_rmb();
		if (!pg->cap_user_time_zero)
			return -ENOTSUP;
		c->time_zero = pg->time_zero;
		c->mult = pg->time_mult;
		c->shift = pg->time_shift;
		/* Read barrier: the fields before the second read of the count; same pair */
		ltt_smp_rmb();
	} while (pg->lock != seq || (seq & 1));
	c->tsc = 1;
	return 0;
}

/* Whether the kernel publishes perf's TSC conversion: asked of a dummy event of this thread. */
static int perf_has_tsc_conversion(void)
{
	struct ltt_kconv c;
	const void *m;
	size_t len;
	int fd = ltt_perf_dummy_page(&m, &len), rc;

	if (fd < 0)
		return 0;
	rc = ltt_kernel_conv_read(m, &c) == 0;
	munmap((void *)m, len);
	close(fd);
	return rc;
}

void ltt_kernel_clock_prepare(void)
{
	ltt_clock_kernel_monotonic(ltt_clock_tsc_usable() && !perf_has_tsc_conversion());
}
