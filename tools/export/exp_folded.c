/* SPDX-License-Identifier: MIT */
/* ltt export --format=folded: the stack samples as folded stacks, the input of flamegraph.pl and
 * inferno-flamegraph (doc/viewing.md): one line per distinct stack of a thread,
 *
 *     THREAD;root_function;...;leaf_function TICKS
 *
 * THREAD the thread's name (as the timeline names it: core.thread_name, app.thread_start, the program
 * for the main thread), then the functions bottom first, symbolized as by `ltt stats --profile`, and
 * the ticks of CPU time the samples of that stack carry. A ';' or a line break in a name becomes ':'
 * or ' '. Lines in order of first appearance. Memory: one entry per distinct stack. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/hashmap.h"

#include "toolkit/export.h"
#include "timeline.h"
#include "toolkit/profile.h"

/* A stack of a lane: the function indices of the trace's model, bottom first (owned by the entry). */
struct fd_key {
	uint64_t hash;
	uint32_t lane, trace, n;
	const uint32_t *funcs;
};

static inline uint64_t fd_key_hash(struct fd_key k)
{
	return k.hash;
}

static inline int fd_key_eq(struct fd_key a, struct fd_key b)
{
	return a.hash == b.hash && a.lane == b.lane && a.trace == b.trace && a.n == b.n &&
	       (!a.n || !memcmp(a.funcs, b.funcs, a.n * sizeof(*a.funcs)));
}

LTT_MAP_DEFINE(fd_map, struct fd_key, uint32_t, fd_key_hash, fd_key_eq)	/* -> index in fd.v */

struct fd_stack {
	struct fd_key k;
	uint64_t ticks;
};

struct fd {
	struct timeline *tl;
	struct prof_model *models;	/* per trace */
	unsigned nmodels;
	struct fd_map map;
	struct fd_stack *v;		/* in order of first appearance */
	uint32_t n, cap;
};

static int fd_add(struct fd *f, uint32_t lane, uint32_t trace, const uint32_t *funcs, uint32_t n, uint64_t ticks)
{
	struct fd_key k = {.hash = 1469598103934665603ull ^ ((uint64_t)lane << 32 | trace),
			   .lane = lane, .trace = trace, .n = n, .funcs = funcs};
	uint32_t *idx, *copy;

	for (uint32_t i = 0; i < n; i++)
		k.hash = (k.hash ^ funcs[i]) * 1099511628211ull;
	if ((idx = fd_map_find(&f->map, k))) {
		f->v[*idx].ticks += ticks;
		return 0;
	}
	if (LTT_GROW(f->v, f->n + 1, f->cap) || !(copy = malloc((n ? n : 1) * sizeof(*funcs))))
		return -ENOMEM;
	memcpy(copy, funcs, n * sizeof(*funcs));
	k.funcs = copy;
	if (!(idx = fd_map_put(&f->map, k, NULL))) {
		free(copy);
		return -ENOMEM;
	}
	*idx = f->n;
	f->v[f->n++] = (struct fd_stack){.k = k, .ticks = ticks};
	return 0;
}

static int fd_end(struct ltt_export_ctx *ctx, int failed);

static int fd_begin(struct ltt_export_ctx *ctx)
{
	struct fd *f = calloc(1, sizeof(*f));

	if (!f)
		return -ENOMEM;
	ctx->priv = f;
	f->nmodels = ltt_reader_ntraces(ctx->reader);
	f->models = calloc(f->nmodels ? f->nmodels : 1, sizeof(*f->models));
	if (!f->models || timeline_new(&f->tl, ctx->reader))
		goto fail;
	for (unsigned i = 0; i < f->nmodels; i++)
		if (prof_model_init(&f->models[i]))
			goto fail;
	return 0;
fail:
	fd_end(ctx, 1);
	ctx->priv = NULL;
	return -ENOMEM;
}

static int fd_event(struct ltt_export_ctx *ctx, const struct ltt_event *ev)
{
	struct fd *f = ctx->priv;
	struct prof_model *m = &f->models[ev->trace->index];
	uint32_t funcs[PROF_MAX_DEPTH];
	struct prof_thread *t;
	struct prof_sample smp;
	struct tl_event e;
	int ret;

	ret = timeline_event(f->tl, ev, &e);	/* every event: the threads' names */
	if (ret < 0 || !export_type(ev)->core || prof_model_event(m, ev) || !prof_is_core(ev, "stack_sample"))
		return ret < 0 ? ret : 0;
	if (prof_model_sample(m, ev, &t, &smp) != 1 || !t->stack.depth)
		return 0;
	for (unsigned i = 0; i < t->stack.depth; i++) {
		long fi = prof_func_of(m, t->stack.ips[i], i + 1 == t->stack.depth);

		if (fi < 0)
			return (int)fi;
		funcs[i] = (uint32_t)fi;
	}
	return fd_add(f, e.lane->index, ev->trace->index, funcs, t->stack.depth, smp.ticks);
}

/* name with ';' as ':' and line breaks as ' ' */
static void fd_name(struct dump_out *o, const char *s)
{
	for (; *s; s++)
		dump_out_char(o, *s == ';' ? ':' : *s == '\n' || *s == '\r' ? ' ' : *s);
}

static int fd_end(struct ltt_export_ctx *ctx, int failed)
{
	struct fd *f = ctx->priv;

	if (!f)
		return 0;
	for (uint32_t k = 0; k < f->n; k++) {
		const struct fd_key *e = &f->v[k].k;

		if (!failed) {
			fd_name(ctx->out, timeline_lane(f->tl, e->lane)->name);
			for (uint32_t i = 0; i < e->n; i++) {
				dump_out_char(ctx->out, ';');
				fd_name(ctx->out, f->models[e->trace].funcs[e->funcs[i]].name);
			}
			dump_out_char(ctx->out, ' ');
			dump_out_u64(ctx->out, f->v[k].ticks);
			dump_out_char(ctx->out, '\n');
		}
		free((void *)e->funcs);
	}
	free(f->v);
	fd_map_free(&f->map);
	if (f->tl)
		timeline_free(f->tl);
	if (f->models)
		for (unsigned i = 0; i < f->nmodels; i++)
			if (f->models[i].sym)
				prof_model_free(&f->models[i]);
	free(f->models);
	free(f);
	return failed ? 0 : ctx->out->error;
}

const struct ltt_exporter ltt_exp_folded = {
	.name = "folded",
	.summary = "folded stacks of the stack samples (flamegraph.pl, inferno-flamegraph)",
	.suffix = ".folded",
	.begin = fd_begin,
	.event = fd_event,
	.end = fd_end,
};
