/* SPDX-License-Identifier: MIT */
/* tools/stats/profile_stats.c: `ltt stats --profile`: from the stack samples of the traces, per thread
 * and overall, the flat profile (ticks with the function on top of the stack: self) and the cumulative
 * one (ticks with the function anywhere on it, counted once per sample: total), then the hottest stacks.
 * Samples are weighed by their ticks (a sample stands for 1 + the timer's overrun periods). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/profile.h"

#define TOP_FUNCS	25
#define TOP_STACKS	10

struct tcount {			/* one thread's counts per function index */
	uint64_t *self, *total;
	size_t n;
};

struct stack_ent {
	uint64_t hash, ticks;
	uint32_t thread, n;
	uint32_t *funcs;	/* bottom first */
};

struct pstats {
	struct prof_model m;
	struct tcount *tc;	/* parallel to m.threads */
	size_t ntc;
	struct stack_ent *st;	/* open addressing, hash 0 = empty */
	size_t st_cap, st_used;
};

static int tc_grow(struct pstats *p)
{
	if (p->ntc < p->m.nthreads) {
		struct tcount *n = realloc(p->tc, p->m.cap_threads * sizeof(*n));

		if (!n)
			return -ENOMEM;
		p->tc = n;
		memset(p->tc + p->ntc, 0, (p->m.cap_threads - p->ntc) * sizeof(*n));
		p->ntc = p->m.cap_threads;
	}
	return 0;
}

static int count(struct tcount *c, size_t f, uint64_t ticks, int self)
{
	if (f >= c->n) {
		size_t n = c->n ? c->n : 64;

		while (n <= f)
			n *= 2;
		uint64_t *a = realloc(c->self, n * sizeof(*a)), *b;

		if (!a)
			return -ENOMEM;
		c->self = a;
		b = realloc(c->total, n * sizeof(*b));
		if (!b)
			return -ENOMEM;
		c->total = b;
		memset(c->self + c->n, 0, (n - c->n) * sizeof(*a));
		memset(c->total + c->n, 0, (n - c->n) * sizeof(*b));
		c->n = n;
	}
	if (self)
		c->self[f] += ticks;
	else
		c->total[f] += ticks;
	return 0;
}

static int stack_add(struct pstats *p, uint32_t thread, const uint32_t *funcs, uint32_t n, uint64_t ticks)
{
	uint64_t h = 1469598103934665603ull ^ thread;
	size_t i;

	for (uint32_t k = 0; k < n; k++)
		h = (h ^ funcs[k]) * 1099511628211ull;
	h |= 1;
	if (2 * (p->st_used + 1) > p->st_cap) {
		size_t ncap = p->st_cap ? 2 * p->st_cap : 1024;
		struct stack_ent *t = calloc(ncap, sizeof(*t));

		if (!t)
			return -ENOMEM;
		for (size_t j = 0; j < p->st_cap; j++) {
			if (!p->st[j].hash)
				continue;
			for (i = p->st[j].hash & (ncap - 1); t[i].hash; i = (i + 1) & (ncap - 1))
				;
			t[i] = p->st[j];
		}
		free(p->st);
		p->st = t;
		p->st_cap = ncap;
	}
	for (i = h & (p->st_cap - 1); p->st[i].hash; i = (i + 1) & (p->st_cap - 1)) {
		struct stack_ent *e = &p->st[i];

		if (e->hash == h && e->thread == thread && e->n == n && !memcmp(e->funcs, funcs, 4ull * n)) {
			e->ticks += ticks;
			return 0;
		}
	}
	p->st[i].funcs = malloc(4ull * (n ? n : 1));
	if (!p->st[i].funcs)
		return -ENOMEM;
	memcpy(p->st[i].funcs, funcs, 4ull * n);
	p->st[i].hash = h;
	p->st[i].thread = thread;
	p->st[i].n = n;
	p->st[i].ticks = ticks;
	p->st_used++;
	return 0;
}

static int on_sample(struct pstats *p, const struct ltt_event *ev)
{
	uint32_t funcs[PROF_MAX_DEPTH];
	struct prof_sample s;
	struct prof_thread *t;
	struct tcount *c;
	size_t ti;
	int ret = prof_model_sample(&p->m, ev, &t, &s);

	if (ret <= 0)
		return ret == -EINVAL ? 0 : ret;	/* a malformed sample is one sample less */
	if ((ret = tc_grow(p)))
		return ret;
	ti = (size_t)(t - p->m.threads);
	c = &p->tc[ti];
	p->m.mark++;
	for (unsigned i = 0; i < t->stack.depth; i++) {
		long f = prof_func_of(&p->m, t->stack.ips[i], i + 1 == t->stack.depth);
		struct prof_func *fn;

		if (f < 0)
			return (int)f;
		funcs[i] = (uint32_t)f;
		fn = &p->m.funcs[f];
		if (fn->mark != p->m.mark) {	/* recursion: once per sample */
			fn->mark = p->m.mark;
			fn->total += s.ticks;
			if ((ret = count(c, (size_t)f, s.ticks, 0)))
				return ret;
		}
	}
	if (t->stack.depth) {
		uint32_t top = funcs[t->stack.depth - 1];

		p->m.funcs[top].self += s.ticks;
		if ((ret = count(c, top, s.ticks, 1)))
			return ret;
	}
	return stack_add(p, (uint32_t)ti, funcs, t->stack.depth, s.ticks);
}

static void set_name(struct pstats *p, uint32_t tid, const char *name)
{
	struct prof_thread *t = prof_thread(&p->m, tid, NULL);

	if (t && name)
		snprintf(t->name, sizeof(t->name), "%s", name);
}

static const char *str_field(const struct ltt_event *ev, const char *name)
{
	struct ltt_value body, f;

	if (ltt_event_body(ev, &body) || ltt_value_field(&body, name, &f))
		return NULL;
	return ltt_value_string(&f, NULL);
}

/* ---- printing ------------------------------------------------------------------------------------ */

static const uint64_t *sort_key;
static const uint64_t *sort_key2;

static int by_counts(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (sort_key[x] != sort_key[y])
		return sort_key[x] < sort_key[y] ? 1 : -1;
	if (sort_key2[x] != sort_key2[y])
		return sort_key2[x] < sort_key2[y] ? 1 : -1;
	return x < y ? -1 : x > y;
}

static double pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

static int print_funcs(struct pstats *p, FILE *out, const uint64_t *self, const uint64_t *total, size_t n,
		       uint64_t ticks)
{
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx)), k = 0;

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (total[i])
			idx[k++] = i;
	sort_key = self;
	sort_key2 = total;
	qsort(idx, k, sizeof(*idx), by_counts);
	fprintf(out, "  %10s %6s %10s %6s  %s\n", "self", "self%", "total", "total%", "function");
	for (size_t i = 0; i < k && i < TOP_FUNCS; i++)
		fprintf(out, "  %10" PRIu64 " %5.1f%% %10" PRIu64 " %5.1f%%  %s\n", self[idx[i]],
			pct(self[idx[i]], ticks), total[idx[i]], pct(total[idx[i]], ticks), p->m.funcs[idx[i]].name);
	if (k > TOP_FUNCS)
		fprintf(out, "  ... %zu more functions\n", k - TOP_FUNCS);
	free(idx);
	return 0;
}

static int by_ticks(const void *a, const void *b)
{
	const struct stack_ent *x = *(const struct stack_ent *const *)a, *y = *(const struct stack_ent *const *)b;

	if (x->ticks != y->ticks)
		return x->ticks < y->ticks ? 1 : -1;
	return x->hash < y->hash ? -1 : x->hash > y->hash;
}

/* thread: index, or -1 for all threads (stacks of every thread merged by their functions) */
static int print_stacks(struct pstats *p, FILE *out, long thread, uint64_t ticks)
{
	struct stack_ent **v = malloc((p->st_used ? p->st_used : 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < p->st_cap; i++)
		if (p->st[i].hash && (thread < 0 || p->st[i].thread == (uint32_t)thread))
			v[k++] = &p->st[i];
	qsort(v, k, sizeof(*v), by_ticks);
	fprintf(out, "  hottest stacks (ticks, bottom to top):\n");
	for (size_t i = 0; i < k && i < TOP_STACKS; i++) {
		fprintf(out, "  %10" PRIu64 " %5.1f%%  ", v[i]->ticks, pct(v[i]->ticks, ticks));
		if (thread < 0)
			fprintf(out, "[%" PRIu32 "] ", p->m.threads[v[i]->thread].tid);
		for (uint32_t f = 0; f < v[i]->n; f++)
			fprintf(out, "%s%s", f ? ";" : "", p->m.funcs[v[i]->funcs[f]].name);
		fputc('\n', out);
	}
	free(v);
	return 0;
}

static int report(struct pstats *p, FILE *out)
{
	uint64_t *self, *total;
	size_t sampled = 0;
	int ret = 0;

	fprintf(out, "profile: %" PRIu64 " stack samples, %" PRIu64 " ticks", p->m.samples - p->m.unknown,
		p->m.ticks);
	if (p->m.hz)
		fprintf(out, " at %u Hz of thread CPU time", p->m.hz);
	for (size_t i = 0; i < p->m.nthreads; i++)
		sampled += p->m.threads[i].samples != 0;
	fprintf(out, ", %zu threads; %" PRIu64 " samples without a known stack, %zu functions\n",
		sampled, p->m.unknown, p->m.nfuncs);
	for (size_t i = 0; i < p->m.nthreads && !ret; i++) {
		struct prof_thread *t = &p->m.threads[i];

		if (!t->samples)
			continue;
		fprintf(out, "\nthread %" PRIu32 " \"%s\": %" PRIu64 " samples, %" PRIu64 " ticks\n", t->tid,
			t->name, t->samples, t->ticks);
		ret = print_funcs(p, out, p->tc[i].self, p->tc[i].total, p->tc[i].n, t->ticks);
		if (!ret)
			ret = print_stacks(p, out, (long)i, t->ticks);
	}
	if (ret || !p->m.nfuncs)
		return ret;
	self = malloc(p->m.nfuncs * sizeof(*self));
	total = malloc(p->m.nfuncs * sizeof(*total));
	if (self && total) {
		for (size_t i = 0; i < p->m.nfuncs; i++) {
			self[i] = p->m.funcs[i].self;
			total[i] = p->m.funcs[i].total;
		}
		fprintf(out, "\nall threads: %" PRIu64 " ticks\n", p->m.ticks);
		ret = print_funcs(p, out, self, total, p->m.nfuncs, p->m.ticks);
		if (!ret)
			ret = print_stacks(p, out, -1, p->m.ticks);
	} else {
		ret = -ENOMEM;
	}
	free(self);
	free(total);
	return ret;
}

int profile_report(struct ltt_reader *r, FILE *out)
{
	struct pstats p;
	struct ltt_event ev;
	int ret;

	memset(&p, 0, sizeof(p));
	ret = prof_model_init(&p.m);
	while (!ret && (ret = ltt_reader_next(r, &ev)) == 1) {
		ret = 0;
		if (ev.type->builtin || strcmp(ev.type->facility, "core"))
			continue;
		if (prof_is_core(&ev, "stack_sample"))
			ret = on_sample(&p, &ev);
		else if (prof_model_event(&p.m, &ev))
			continue;
		else if (prof_is_core(&ev, "process"))
			set_name(&p, (uint32_t)prof_field_u64(&ev, "pid"), str_field(&ev, "name"));
		else if (prof_is_core(&ev, "thread_start") || prof_is_core(&ev, "thread_name"))
			set_name(&p, (uint32_t)prof_field_u64(&ev, "tid"), str_field(&ev, "name"));
	}
	if (!ret)
		ret = report(&p, out);
	for (size_t i = 0; i < p.ntc; i++) {
		free(p.tc[i].self);
		free(p.tc[i].total);
	}
	free(p.tc);
	for (size_t i = 0; i < p.st_cap; i++)
		free(p.st[i].funcs);
	free(p.st);
	prof_model_free(&p.m);
	return ret;
}
