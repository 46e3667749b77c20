/* SPDX-License-Identifier: MIT */
/* tools/stats/profile_stats.c: `ltt stats --profile`: from the stack samples of the traces, per thread
 * and overall, the flat profile (ticks with the function on top of the stack: self) and the cumulative
 * one (ticks with the function anywhere on it, counted once per sample: total), then the hottest stacks.
 * Samples are weighed by their ticks (a sample stands for 1 + the timer's overrun periods). Limits
 * (struct prof_limits: threads, a time range, a region open on the thread) choose the samples counted;
 * every sample still builds its thread's stack. */
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/hashmap.h"

#include "toolkit/losses.h"
#include "toolkit/profile.h"
#include "report.h"

#define TOP_FUNCS	25
#define TOP_STACKS	10

struct tcount {			/* one thread's counts per function index */
	uint64_t *self, *total;
	size_t n;
	uint64_t samples, ticks;	/* within the limits */
};

/* The regions open on a thread (--region): whether each, by nesting, matches the limit's label. */
struct rthread {
	unsigned trace;
	uint32_t tid;
	unsigned depth, cap;
	uint8_t *match;
};

#define PROF_REGION_DEPTH_MAX 4096	/* deeper regions are not followed (toolkit/regions.c's bound) */

/* A stack of one thread: its functions, bottom first (owned by the map once put), and their hash. */
struct stack_key {
	uint64_t hash;
	uint32_t thread, n;
	const uint32_t *funcs;
};

static inline uint64_t stack_key_hash(struct stack_key k)
{
	return k.hash;
}

static inline int stack_key_eq(struct stack_key a, struct stack_key b)
{
	return a.hash == b.hash && a.thread == b.thread && a.n == b.n &&
	       (!a.n || !memcmp(a.funcs, b.funcs, 4ull * a.n));
}

LTT_MAP_DEFINE(stack_map, struct stack_key, uint64_t, stack_key_hash, stack_key_eq)	/* -> ticks */

struct pstats {
	struct prof_model m;
	struct losses loss;	/* the window's loss records (toolkit/losses.h) */
	struct tcount *tc;	/* parallel to m.threads */
	size_t ntc;
	struct stack_map st;
	const struct prof_limits *lim;
	uint64_t samples, ticks, unknown;	/* within the limits */
	uint64_t outside;			/* samples with a known stack outside them */
	struct rthread *rt;
	size_t nrt, caprt;
};

static int tc_grow(struct pstats *p)
{
	return LTT_GROW_ZERO(p->tc, p->m.nthreads, p->ntc);	/* ntc: the capacity, every entry zeroed */
}

static int count(struct tcount *c, size_t f, uint64_t ticks, int self)
{
	if (f >= c->n) {
		size_t ns = c->n, nt = c->n;	/* two arrays, one size c->n, zeroed */

		if (LTT_GROW_ZERO_FROM(c->self, f + 1, ns, 64) || LTT_GROW_ZERO_FROM(c->total, f + 1, nt, 64))
			return -ENOMEM;
		c->n = ns;
	}
	if (self)
		c->self[f] += ticks;
	else
		c->total[f] += ticks;
	return 0;
}

static int stack_add(struct pstats *p, uint32_t thread, const uint32_t *funcs, uint32_t n, uint64_t ticks)
{
	struct stack_key k = {.hash = 1469598103934665603ull ^ thread, .thread = thread, .n = n, .funcs = funcs};
	uint64_t *t;
	uint32_t *copy;

	for (uint32_t i = 0; i < n; i++)
		k.hash = (k.hash ^ funcs[i]) * 1099511628211ull;
	k.hash |= 1;
	if ((t = stack_map_find(&p->st, k))) {
		*t += ticks;
		return 0;
	}
	if (!(copy = malloc(4ull * (n ? n : 1))))
		return -ENOMEM;
	memcpy(copy, funcs, 4ull * n);
	k.funcs = copy;
	if (!(t = stack_map_put(&p->st, k, NULL))) {
		free(copy);
		return -ENOMEM;
	}
	*t = ticks;
	return 0;
}

static struct rthread *rthread_get(struct pstats *p, unsigned trace, uint32_t tid)
{
	for (size_t i = 0; i < p->nrt; i++)
		if (p->rt[i].tid == tid && p->rt[i].trace == trace)
			return &p->rt[i];
	if (LTT_GROW(p->rt, p->nrt + 1, p->caprt))
		return NULL;
	memset(&p->rt[p->nrt], 0, sizeof(p->rt[0]));
	p->rt[p->nrt].trace = trace;
	p->rt[p->nrt].tid = tid;
	return &p->rt[p->nrt++];
}

/* app.region_enter / region_leave: nesting is the regions open around it (enter) or still open
 * (leave); the slots below an enter whose outer regions began before the trace do not match. */
static int on_region(struct pstats *p, const struct ltt_event *ev, int enter)
{
	uint64_t nesting = prof_field_u64(ev, "nesting");
	struct ltt_value body, f;
	struct rthread *t = rthread_get(p, ev->trace->index, (uint32_t)prof_field_u64(ev, "tid"));
	const char *label;

	if (!t)
		return -ENOMEM;
	if (!enter) {
		if (nesting < t->depth)
			t->depth = (unsigned)nesting;
		return 0;
	}
	if (nesting >= PROF_REGION_DEPTH_MAX)
		return 0;
	if (LTT_GROW(t->match, (size_t)nesting + 1, t->cap))
		return -ENOMEM;
	for (unsigned d = t->depth; d < nesting; d++)
		t->match[d] = 0;
	label = ltt_event_body(ev, &body) || ltt_value_field(&body, "label", &f) ? NULL : ltt_value_string(&f, NULL);
	t->match[nesting] = label && !fnmatch(p->lim->region, label, 0);
	t->depth = (unsigned)nesting + 1;
	return 0;
}

/* Whether the sample of thread tid at ev is within the limits. */
static int within(const struct pstats *p, const struct ltt_event *ev, uint32_t tid)
{
	const struct prof_limits *l = p->lim;

	if (!l)
		return 1;
	if (ev->time_ns < l->from_ns || ev->time_ns > l->to_ns)
		return 0;
	if (l->tids && l->tids->n && !tid_list_has(l->tids, tid))
		return 0;
	if (l->region) {
		for (size_t i = 0; i < p->nrt; i++) {
			const struct rthread *t = &p->rt[i];

			if (t->tid != tid || t->trace != ev->trace->index)
				continue;
			for (unsigned d = 0; d < t->depth; d++)
				if (t->match[d])
					return 1;
			return 0;
		}
		return 0;
	}
	return 1;
}

static int on_sample(struct pstats *p, const struct ltt_event *ev)
{
	uint32_t funcs[PROF_MAX_DEPTH];
	struct prof_sample s;
	struct prof_thread *t;
	struct tcount *c;
	size_t ti;
	int ret = prof_model_sample(&p->m, ev, &t, &s);

	if (ret == 0 && within(p, ev, s.tid))
		p->unknown++;
	if (ret <= 0)
		return ret == -EINVAL ? 0 : ret;	/* a malformed sample is one sample less */
	if (!within(p, ev, s.tid)) {
		p->outside++;
		return 0;
	}
	if ((ret = tc_grow(p)))
		return ret;
	ti = (size_t)(t - p->m.threads);
	c = &p->tc[ti];
	c->samples++;
	c->ticks += s.ticks;
	p->samples++;
	p->ticks += s.ticks;
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
	const struct stack_map_slot *x = *(const struct stack_map_slot *const *)a;
	const struct stack_map_slot *y = *(const struct stack_map_slot *const *)b;

	if (x->val != y->val)
		return x->val < y->val ? 1 : -1;
	return x->key.hash < y->key.hash ? -1 : x->key.hash > y->key.hash;
}

/* thread: index, or -1 for all threads (stacks of every thread merged by their functions) */
static int print_stacks(struct pstats *p, FILE *out, long thread, uint64_t ticks)
{
	const struct stack_map_slot **v = malloc((p->st.count ? p->st.count : 1) * sizeof(*v));
	size_t k = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < p->st.size; i++)
		if (p->st.slot[i].used && (thread < 0 || p->st.slot[i].key.thread == (uint32_t)thread))
			v[k++] = &p->st.slot[i];
	qsort(v, k, sizeof(*v), by_ticks);
	fprintf(out, "  hottest stacks (ticks, bottom to top):\n");
	for (size_t i = 0; i < k && i < TOP_STACKS; i++) {
		const struct stack_key *s = &v[i]->key;

		fprintf(out, "  %10" PRIu64 " %5.1f%%  ", v[i]->val, pct(v[i]->val, ticks));
		if (thread < 0)
			fprintf(out, "[%" PRIu32 "] ", p->m.threads[s->thread].tid);
		for (uint32_t f = 0; f < s->n; f++)
			fprintf(out, "%s%s", f ? ";" : "", p->m.funcs[s->funcs[f]].name);
		fputc('\n', out);
	}
	free(v);
	return 0;
}

/* "limited to ...: N of M samples": what the limits were and what they kept. */
static void limits_line(const struct pstats *p, FILE *out)
{
	const struct prof_limits *l = p->lim;

	fprintf(out, "limited to");
	if (l->tids && l->tids->n) {
		fprintf(out, " threads");
		for (unsigned i = 0; i < l->tids->n; i++)
			fprintf(out, "%s%" PRId64, i ? "," : " ", l->tids->v[i]);
		fprintf(out, ";");
	}
	if (l->from_ns || l->to_ns != UINT64_MAX)
		fprintf(out, " time %" PRIu64 ".%09" PRIu64 " .. %" PRIu64 ".%09" PRIu64 ";", l->from_ns / 1000000000u,
			l->from_ns % 1000000000u, l->to_ns / 1000000000u, l->to_ns % 1000000000u);
	if (l->region)
		fprintf(out, " region '%s' open on the thread;", l->region);
	fprintf(out, " %" PRIu64 " of %" PRIu64 " samples with a known stack\n", p->samples, p->samples + p->outside);
}

static int report(struct pstats *p, FILE *out)
{
	uint64_t *self, *total;
	size_t sampled = 0;
	int ret = 0;

	size_t nfuncs = 0;

	for (size_t i = 0; i < p->m.nfuncs; i++)
		nfuncs += p->m.funcs[i].total != 0;
	losses_print_text(&p->loss, out, NULL, 0);
	fprintf(out, "profile: %" PRIu64 " stack samples, %" PRIu64 " ticks", p->samples, p->ticks);
	if (p->m.hz)
		fprintf(out, " at %u Hz of thread CPU time", p->m.hz);
	for (size_t i = 0; i < p->ntc && i < p->m.nthreads; i++)
		sampled += p->tc[i].samples != 0;
	fprintf(out, ", %zu threads; %" PRIu64 " samples without a known stack, %zu functions\n",
		sampled, p->unknown, nfuncs);
	if (p->lim)
		limits_line(p, out);
	for (size_t i = 0; i < p->ntc && i < p->m.nthreads && !ret; i++) {
		struct prof_thread *t = &p->m.threads[i];

		if (!p->tc[i].samples)
			continue;
		fprintf(out, "\nthread %" PRIu32 " \"%s\": %" PRIu64 " samples, %" PRIu64 " ticks\n", t->tid,
			t->name, p->tc[i].samples, p->tc[i].ticks);
		ret = print_funcs(p, out, p->tc[i].self, p->tc[i].total, p->tc[i].n, p->tc[i].ticks);
		if (!ret)
			ret = print_stacks(p, out, (long)i, p->tc[i].ticks);
	}
	if (ret || !nfuncs)
		return ret;
	self = malloc(p->m.nfuncs * sizeof(*self));
	total = malloc(p->m.nfuncs * sizeof(*total));
	if (self && total) {
		for (size_t i = 0; i < p->m.nfuncs; i++) {
			self[i] = p->m.funcs[i].self;
			total[i] = p->m.funcs[i].total;
		}
		fprintf(out, "\nall threads: %" PRIu64 " ticks\n", p->ticks);
		ret = print_funcs(p, out, self, total, p->m.nfuncs, p->ticks);
		if (!ret)
			ret = print_stacks(p, out, -1, p->ticks);
	} else {
		ret = -ENOMEM;
	}
	free(self);
	free(total);
	return ret;
}

static int profile_report(struct ltt_reader *r, const struct stats_args *a)
{
	const struct prof_limits *lim = a->lim;
	FILE *out = a->out;
	struct pstats p;
	struct ltt_event ev;
	int ret;

	memset(&p, 0, sizeof(p));
	p.lim = lim;
	losses_init(&p.loss);
	losses_reader(r);	/* the reader was opened with LTT_READ_BUILTIN: the loss records */
	ret = prof_model_init(&p.m);
	while (!ret && (ret = ltt_reader_next(r, &ev)) == 1) {
		if (losses_type(ev.type) && lim && (ev.time_ns < lim->from_ns || ev.time_ns > lim->to_ns))
			continue;	/* a loss outside the window --from/--to asks for */
		if ((ret = losses_event(&p.loss, &ev)) != 0) {
			ret = ret < 0 ? ret : 0;
			continue;
		}
		if (ev.type->builtin)
			continue;
		if (lim && lim->region && !strcmp(ev.type->facility, "app") &&
		    (!strcmp(ev.type->name, "region_enter") || !strcmp(ev.type->name, "region_leave"))) {
			ret = on_region(&p, &ev, !strcmp(ev.type->name, "region_enter"));
			continue;
		}
		if (strcmp(ev.type->facility, "core"))
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
	for (size_t i = 0; i < p.st.size; i++)
		if (p.st.slot[i].used)
			free((void *)p.st.slot[i].key.funcs);
	stack_map_free(&p.st);
	for (size_t i = 0; i < p.nrt; i++)
		free(p.rt[i].match);
	free(p.rt);
	prof_model_free(&p.m);
	losses_free(&p.loss);
	return ret;
}

const struct stats_report stats_report_profile = {
	.option = "profile",
	.flags = STATS_TAKES_LIMITS | STATS_TAKES_REGION,
	.run = profile_report,
};
