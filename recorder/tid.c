/* SPDX-License-Identifier: MIT */
/* recorder/tid.c: the per-thread cache of the kernel thread id that context="tid" events record
 * (ltt_tid() in ltt/static/event.h; doc/eventdefs.md "Context"). A thread reads gettid() once; a
 * fork child resets the cache of its only thread (its id is new). */
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ltt/ltt.h>

__attribute__((visibility("default"), tls_model("initial-exec"))) __thread uint32_t ltt_tid_cache;

__attribute__((visibility("default"))) uint32_t ltt_tid_slow(void)
{
	uint32_t t = (uint32_t)syscall(SYS_gettid);	/* errno untouched: gettid cannot fail */

	ltt_tid_cache = t;
	return t;
}

static void child_reset(void)
{
	ltt_tid_cache = 0;
}

__attribute__((constructor(101))) static void tid_init(void)
{
	pthread_atfork(NULL, NULL, child_reset);
}
