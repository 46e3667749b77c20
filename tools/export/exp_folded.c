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

#include "toolkit/export.h"
#include "timeline.h"
#include "toolkit/profile.h"

struct fd_stack {
	uint64_t hash, ticks;
	uint32_t lane, trace, n;
	uint32_t *funcs;		/* function indices of the trace's model, bottom first */
};

struct fd {
	struct timeline *tl;
	struct prof_model *models;	/* per trace */
	unsigned nmodels;
	struct fd_stack *tab;		/* open addressing, hash 0 = empty */
	size_t cap, used;
	uint32_t *order;		/* slots in order of first appearance */
};

static int fd_grow(struct fd *f)
{
	size_t nc = f->cap ? f->cap * 2 : 1024;
	struct fd_stack *nt = calloc(nc, sizeof(*nt));
	uint32_t *no = realloc(f->order, nc / 2 * sizeof(*no));

	if (!nt || !no) {
		free(nt);
		if (no)
			f->order = no;
		return -ENOMEM;
	}
	f->order = no;
	for (size_t k = 0; k < f->used; k++) {
		struct fd_stack *e = &f->tab[f->order[k]];
		size_t h = e->hash & (nc - 1);

		while (nt[h].hash)
			h = (h + 1) & (nc - 1);
		nt[h] = *e;
		f->order[k] = (uint32_t)h;
	}
	free(f->tab);
	f->tab = nt;
	f->cap = nc;
	return 0;
}

static int fd_add(struct fd *f, uint32_t lane, uint32_t trace, const uint32_t *funcs, uint32_t n, uint64_t ticks)
{
	uint64_t h = 1469598103934665603ull ^ ((uint64_t)lane << 32 | trace);
	size_t i;

	for (uint32_t k = 0; k < n; k++)
		h = (h ^ funcs[k]) * 1099511628211ull;
	h |= 1;
	if (2 * (f->used + 1) > f->cap && fd_grow(f))
		return -ENOMEM;
	for (i = h & (f->cap - 1); f->tab[i].hash; i = (i + 1) & (f->cap - 1)) {
		struct fd_stack *e = &f->tab[i];

		if (e->hash == h && e->lane == lane && e->trace == trace && e->n == n &&
		    !memcmp(e->funcs, funcs, n * sizeof(*funcs))) {
			e->ticks += ticks;
			return 0;
		}
	}
	f->tab[i].funcs = malloc((n ? n : 1) * sizeof(*funcs));
	if (!f->tab[i].funcs)
		return -ENOMEM;
	memcpy(f->tab[i].funcs, funcs, n * sizeof(*funcs));
	f->tab[i].hash = h;
	f->tab[i].lane = lane;
	f->tab[i].trace = trace;
	f->tab[i].n = n;
	f->tab[i].ticks = ticks;
	f->order[f->used++] = (uint32_t)i;
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
	for (size_t k = 0; k < f->used; k++) {
		struct fd_stack *e = &f->tab[f->order[k]];

		if (!failed) {
			fd_name(ctx->out, timeline_lane(f->tl, e->lane)->name);
			for (uint32_t i = 0; i < e->n; i++) {
				dump_out_char(ctx->out, ';');
				fd_name(ctx->out, f->models[e->trace].funcs[e->funcs[i]].name);
			}
			dump_out_char(ctx->out, ' ');
			dump_out_u64(ctx->out, e->ticks);
			dump_out_char(ctx->out, '\n');
		}
		free(e->funcs);
	}
	free(f->tab);
	free(f->order);
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
