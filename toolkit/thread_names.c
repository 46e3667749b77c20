/* SPDX-License-Identifier: MIT */
/* ltt dump: thread names from the core facility's state events (toolkit/thread_names.h), by the one
 * thread table's rules (toolkit/thread_table.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "toolkit/profile.h"
#include "toolkit/thread_names.h"
#include "toolkit/thread_table.h"

struct thread_names {
	struct thread_table *tt;	/* the names, from the control tracefiles' records */
	/* per trace: its core.mapping events, to name the addresses of func events (function tracing) */
	struct prof_model *pm;
	unsigned npm;
};

struct thread_names *thread_names_load(struct ltt_reader *r)
{
	unsigned nt = ltt_reader_ntraces(r);
	const char **paths = calloc(nt ? nt : 1, sizeof(*paths));
	struct ltt_reader_options opt = { .flags = LTT_READ_UNORDERED };
	struct thread_names *tn = calloc(1, sizeof(*tn));
	struct ltt_reader *r2 = NULL;
	struct ltt_event ev;
	int ret = -1;

	if (!paths || !tn || thread_table_new(&tn->tt))
		goto out;
	for (unsigned i = 0; i < nt; i++)
		paths[i] = ltt_reader_trace(r, i)->dir;
	if (ltt_reader_open(&r2, paths, nt, &opt, NULL, 0))
		goto out;
	for (unsigned i = 0; i < ltt_reader_ntraces(r2); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r2, i);

		for (unsigned k = 0; k < t->ntracefiles; k++)
			if (t->tracefiles[k]->cpu >= 0)
				ltt_reader_skip_tracefile(r2, t->tracefiles[k], 1);
	}
	tn->pm = calloc(nt ? nt : 1, sizeof(*tn->pm));
	if (!tn->pm) {
		ret = -1;
		goto out;
	}
	for (unsigned i = 0; i < nt; i++) {
		if (prof_model_init(&tn->pm[i])) {
			ret = -1;
			goto out;
		}
		tn->npm = i + 1;
	}
	while ((ret = ltt_reader_next(r2, &ev)) == 1) {
		if (strcmp(ev.type->facility, "core"))
			continue;
		if (ev.trace && ev.trace->index < tn->npm && prof_is_core(&ev, "mapping")) {
			if (prof_model_event(&tn->pm[ev.trace->index], &ev) < 0) {
				ret = -1;
				break;
			}
			continue;
		}
		/* core.process (one per thread alive at start), thread_start, thread_name: the one thread
		 * table's rules (toolkit/thread_table.h) */
		if (thread_table_event(tn->tt, &ev) < 0) {
			ret = -1;
			break;
		}
	}
out:
	if (r2)
		ltt_reader_close(r2);
	free(paths);
	if (ret < 0) {
		thread_names_free(tn);
		return NULL;
	}
	return tn;
}

const char *thread_names_find(const struct thread_names *tn, unsigned trace, uint32_t tid, uint64_t time_ns)
{
	return tn ? tt_name_at(thread_table_find(tn->tt, trace, tid), time_ns) : NULL;
}

const char *thread_names_func(const struct thread_names *tn, unsigned trace, uint64_t addr, char *buf, size_t n)
{
	struct prof_model *pm;
	const struct prof_func *pf;
	long f;

	if (!tn || trace >= tn->npm)
		return NULL;
	pm = &tn->pm[trace];	/* the model caches what it resolved: not const */
	f = prof_func_of(pm, addr, 1);
	if (f < 0)
		return NULL;
	pf = &pm->funcs[f];
	if (!pf->resolved && !pf->module)
		return NULL;	/* no mapping holds it: nothing to add to the address */
	if (!pf->resolved || addr < pf->start)
		return pf->name;	/* module+0xOFFSET, or 0xADDRESS */
	snprintf(buf, n, "%s+0x%" PRIx64, pf->name, addr - pf->start);
	return buf;
}

void thread_names_free(struct thread_names *tn)
{
	if (!tn)
		return;
	for (unsigned i = 0; i < tn->npm; i++)
		prof_model_free(&tn->pm[i]);
	free(tn->pm);
	thread_table_free(tn->tt);
	free(tn);
}
