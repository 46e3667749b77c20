/* SPDX-License-Identifier: MIT */
/* ltt dump: thread names from the core facility's state events (toolkit/thread_names.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "toolkit/profile.h"
#include "toolkit/thread_names.h"

struct tname {
	unsigned trace;
	uint32_t tid;
	uint64_t time_ns;
	char *name;
};

struct thread_names {
	struct tname *v;
	size_t n, cap;
	/* per trace: its core.mapping events, to name the addresses of func events (function tracing) */
	struct prof_model *pm;
	unsigned npm;
};

static int add(struct thread_names *tn, const struct ltt_event *ev, const char *tid_field)
{
	struct ltt_value body, f;
	const char *s;
	size_t len;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, tid_field, &f))
		return 0;
	if (LTT_GROW_FROM(tn->v, tn->n + 1, tn->cap, 64))
		return -1;
	tn->v[tn->n].trace = ev->trace->index;
	tn->v[tn->n].tid = (uint32_t)ltt_value_uint(&f);
	tn->v[tn->n].time_ns = ev->time_ns;
	if (ltt_value_field(&body, "name", &f))
		return 0;
	s = ltt_value_string(&f, &len);
	if (!s || !len)
		return 0;
	tn->v[tn->n].name = strndup(s, len);
	if (!tn->v[tn->n].name)
		return -1;
	tn->n++;
	return 0;
}

static int by_key(const void *a, const void *b)
{
	const struct tname *x = a, *y = b;

	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->time_ns < y->time_ns ? -1 : x->time_ns > y->time_ns;
}

struct thread_names *thread_names_load(struct ltt_reader *r)
{
	unsigned nt = ltt_reader_ntraces(r);
	const char **paths = calloc(nt ? nt : 1, sizeof(*paths));
	struct ltt_reader_options opt = { .flags = LTT_READ_UNORDERED };
	struct thread_names *tn = calloc(1, sizeof(*tn));
	struct ltt_reader *r2 = NULL;
	struct ltt_event ev;
	int ret = -1;

	if (!paths || !tn)
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
		if (!strcmp(ev.type->name, "process"))
			ret = add(tn, &ev, "pid");	/* one per thread alive at start: pid is its tid */
		else if (!strcmp(ev.type->name, "thread_start") || !strcmp(ev.type->name, "thread_name"))
			ret = add(tn, &ev, "tid");
		if (ret < 0)
			break;
	}
	if (tn->n)	/* tn->v is NULL without names: qsort of NULL is undefined even for 0 (UBSan) */
		qsort(tn->v, tn->n, sizeof(*tn->v), by_key);
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
	size_t lo = 0, hi = tn ? tn->n : 0;
	const struct tname *best = NULL;

	if (!hi)
		return NULL;

	/* the first entry of (trace, tid) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct tname *m = &tn->v[mid];

		if (m->trace < trace || (m->trace == trace && m->tid < tid))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < tn->n && tn->v[i].trace == trace && tn->v[i].tid == tid; i++) {
		if (best && tn->v[i].time_ns > time_ns)
			break;
		best = &tn->v[i];
	}
	return best ? best->name : NULL;
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
	for (size_t i = 0; i < tn->n; i++)
		free(tn->v[i].name);
	free(tn->v);
	free(tn);
}
