/* SPDX-License-Identifier: MIT */
/* The app layer, thread side: thread names, regions, data, printf, timers and counters. Region
 * enter and leave are the hot calls: a TLS read for the thread id and depth, one generated encoder
 * call, nothing else (no clock read: the event's own timestamp is the region's time). */
#include <stdio.h>
#include <string.h>

#include <urcu/uatomic.h>

#include <ltt/app.h>

#include "app_internal.h"
#include "flight.h"

__thread struct app_thread ltt_app_self __attribute__((tls_model("initial-exec")));

static unsigned app_thread_next;	/* numbers of named threads: th01, th02, ... */

void ltt_app_thread_start_fl(const char *file, int line, const char *name)
{
	unsigned number = uatomic_add_return(&app_thread_next, 1);

	ltt_app_self.start_ns = ltt_mono_ns();
	trace_app_thread_start(app_tid(), file, (uint32_t)line, number, name);
}

void ltt_app_thread_exit_fl(const char *file, int line)
{
	uint64_t now = ltt_mono_ns();
	uint64_t start = ltt_app_self.start_ns;

	trace_app_thread_exit(app_tid(), file, (uint32_t)line, start && now > start ? now - start : 0);
}

/* flatten: the generated encoder and the recorder's reserve/commit inlined into the hot calls. */
__attribute__((flatten)) void ltt_app_region_enter_fl(const char *file, int line, const char *category, const char *label,
			     const char *msg)
{
	uint32_t tid = app_tid();
	uint32_t depth = ltt_app_self.depth;

	ltt_app_self.depth = depth + 1;
	trace_app_region_enter(tid, file, (uint32_t)line, depth, category, label, msg);
	/* region triggers (LTT_SNAPSHOT_ON=region:LABEL>DURATION, recorder/flight_duration.c): one load
	 * when there are none (relaxed: set at start, before the program records) */
	if (caa_unlikely(__atomic_load_n(&ltt_trigger_regions, __ATOMIC_RELAXED)) && depth < LTT_APP_TIMED_DEPTH)
		ltt_app_self.enter_ns[depth] = ltt_mono_ns();
}

__attribute__((flatten)) void ltt_app_region_leave_fl(const char *file, int line, const char *category, const char *label,
			     const char *msg)
{
	uint32_t tid = app_tid();
	uint32_t depth = ltt_app_self.depth;

	/* A leave without its enter (entered before recording started) leaves the depth at 0. */
	if (caa_likely(depth > 0))
		depth--;
	ltt_app_self.depth = depth;
	trace_app_region_leave(tid, file, (uint32_t)line, depth, category, label, msg);
	if (caa_unlikely(__atomic_load_n(&ltt_trigger_regions, __ATOMIC_RELAXED)) && depth < LTT_APP_TIMED_DEPTH &&
	    ltt_app_self.enter_ns[depth]) {
		uint64_t now = ltt_mono_ns(), t0 = ltt_app_self.enter_ns[depth];

		ltt_app_self.enter_ns[depth] = 0;
		if (now > t0)
			ltt_trigger_region_left(label, now - t0, tid);
	}
}

void ltt_app_region_enter_printf_fl(const char *file, int line, const char *category, const char *label,
				    const char *fmt, ...)
{
	char msg[APP_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	ltt_app_vformat(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ltt_app_region_enter_fl(file, line, category, label, msg);
}

void ltt_app_region_leave_printf_fl(const char *file, int line, const char *category, const char *label,
				    const char *fmt, ...)
{
	char msg[APP_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	ltt_app_vformat(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ltt_app_region_leave_fl(file, line, category, label, msg);
}

void ltt_app_data_int_fl(const char *file, int line, const char *category, const char *key, int64_t value)
{
	trace_app_data_int(app_tid(), file, (uint32_t)line, ltt_app_self.depth, category, key, value);
}

void ltt_app_data_string_fl(const char *file, int line, const char *category, const char *key,
			    const char *value)
{
	trace_app_data_string(app_tid(), file, (uint32_t)line, ltt_app_self.depth, category, key, value);
}

void ltt_app_data_json_fl(const char *file, int line, const char *category, const char *key,
			  const char *json)
{
	trace_app_data_json(app_tid(), file, (uint32_t)line, ltt_app_self.depth, category, key, json);
}

void ltt_app_printf_fl(const char *file, int line, const char *fmt, ...)
{
	char msg[APP_MSG_MAX];
	va_list ap;

	va_start(ap, fmt);
	ltt_app_vformat(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	trace_app_printf(app_tid(), file, (uint32_t)line, ltt_app_self.depth, msg);
}

void ltt_stopwatch_start(struct ltt_stopwatch *sw)
{
	sw->started_ns = ltt_mono_ns();
}

void ltt_stopwatch_stop(struct ltt_stopwatch *sw)
{
	uint64_t now = ltt_mono_ns();
	uint64_t d;

	if (!sw->started_ns)
		return;
	d = now > sw->started_ns ? now - sw->started_ns : 0;
	sw->started_ns = 0;
	if (!sw->intervals || d < sw->min_ns)
		sw->min_ns = d;
	if (d > sw->max_ns)
		sw->max_ns = d;
	sw->total_ns += d;
	sw->intervals++;
}

void ltt_app_timer_fl(const char *file, int line, const char *category, const char *name,
		      const struct ltt_stopwatch *sw)
{
	trace_app_timer(app_tid(), file, (uint32_t)line, category, name, sw->intervals, sw->total_ns,
			sw->min_ns, sw->max_ns);
}

void ltt_app_counter_fl(const char *file, int line, const char *category, const char *name, int64_t value)
{
	trace_app_counter(app_tid(), file, (uint32_t)line, category, name, value);
}
