// SPDX-License-Identifier: MIT
/* ltt export --format=html: one self-contained page holding an interactive timeline viewer and the
 * trace (doc/viewing.md "The HTML viewer"). The events go through the models the other timeline
 * formats use: the timeline (timeline.h: lanes, Trace2 regions, declared spans, function calls, child
 * processes, counters, losses), the scheduling model (toolkit/sched_model.h: each thread's kernel
 * states, and which thread ran on each CPU) and the profile model (toolkit/profile.h: stack samples,
 * symbolized). What they give is kept in html_model.c's bounded store (the longest intervals whole,
 * summaries of everything), and html_write.c writes the page. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/hashmap.h"
#include "toolkit/export.h"
#include "toolkit/profile.h"
#include "toolkit/sched_decode.h"
#include "toolkit/sched_model.h"
#include "html_model.h"
#include "html_write.h"
#include "timeline.h"

#define HX_MAX_LOSSES 65536	/* loss markers; later records are merged into the last */
#define HX_MAX_NODES (1u << 20)	/* stack nodes (a function under a caller) */
#define HX_MAX_ELEMS 16		/* array elements shown per field in the details */

LTT_MAP_DEFINE(hx_nodemap, uint64_t, uint32_t, ltt_hash_u64, ltt_eq_u64)

struct hx {
	struct ltt_export_ctx *ctx;
	struct hm m;
	struct timeline *tl;
	struct sched_model *sm;
	struct sched_decoder *sd;
	struct prof_model *pm;		/* one per trace */
	unsigned npm;
	uint64_t t0, last_ns, events;
	int states;
	struct hw_loss *losses;
	size_t nlosses, caplosses;
	uint64_t lost_total, losses_merged;
	uint32_t *parent, *func;	/* stack nodes, index 0 unused */
	size_t nnodes, capparent, capfunc;
	struct hx_nodemap nodes;
	uint64_t samples_unknown;
	struct dump_out *scratch;	/* fields as JSON */
	char fname[256];
	int err;
};

static uint64_t rel(const struct hx *x, uint64_t t)
{
	return t > x->t0 ? t - x->t0 : 0;
}

/* ---- lanes --------------------------------------------------------------------------------------------- */

static long thread_lane(struct hx *x, unsigned trace, uint32_t tid, uint32_t pid)
{
	int created;
	long i = hm_lane(&x->m, HM_LANE_THREAD, trace, tid, &created);

	if (i >= 0 && created)
		x->m.lanes[i].pid = pid;
	return i;
}

/* The store's lane of a timeline lane (cached in its user[1], index + 1). */
static long tl_lane(struct hx *x, struct tl_lane *l)
{
	int created;
	long i;

	if (l->user[1])
		return (long)l->user[1] - 1;
	if (l->is_thread)
		i = thread_lane(x, l->proc->trace, l->tid, l->proc->pid);
	else
		i = hm_lane(&x->m, l->is_span ? HM_LANE_SPAN : HM_LANE_FILE, l->proc->trace, l->index, &created);
	if (i < 0)
		return i;
	x->m.lanes[i].tl = l;
	if (!l->is_thread)
		x->m.lanes[i].pid = l->proc->pid;
	l->user[1] = (uint64_t)i + 1;
	return i;
}

/* ---- kernel states and CPUs ------------------------------------------------------------------------------ */

static int cpu_flush(struct hx *x, struct hm_lane *c, uint32_t cl)
{
	struct hm_item it = { .start = c->cur_start, .dur = c->cur_end - c->cur_start, .lane = cl,
			      .args = c->cur_lane, .kind = HM_ONCPU };

	c->cur = 0;
	return it.dur ? hm_add(&x->m, &it) : 0;
}

static int on_interval(void *arg, const struct sched_interval *iv)
{
	struct hx *x = arg;
	long l = thread_lane(x, iv->trace, iv->tid, iv->pid != SCHED_TID_NONE ? iv->pid : iv->tid);
	struct hm_item it = { .start = rel(x, iv->start_ns), .kind = HM_STATE, .name = iv->state };
	int ret;

	if (l < 0)
		return (int)l;
	it.lane = (uint32_t)l;
	it.dur = rel(x, iv->end_ns) - it.start;
	if (iv->has_nr) {
		const char *n = sched_syscall_name(ltt_reader_trace(x->ctx->reader, iv->trace), iv->nr);
		char b[32];

		if (!n) {
			snprintf(b, sizeof(b), "syscall %" PRIu32, iv->nr);
			n = b;
		}
		it.args = hm_intern(&x->m, n, strlen(n), 1);
	}
	x->states = 1;
	if (!it.dur)
		return 0;
	if ((ret = hm_add(&x->m, &it)))
		return ret;
	if (iv->state <= SCHED_ST_ONCPU_LAST && iv->cpu >= 0) {
		int created;
		long cl = hm_lane(&x->m, HM_LANE_CPU, iv->trace, (uint32_t)iv->cpu, &created);
		struct hm_lane *c;

		if (cl < 0)
			return (int)cl;
		c = &x->m.lanes[cl];
		if (created)
			snprintf(c->name, sizeof(c->name), "CPU %d", iv->cpu);
		if (c->cur && c->cur_lane == (uint32_t)l && c->cur_end == it.start) {
			c->cur_end = it.start + it.dur;
			return 0;
		}
		if (c->cur && (ret = cpu_flush(x, c, (uint32_t)cl)))
			return ret;
		c->cur = 1;
		c->cur_lane = (uint32_t)l;
		c->cur_start = it.start;
		c->cur_end = it.start + it.dur;
	}
	return 0;
}

/* ---- fields as JSON ---------------------------------------------------------------------------------- */

static int leaf(void *arg, const char *name, size_t len, const struct ltt_value *v)
{
	struct dump_out *o = arg;
	const char *s;
	size_t n;

	if (!strcmp(name, "tid"))
		return 0;
	if (o->len > 1)
		dump_out_char(o, ',');
	dump_out_json_string(o, name, len);
	dump_out_char(o, ':');
	switch (v->type->kind) {
	case LTT_TYPE_INT: dump_out_i64(o, ltt_value_int(v)); break;
	case LTT_TYPE_UINT: dump_out_u64(o, ltt_value_uint(v)); break;
	case LTT_TYPE_FLOAT: {
		char b[40];

		snprintf(b, sizeof(b), "%.17g", ltt_value_float(v));
		dump_out_json_string(o, b, strlen(b));
		break;
	}
	case LTT_TYPE_ENUM:
		s = ltt_value_enum_label(v);
		if (s)
			dump_out_json_string(o, s, strlen(s));
		else
			dump_out_u64(o, ltt_value_uint(v));
		break;
	case LTT_TYPE_STRING:
		s = ltt_value_string(v, &n);
		dump_out_json_string(o, s, n > 256 ? 256 : n);
		break;
	default:
		dump_out_str(o, "null");
	}
	return o->len > 2048;	/* enough for the details panel */
}

/* The event's fields as a JSON object in x->scratch (o->len 0: none). */
static void fields_json(struct hx *x, const struct ltt_event *ev)
{
	struct dump_out *o = x->scratch;
	struct ltt_value body;

	o->len = 0;
	o->error = 0;
	dump_out_char(o, '{');
	if (ltt_event_body(ev, &body) == 0)
		export_walk(&body, x->fname, sizeof(x->fname), 0, HX_MAX_ELEMS, leaf, o);
	if (x->ctx->ntraces > 1) {
		if (o->len > 1)
			dump_out_char(o, ',');
		dump_out_str(o, "\"trace\":");
		dump_out_json_string(o, ev->trace->path, strlen(ev->trace->path));
	}
	dump_out_char(o, '}');
	if (o->len <= 2)
		o->len = 0;
}

/* The event's fields as a JSON object (a string of the store, 0 when none or not kept). */
static uint32_t fields(struct hx *x, const struct ltt_event *ev)
{
	fields_json(x, ev);
	return x->scratch->len ? hm_intern(&x->m, x->scratch->buf, x->scratch->len, 1) : 0;
}

/* Ends open region op of lane l at t (relative ns): the interval, its fields interned if kept. */
static int close_open(struct hx *x, uint32_t l, struct hm_open *op, uint32_t depth, uint64_t t)
{
	struct hm_item it = { .start = op->start, .dur = t - op->start, .lane = l, .name = op->name,
			      .depth = (uint16_t)(depth < 65535 ? depth : 65535), .kind = op->kind };

	if (op->flen && hm_span_kept(&x->m, &it))
		it.args = hm_intern(&x->m, op->fields, op->flen, 1);
	return hm_add(&x->m, &it);
}

/* ---- stack samples ---------------------------------------------------------------------------------------- */

static uint32_t node_of(struct hx *x, uint32_t parent, uint32_t fname)
{
	uint64_t k = (uint64_t)parent << 32 | fname;
	uint32_t *v = hx_nodemap_find(&x->nodes, k);

	if (v)
		return *v;
	if (x->nnodes >= HX_MAX_NODES || LTT_GROW(x->parent, x->nnodes + 1, x->capparent) ||
	    LTT_GROW(x->func, x->nnodes + 1, x->capfunc) || !(v = hx_nodemap_put(&x->nodes, k, NULL)))
		return 0;
	x->parent[x->nnodes] = parent;
	x->func[x->nnodes] = fname;
	*v = (uint32_t)x->nnodes;
	return (uint32_t)x->nnodes++;
}

static int sample(struct hx *x, const struct ltt_event *ev, unsigned trace)
{
	struct prof_model *pm = &x->pm[trace];
	struct prof_thread *t;
	struct prof_sample s;
	uint32_t node = 0;
	long l;
	int rc = prof_model_sample(pm, ev, &t, &s);

	if (rc != 1 || !t->stack.depth) {
		x->samples_unknown++;
		return 0;
	}
	for (unsigned i = 0; i < t->stack.depth; i++) {
		long f = prof_func_of(pm, t->stack.ips[i], i + 1 == t->stack.depth);
		struct prof_func *pf;

		if (f < 0)
			return (int)f;
		pf = &pm->funcs[f];
		if (pf->user <= 0)	/* the model starts it at -1 or 0: ours is the string + 1 */
			pf->user = (int64_t)hm_intern(&x->m, pf->name, strlen(pf->name), 0) + 1;
		node = node_of(x, node, (uint32_t)(pf->user - 1));
		if (!node)
			break;
	}
	l = thread_lane(x, trace, s.tid, s.tid);
	if (l < 0)
		return (int)l;
	{
		struct hm_item it = { .start = rel(x, ev->time_ns), .lane = (uint32_t)l, .name = node, .kind = HM_SAMPLE };

		return hm_add(&x->m, &it);
	}
}

/* ---- the format ---------------------------------------------------------------------------------------------- */

static int hx_begin(struct ltt_export_ctx *ctx)
{
	struct hx *x = calloc(1, sizeof(*x));
	struct sched_hooks hooks = { .interval = on_interval };
	int ret;

	if (!x)
		return -ENOMEM;
	ctx->priv = x;
	x->ctx = ctx;
	x->t0 = ctx->first_ns;
	hooks.arg = x;
	x->npm = ctx->ntraces;
	x->pm = calloc(x->npm ? x->npm : 1, sizeof(*x->pm));
	x->scratch = malloc(sizeof(*x->scratch));
	if (!x->pm || !x->scratch)
		return -ENOMEM;
	x->scratch->fd = -1;
	for (unsigned i = 0; i < x->npm; i++)
		if (prof_model_init(&x->pm[i]))
			return -ENOMEM;
	if ((ret = hm_init(&x->m, ctx->last_ns > ctx->first_ns ? ctx->last_ns - ctx->first_ns : 1)))
		return ret;
	/* node 0: the root */
	if (LTT_GROW(x->parent, 1, x->capparent) || LTT_GROW(x->func, 1, x->capfunc))
		return -ENOMEM;
	x->parent[0] = x->func[0] = 0;
	x->nnodes = 1;
	if (timeline_new(&x->tl, ctx->reader) || sched_model_new(&x->sm, &hooks, 0) || sched_decoder_new(&x->sd))
		return -ENOMEM;
	return sched_read_history(ctx->reader, x->sm);
}

static int add_loss(struct hx *x, uint64_t t, uint64_t count, const char *cause)
{
	x->lost_total += count;
	if (x->nlosses >= HX_MAX_LOSSES) {
		x->losses[x->nlosses - 1].count += count;
		x->losses_merged++;
		return 0;
	}
	if (LTT_GROW(x->losses, x->nlosses + 1, x->caplosses))
		return -ENOMEM;
	x->losses[x->nlosses++] = (struct hw_loss){ .t = t, .count = count, .lane = UINT32_MAX,
						     .cause = hm_intern(&x->m, cause, strlen(cause), 0) };
	return 0;
}

static int hx_event(struct ltt_export_ctx *ctx, const struct ltt_event *ev)
{
	struct hx *x = ctx->priv;
	struct tl_event e;
	struct sched_ev k;
	struct hm_lane *hl;
	struct hm_open *op;
	long l;
	uint64_t t = rel(x, ev->time_ns);
	int ret = timeline_event(x->tl, ev, &e), kr;

	if (ret < 0)
		return ret;
	if (ev->time_ns > x->last_ns)
		x->last_ns = ev->time_ns;
	if (e.kind == TL_LOST)
		return add_loss(x, t, e.count, e.cause ? e.cause : "lost");
	x->events++;
	kr = sched_decode(x->sd, ev, &k);
	if (kr < 0)
		return kr;
	if (kr == 1) {
		int created;

		if ((ret = sched_model_feed(x->sm, &k)))
			return ret < 0 ? ret : -EIO;
		if (k.cpu < 0)
			return x->err;
		l = hm_lane(&x->m, HM_LANE_CPU, k.trace, (uint32_t)k.cpu, &created);
		if (l < 0)
			return (int)l;
		if (created)
			snprintf(x->m.lanes[l].name, sizeof(x->m.lanes[l].name), "CPU %d", k.cpu);
		return hm_count(&x->m, (uint32_t)l, t);
	}
	if ((l = tl_lane(x, e.lane)) < 0)
		return (int)l;
	if ((ret = hm_count(&x->m, (uint32_t)l, t)))
		return ret;
	hl = &x->m.lanes[l];
	if (export_type(ev)->core) {
		struct prof_model *pm = &x->pm[e.lane->proc->trace];

		if (prof_model_event(pm, ev))
			return 0;
		if (prof_is_core(ev, "stack_sample"))
			return sample(x, ev, e.lane->proc->trace);
	}
	switch (e.kind) {
	case TL_BEGIN:
		if (!hl->open && !(hl->open = calloc(HM_STACK, sizeof(*hl->open))))
			return -ENOMEM;
		if (hl->depth < HM_STACK) {
			op = &hl->open[hl->depth];
			op->start = t;
			op->name = hm_intern(&x->m, e.name, strlen(e.name), 0);
			op->kind = e.lane->is_span ? HM_SPAN : export_type(ev)->func == 1 ? HM_CALL : HM_REGION;
			op->flen = 0;
			if (op->kind != HM_CALL) {
				fields_json(x, ev);
				if (x->scratch->len > op->fcap) {
					char *f = realloc(op->fields, x->scratch->len);

					if (!f)
						return -ENOMEM;
					op->fields = f;
					op->fcap = (uint32_t)x->scratch->len;
				}
				memcpy(op->fields, x->scratch->buf, x->scratch->len);
				op->flen = (uint32_t)x->scratch->len;
			}
		}
		hl->depth++;
		return 0;
	case TL_END:
		if (!hl->depth)
			return 0;
		if (--hl->depth < HM_STACK)
			return close_open(x, (uint32_t)l, &hl->open[hl->depth], hl->depth, t);
		return 0;
	case TL_SLICE: {
		uint64_t b = rel(x, e.slice_start_ns);
		struct hm_item it = { .start = b, .dur = t - b, .lane = (uint32_t)l, .kind = HM_CALL,
				      .name = hm_intern(&x->m, e.name, strlen(e.name), 0),
				      .depth = (uint16_t)(hl->depth < 65535 ? hl->depth : 65535) };

		return hm_add(&x->m, &it);
	}
	case TL_CHILD: {
		uint64_t b = rel(x, e.child_start_ns);
		char name[64];
		struct hm_item it = { .start = b, .dur = t - b, .lane = (uint32_t)l, .kind = HM_CHILD,
				      .depth = (uint16_t)(hl->depth < 65535 ? hl->depth : 65535), .args = fields(x, ev) };

		snprintf(name, sizeof(name), "child %d (pid %" PRIu32 ", exit %d)", e.child_id, e.child_pid, e.child_code);
		it.name = hm_intern(&x->m, name, strlen(name), 0);
		return hm_add(&x->m, &it);
	}
	case TL_COUNTER: {
		char v[32];
		struct hm_item it = { .start = t, .lane = (uint32_t)l, .kind = HM_COUNTER,
				      .name = hm_intern(&x->m, e.category, strlen(e.category), 0) };

		snprintf(v, sizeof(v), "%" PRId64, e.value);
		it.args = hm_intern(&x->m, v, strlen(v), 1);
		return hm_add(&x->m, &it);
	}
	default: {
		struct hm_item it = { .start = t, .lane = (uint32_t)l, .kind = HM_INSTANT,
				      .name = hm_intern(&x->m, e.name, strlen(e.name), 0),
				      .args = hm_point_kept(&x->m) ? fields(x, ev) : 0 };

		return hm_add(&x->m, &it);
	}
	}
}

/* Names the lanes and processes as the trace names them (at the end: names may come late). */
static void name_all(struct hx *x)
{
	struct hm *m = &x->m;

	for (size_t i = 0; i < m->nlanes; i++) {
		struct hm_lane *l = &m->lanes[i];
		const struct tl_lane *t = l->tl;
		struct sched_thread *st = l->kind == HM_LANE_THREAD ? sched_model_thread(x->sm, l->trace, l->tid) : NULL;

		char dflt[32];

		if (l->kind == HM_LANE_CPU)
			continue;
		/* the timeline's made-up name of a thread nothing named ("thread TID") yields to the kernel's */
		snprintf(dflt, sizeof(dflt), "thread %" PRIu32, l->tid);
		if (t && t->name[0] && !(st && st->comm[0] && !strcmp(t->name, dflt)))
			snprintf(l->name, sizeof(l->name), "%s", t->name);
		else if (st && st->comm[0])
			snprintf(l->name, sizeof(l->name), "%s", st->comm);
		else
			snprintf(l->name, sizeof(l->name), "thread %" PRIu32, l->tid);
		if (l->kind == HM_LANE_THREAD && st && st->pid != SCHED_TID_NONE && l->pid == l->tid && !t)
			l->pid = st->pid;
	}
}

static void name_procs(struct hx *x)
{
	struct hm *m = &x->m;

	for (size_t i = 0; i < m->nprocs; i++) {
		struct hm_proc *p = &m->procs[i];
		const char *name = NULL;
		struct sched_thread *st;

		if (p->pid == UINT32_MAX) {
			snprintf(p->name, sizeof(p->name), x->ctx->ntraces > 1 ? "CPUs (trace %u)" : "CPUs", p->trace);
			continue;
		}
		for (size_t k = p->first_lane; k < m->nlanes && m->lanes[k].proc == i && !name; k++)
			if (m->lanes[k].tl)
				name = ((const struct tl_lane *)m->lanes[k].tl)->proc->name;
		st = sched_model_thread(x->sm, p->trace, p->pid);
		if (!name && st && st->comm[0])
			name = st->comm;
		if (name)
			snprintf(p->name, sizeof(p->name), "%s", name);
		else
			snprintf(p->name, sizeof(p->name), "process %" PRIu32, p->pid);
	}
}

static int hx_end(struct ltt_export_ctx *ctx, int failed)
{
	struct hx *x = ctx->priv;
	int ret = 0;

	if (!x)
		return 0;
	if (failed || !x->tl)
		goto out;
	if ((ret = sched_model_finish(x->sm, x->last_ns > x->t0 ? x->last_ns : x->t0)))
		goto out;
	for (size_t i = 0; i < x->m.nlanes && !ret; i++) {
		struct hm_lane *l = &x->m.lanes[i];

		if (l->kind == HM_LANE_CPU && l->cur)
			ret = cpu_flush(x, l, (uint32_t)i);
		while (!ret && l->depth)	/* regions open at the end end there */
			if (--l->depth < HM_STACK)
				ret = close_open(x, (uint32_t)i, &l->open[l->depth], l->depth, rel(x, x->last_ns));
	}
	if (ret)
		goto out;
	name_all(x);
	if ((ret = hm_finish(&x->m)))
		goto out;
	name_procs(x);
	{
		struct hw_info in = {
			.title = ltt_reader_trace(ctx->reader, 0)->path, .ntraces = ctx->ntraces, .t0 = x->t0,
			.events = x->events, .lost_total = x->lost_total, .losses = x->losses, .nlosses = x->nlosses,
			.losses_merged = x->losses_merged, .node_parent = x->parent, .node_func = x->func,
			.nnodes = x->nnodes, .samples_unknown = x->samples_unknown, .states = x->states,
			.runnable_source = sched_model_runnable_source(x->sm),
		};

		ret = html_write(ctx->out, &x->m, &in);
	}
out:
	if (x->tl)
		timeline_free(x->tl);
	sched_model_free(x->sm);
	sched_decoder_free(x->sd);
	for (unsigned i = 0; x->pm && i < x->npm; i++)
		prof_model_free(&x->pm[i]);
	free(x->pm);
	hm_free(&x->m);
	free(x->losses);
	free(x->parent);
	free(x->func);
	hx_nodemap_free(&x->nodes);
	free(x->scratch);
	free(x);
	return failed ? 0 : ret;
}

const struct ltt_exporter ltt_exp_html = {
	.name = "html",
	.summary = "one self-contained page: an interactive timeline for any browser, offline",
	.suffix = ".html",
	.lost = 1,
	.begin = hx_begin,
	.event = hx_event,
	.end = hx_end,
};
