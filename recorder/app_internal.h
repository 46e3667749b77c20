/* SPDX-License-Identifier: MIT */
/* The app layer's private state (recorder/app*.c): the calling thread's id and region depth, kept
 * in thread-local storage so that regions nest per thread without a lock. */
#ifndef LTT_RECORDER_APP_INTERNAL_H
#define LTT_RECORDER_APP_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <urcu/compiler.h>

/* The generated encoders of eventdefs/app.xml ($(BUILD)/gen/app.h, from `ltt gen`). */
#include "common/clock.h"
#include "app.h"

#define LTT_APP_TIMED_DEPTH 16	/* region triggers time the regions open at depths below this */

struct app_thread {
	uint32_t tid;		/* 0 until the thread's first app event (and again in a forked child) */
	uint32_t depth;		/* regions open on this thread (entered while recording) */
	uint64_t start_ns;	/* CLOCK_MONOTONIC at ltt_thread_start, for thread_exit */
	uint64_t enter_ns[LTT_APP_TIMED_DEPTH];	/* open regions' start, while region triggers exist */
};

/* initial-exec: a plain TLS access, no __tls_get_addr call on the region path. */
extern __thread struct app_thread ltt_app_self __attribute__((tls_model("initial-exec")));

uint32_t ltt_app_tid_slow(void);

static inline uint32_t app_tid(void)
{
	uint32_t tid = ltt_app_self.tid;

	if (caa_unlikely(!tid))
		tid = ltt_app_tid_slow();
	return tid;
}

/* Formats into buf (always NUL-terminated, truncated to fit). */
void ltt_app_vformat(char *buf, size_t len, const char *fmt, va_list ap);

/* Counts the strings of a NULL-terminated argv (NULL counts 0). */
static inline size_t app_argc(const char *const *argv)
{
	size_t n = 0;

	while (argv && argv[n])
		n++;
	return n;
}

#define APP_MSG_MAX 1024	/* formatted messages longer than this are cut */

/* After the recorder's env_start (constructor 102), which starts recording when LTT_TRACE is set. */
#define LTT_APP_CTOR_PRIORITY 110

#endif
