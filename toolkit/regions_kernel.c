/* SPDX-License-Identifier: MIT */
/* The kernel columns of `ltt stats --regions` (toolkit/regions.h): a region's time on CPU, runnable
 * and off CPU from the scheduling model's times by state, and its longest system call. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "toolkit/reader_common.h"
#include "toolkit/regions.h"
#include "toolkit/sched_decode.h"
#include "toolkit/sched_model.h"

void reg_kernel_span(struct reg_kernel *k, const uint64_t *a, const uint64_t *b)
{
	for (int i = 0; i < SCHED_NSTATES; i++) {
		uint64_t d = b[i] - a[i];

		if (i <= SCHED_ST_ONCPU_LAST)
			k->on_cpu_ns += d;
		else if (i == SCHED_ST_RUNNABLE)
			k->runnable_ns += d;
		else
			k->off_cpu_ns += d;
	}
	k->known = 1;
}

void reg_kernel_add(struct reg_kernel *x, const struct reg_kernel *k)
{
	x->on_cpu_ns += k->on_cpu_ns;
	x->runnable_ns += k->runnable_ns;
	x->off_cpu_ns += k->off_cpu_ns;
	x->known |= k->known;
	if (k->has_call && (!x->has_call || k->call_ns > x->call_ns)) {
		x->has_call = 1;
		x->call_ns = k->call_ns;
		x->call_nr = k->call_nr;
		x->call_trace = k->call_trace;
	}
}

static void call_name(char *buf, size_t size, const struct reg_kernel *k, struct ltt_reader *r)
{
	const char *name = NULL;

	if (r && k->call_trace < ltt_reader_ntraces(r))
		name = sched_syscall_name(ltt_reader_trace(r, k->call_trace), k->call_nr);
	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "syscall_%" PRIu32, k->call_nr);
}

void reg_kernel_call_text(char *buf, size_t size, const struct reg_kernel *k, struct ltt_reader *r)
{
	char name[40], d[24];

	if (!k->has_call) {
		snprintf(buf, size, "-");
		return;
	}
	call_name(name, sizeof(name), k, r);
	snprintf(buf, size, "%s %s", name, reader_format_duration(d, sizeof(d), k->call_ns));
}

void reg_kernel_json(FILE *out, const struct reg_kernel *k, const char *call_text)
{
	fprintf(out, ",\"on_cpu_ns\":%" PRIu64 ",\"runnable_ns\":%" PRIu64 ",\"off_cpu_ns\":%" PRIu64, k->on_cpu_ns,
		k->runnable_ns, k->off_cpu_ns);
	if (k->has_call) {	/* call_text is "NAME DURATION": the name is one word of [a-z0-9_] */
		int n = (int)strcspn(call_text, " ");

		fprintf(out, ",\"longest_syscall\":{\"name\":\"%.*s\",\"nr\":%" PRIu32 ",\"ns\":%" PRIu64 "}", n, call_text,
			k->call_nr, k->call_ns);
	} else {
		fputs(",\"longest_syscall\":null", out);
	}
}
