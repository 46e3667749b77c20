/* SPDX-License-Identifier: MIT */
/* select_tid: helper of tests/e2e/select_tid.sh (context="tid", doc/eventdefs.md "Context"). Recording
 * is started by LTT_TRACE. Three threads named worker-0 .. worker-2 each record N seltid.work events
 * (what = the thread's name), N seltid.tick and N seltid.op; the main thread, named "boss", one work.
 *   select_tid run N
 *   select_tid check TRACE     prints "work=W tick=T op=O bad=B": bad counts work events whose tid
 *                              is not the id of the thread named in `what` (core.thread_start /
 *                              thread_name / process) and tick events of an unknown thread
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include <ltt/ltt.h>
#include <ltt/reader.h>

#include "seltid.h"

static long n_events;

static void *worker(void *p)
{
	char name[16];

	snprintf(name, sizeof(name), "worker-%d", (int)(intptr_t)p);
	pthread_setname_np(pthread_self(), name);
	for (long i = 0; i < n_events; i++) {
		trace_seltid_work((uint64_t)i, name);
		trace_seltid_tick();
		trace_seltid_op((uint64_t)i);
	}
	return NULL;
}

struct known {
	uint32_t tid;
	char name[32];
};

static int check(const char *path)
{
	struct known k[64];
	unsigned nk = 0;
	struct ltt_reader *r;
	struct ltt_event ev;
	char err[512];
	unsigned long long work = 0, tick = 0, op = 0, bad = 0;
	int rc;

	if (ltt_reader_open(&r, &path, 1, NULL, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	/* merged in time order: the control tracefiles' thread names come before the threads' events */
	while ((rc = ltt_reader_next(r, &ev)) == 1) {
		struct ltt_value body, f;
		uint32_t tid;
		const char *s;
		size_t len;

		if (ltt_event_body(&ev, &body))
			continue;
		if (!strcmp(ev.type->facility, "core") && (!strcmp(ev.type->name, "thread_start") ||
		    !strcmp(ev.type->name, "thread_name") || !strcmp(ev.type->name, "process"))) {
			if (ltt_value_field(&body, strcmp(ev.type->name, "process") ? "tid" : "pid", &f))
				continue;
			tid = (uint32_t)ltt_value_uint(&f);
			if (ltt_value_field(&body, "name", &f) || !(s = ltt_value_string(&f, &len)))
				continue;
			unsigned i = 0;

			while (i < nk && k[i].tid != tid)
				i++;
			if (i == nk && nk < 64)
				nk++;
			if (i < 64) {
				k[i].tid = tid;
				snprintf(k[i].name, sizeof(k[i].name), "%.*s", (int)len, s);
			}
			continue;
		}
		if (strcmp(ev.type->facility, "seltid"))
			continue;
		if (!strcmp(ev.type->name, "op")) {
			op++;
			if (!ltt_value_field(&body, "tid", &f))
				bad++;	/* context="none": no tid */
			continue;
		}
		if (ltt_value_field(&body, "tid", &f)) {
			bad++;
			continue;
		}
		tid = (uint32_t)ltt_value_uint(&f);
		if (!strcmp(ev.type->name, "tick")) {
			unsigned i = 0;

			tick++;
			while (i < nk && k[i].tid != tid)
				i++;
			bad += i == nk;
			continue;
		}
		work++;
		if (ltt_value_field(&body, "what", &f) || !(s = ltt_value_string(&f, &len))) {
			bad++;
			continue;
		}
		unsigned i = 0;

		while (i < nk && k[i].tid != tid)
			i++;
		bad += i == nk || strlen(k[i].name) != len || memcmp(k[i].name, s, len);
	}
	printf("work=%llu tick=%llu op=%llu bad=%llu\n", work, tick, op, bad);
	ltt_reader_close(r);
	return rc < 0;
}

int main(int argc, char **argv)
{
	pthread_t t[3];

	if (argc == 3 && !strcmp(argv[1], "check"))
		return check(argv[2]);
	if (argc != 3 || strcmp(argv[1], "run"))
		return 2;
	n_events = atol(argv[2]);
	prctl(PR_SET_NAME, "boss", 0, 0, 0);
	trace_seltid_work(0, "boss");
	for (intptr_t i = 0; i < 3; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 1;
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
