/* SPDX-License-Identifier: MIT */
/* ltt export --format=chrome-json: the Chrome trace event format ({"traceEvents":[...]}), read by
 * chrome://tracing, ui.perfetto.dev and speedscope (doc/viewing.md). The mapping is the timeline's
 * (timeline.h): "M" process and thread names, "B"/"E" regions, "i" instants with every field in
 * args, "C" counters, "X" child processes, lost events as instants on an "ltt: lost events" thread.
 * A region's "B" carries its name and category only and its "E" the same name and category plus the
 * region_enter's fields as args (chrome://tracing and Perfetto merge an E's args into the slice):
 * speedscope names a frame by name and args and closes the top frame of a thread by name, so the
 * regions of one label merge into one frame there and every "E" has its name. Each lane keeps the
 * serialized tails of its open regions (bounded by the nesting depth). A region (or span) still open
 * at the end of the trace ends at its last event with "ltt_open":true in its args.
 * Timestamps: microseconds since the trace set's first anchor, 3 decimals (a double of absolute
 * epoch microseconds resolves only to 0.25 us); otherData.ltt_start_ns gives that origin.
 * With kernel events, each thread also gets a lane of its states (toolkit/sched_model.h): "X" slices
 * named user, syscall, runnable, sleeping, ... (tid CJ_STATE_TID + the thread's, named "TID state"). */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "toolkit/export.h"
#include "toolkit/sched_decode.h"
#include "toolkit/sched_model.h"
#include "timeline.h"

#define CJ_LOST_TID 0x7fffffffu	/* the lost-events thread of each process */
#define CJ_MAX_ELEMS 64		/* array and sequence elements shown per field */
#define CJ_STATE_TID 0x40000000u	/* + tid: the lane of a thread's kernel states */

/* The regions open on a lane (tl_lane.user[0]): the tail of each one's "E", from ,"name": to the end
 * of its args, one after the other in buf. */
struct cj_open {
	char *buf;
	size_t len, cap;
	size_t *off;		/* where each open region's tail starts in buf */
	uint32_t n, ncap;
};

struct cj {
	struct timeline *tl;
	struct dump_out *scratch;	/* a region's tail is written here first (fd -1: never flushed) */
	uint64_t base_ns;
	uint64_t last_ns;
	unsigned nevents;	/* written so far (a comma before all but the first) */
	char name[256];
	struct sched_model *km;	/* kernel states, as lanes */
	struct sched_decoder *kd;
	struct ltt_export_ctx *ctx;
	uint32_t *pids;		/* per trace: the process of its lanes (ltt_pid) */
	uint64_t states;	/* kernel state slices written */
	uint64_t states_cut;	/* ... and not written, beyond CJ_STATES_MAX */
	uint64_t cut_from;	/* the first of those's start */
	uint64_t states_max;	/* CJ_STATES_MAX or LTT_EXPORT_STATES_MAX */
};

/* Kernel state slices written at most (about 100 bytes each: a long --system trace holds hundreds of
 * millions of intervals, which no viewer loads): the rest are counted and said in a note. */
#define CJ_STATES_MAX 2000000u

/* LTT_EXPORT_STATES_MAX overrides it (doc/viewing.md "chrome-json"). */
static uint64_t cj_states_max(void)
{
	const char *e = getenv("LTT_EXPORT_STATES_MAX");
	char *end;
	unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;

	return e && *e && !*end ? (uint64_t)v : CJ_STATES_MAX;
}

static void cj_sep(struct ltt_export_ctx *ctx)
{
	struct cj *c = ctx->priv;

	dump_out_str(ctx->out, c->nevents++ ? ",\n" : "\n");
}

/* ,"key":MICROSECONDS.NNN of ns - base (negative when ns is before base) */
static void cj_us(struct ltt_export_ctx *ctx, const char *key, uint64_t ns, uint64_t base)
{
	char *w = dump_out_reserve(ctx->out, 40);
	uint64_t d;

	*w++ = ',';
	*w++ = '"';
	while (*key)
		*w++ = *key++;
	*w++ = '"';
	*w++ = ':';
	if (ns < base) {
		*w++ = '-';
		d = base - ns;
	} else {
		d = ns - base;
	}
	w = dump_put_u64(w, d / 1000);
	*w++ = '.';
	*w++ = (char)('0' + d % 1000 / 100);
	*w++ = (char)('0' + d % 100 / 10);
	*w++ = (char)('0' + d % 10);
	dump_out_commit(ctx->out, w);
}

static void cj_jstr(struct dump_out *o, const char *s)
{
	dump_out_json_string(o, s, strlen(s));
}

static void cj_head(struct ltt_export_ctx *ctx, const char *ph, uint32_t pid, uint32_t tid)
{
	cj_sep(ctx);
	dump_out_str(ctx->out, "{\"ph\":\"");
	dump_out_str(ctx->out, ph);
	dump_out_str(ctx->out, "\",\"pid\":");
	dump_out_u64(ctx->out, pid);
	dump_out_str(ctx->out, ",\"tid\":");
	dump_out_u64(ctx->out, tid);
}

/* {"ph":PH,"pid":..,"tid":..,"ts":..,["s":"t",]"name":NAME,"cat":CAT  (the caller closes it) */
static void cj_named(struct ltt_export_ctx *ctx, const char *ph, uint32_t pid, uint32_t tid, uint64_t ts,
		     const char *name, const char *cat)
{
	struct cj *c = ctx->priv;

	cj_head(ctx, ph, pid, tid);
	cj_us(ctx, "ts", ts, c->base_ns);
	dump_out_str(ctx->out, *ph == 'i' ? ",\"s\":\"t\",\"name\":" : ",\"name\":");
	cj_jstr(ctx->out, name);
	dump_out_str(ctx->out, ",\"cat\":");
	cj_jstr(ctx->out, cat);
}

static void cj_meta(struct ltt_export_ctx *ctx, const char *what, uint32_t pid, uint32_t tid, const char *name)
{
	cj_head(ctx, "M", pid, tid);
	dump_out_str(ctx->out, ",\"name\":\"");
	dump_out_str(ctx->out, what);
	dump_out_str(ctx->out, "\",\"args\":{\"name\":");
	cj_jstr(ctx->out, name);
	dump_out_str(ctx->out, "}}");
}

static void cj_scalar(struct dump_out *o, const struct ltt_value *v)
{
	const char *s;
	size_t n;
	double d;

	switch (v->type->kind) {
	case LTT_TYPE_INT:
		dump_out_i64(o, ltt_value_int(v));
		break;
	case LTT_TYPE_UINT:
		dump_out_u64(o, ltt_value_uint(v));
		break;
	case LTT_TYPE_FLOAT:
		d = ltt_value_float(v);
		if (isnan(d) || isinf(d))
			dump_out_str(o, "null");
		else
			dump_out_double(o, d);
		break;
	case LTT_TYPE_ENUM:
		s = ltt_value_enum_label(v);
		if (s)
			cj_jstr(o, s);
		else
			dump_out_u64(o, ltt_value_uint(v));
		break;
	case LTT_TYPE_STRING:
		s = ltt_value_string(v, &n);
		dump_out_json_string(o, s, n);
		break;
	default:
		dump_out_str(o, "null");
	}
}

struct cj_args {
	struct dump_out *o;
	int n;
};

static int cj_leaf(void *arg, const char *name, size_t len, const struct ltt_value *v)
{
	struct cj_args *a = arg;

	if (a->n++)
		dump_out_char(a->o, ',');
	dump_out_json_string(a->o, name, len);
	dump_out_char(a->o, ':');
	cj_scalar(a->o, v);
	return 0;
}

static void cj_args_to(struct ltt_export_ctx *ctx, struct dump_out *o, const struct ltt_event *ev)
{
	struct cj *c = ctx->priv;
	struct cj_args a = { o, 0 };
	struct ltt_value body;

	dump_out_str(o, ",\"args\":{");
	if (ltt_event_body(ev, &body) == 0)
		export_walk(&body, c->name, sizeof(c->name), 0, CJ_MAX_ELEMS, cj_leaf, &a);
	if (ctx->ntraces > 1) {
		dump_out_str(o, a.n ? ",\"trace\":" : "\"trace\":");
		cj_jstr(o, ev->trace->path);
	}
	dump_out_char(o, '}');
}

static void cj_args(struct ltt_export_ctx *ctx, const struct ltt_event *ev)
{
	cj_args_to(ctx, ctx->out, ev);
}

static struct cj_open *cj_open_of(struct tl_lane *l)
{
	if (!l->user[0])
		l->user[0] = (uintptr_t)calloc(1, sizeof(struct cj_open));
	return (struct cj_open *)(uintptr_t)l->user[0];
}

/* A region begins on lane l: its "E" tail (name, category, the enter's fields) is kept until it ends.
 * A tail that does not fit the scratch buffer is kept without its args. */
static int cj_push(struct ltt_export_ctx *ctx, struct tl_lane *l, const struct tl_event *e)
{
	struct cj *c = ctx->priv;
	struct cj_open *op = cj_open_of(l);
	struct dump_out *s = c->scratch;
	size_t start;

	if (!op)
		return -ENOMEM;
	s->len = 0;
	s->error = 0;
	dump_out_str(s, ",\"name\":");
	cj_jstr(s, e->name);
	dump_out_str(s, ",\"cat\":");
	cj_jstr(s, e->category);
	start = s->len;
	cj_args_to(ctx, s, e->ev);
	if (s->error) {		/* cut at DUMP_OUT_SIZE: the region keeps its name */
		s->error = 0;
		s->len = start;
	}
	/* small first: a lane per open span (issue 34); 10^6 open spans took 1.4 KB each with 1024 */
	if (LTT_GROW_FROM(op->off, op->n + 1, op->ncap, 2) || LTT_GROW_FROM(op->buf, op->len + s->len, op->cap, 128))
		return -ENOMEM;
	op->off[op->n++] = op->len;
	memcpy(op->buf + op->len, s->buf, s->len);
	op->len += s->len;
	return 0;
}

/* The "E" of the innermost region open on lane l at ns (the lane's depth already counts it out);
 * open: the region is still open at the end of the trace, its args get "ltt_open":true. */
static void cj_pop(struct ltt_export_ctx *ctx, struct tl_lane *l, uint64_t ns, int open)
{
	struct cj *c = ctx->priv;
	struct cj_open *op = (struct cj_open *)(uintptr_t)l->user[0];

	cj_head(ctx, "E", l->proc->pid, l->tid);
	cj_us(ctx, "ts", ns, c->base_ns);
	if (op && op->n) {
		size_t at = op->off[--op->n], n = op->len - at;
		const char *t = op->buf + at;

		if (open && n >= 2 && t[n - 1] == '}') {	/* the args object: one more key */
			dump_out_mem(ctx->out, t, n - 1);
			dump_out_str(ctx->out, t[n - 2] == '{' ? "\"ltt_open\":true}" : ",\"ltt_open\":true}");
			open = 0;
		} else {
			dump_out_mem(ctx->out, t, n);
		}
		op->len = at;
	}
	if (open)	/* a tail cut without its args */
		dump_out_str(ctx->out, ",\"args\":{\"ltt_open\":true}");
	dump_out_char(ctx->out, '}');
}

/* A finished interval of a thread's kernel state: an "X" slice on its state lane. */
static int cj_state(void *arg, const struct sched_interval *iv)
{
	struct cj *c = arg;
	struct ltt_export_ctx *ctx = c->ctx;
	uint32_t pid = iv->trace < c->ctx->ntraces ? c->pids[iv->trace] : 0;
	struct sched_thread *t = sched_model_thread(c->km, iv->trace, iv->tid);

	if (!c->states_max)
		c->states_max = cj_states_max();
	if (c->states >= c->states_max) {	/* bounded: counted, said at the end */
		if (!c->states_cut++ || iv->start_ns < c->cut_from)
			c->cut_from = iv->start_ns;
		return 0;
	}
	c->states++;
	if (t && !t->user) {	/* the lane's name, once */
		char name[64];

		snprintf(name, sizeof(name), "%u state%s%s", iv->tid, t->comm[0] ? " " : "", t->comm);
		cj_meta(ctx, "thread_name", pid, CJ_STATE_TID + iv->tid, name);
		t->user = 1;
	}
	cj_named(ctx, "X", pid, CJ_STATE_TID + iv->tid, iv->start_ns, sched_state_name(iv->state), "sched");
	cj_us(ctx, "dur", iv->end_ns, iv->start_ns);
	if (iv->has_nr || iv->why != SCHED_WHY_NONE) {
		const char *n = iv->has_nr ? sched_syscall_name(ltt_reader_trace(ctx->reader, iv->trace), iv->nr) : NULL;

		dump_out_str(ctx->out, ",\"args\":{\"cause\":");
		if (iv->has_nr && n)
			cj_jstr(ctx->out, n);
		else if (iv->has_nr)
			dump_out_u64(ctx->out, iv->nr);
		else
			cj_jstr(ctx->out, sched_why_name(iv->why));
		dump_out_char(ctx->out, '}');
	}
	dump_out_char(ctx->out, '}');
	return ctx->out->error;
}

static int cj_begin(struct ltt_export_ctx *ctx)
{
	struct cj *c = calloc(1, sizeof(*c));
	struct sched_hooks hooks = { .arg = c, .interval = cj_state };

	if (!c || !(c->scratch = malloc(sizeof(*c->scratch))) || timeline_new(&c->tl, ctx->reader)) {
		if (c)
			free(c->scratch);
		free(c);
		return -ENOMEM;
	}
	c->scratch->fd = -1;
	c->scratch->len = 0;
	c->scratch->error = 0;
	c->ctx = ctx;
	c->pids = calloc(ctx->ntraces ? ctx->ntraces : 1, sizeof(*c->pids));
	if (!c->pids || sched_model_new(&c->km, &hooks, 0) || sched_decoder_new(&c->kd) ||
	    sched_read_history(ctx->reader, c->km)) {
		ctx->priv = c;
		return -ENOMEM;
	}
	for (unsigned i = 0; i < ctx->ntraces; i++) {	/* the timeline's pid of each trace */
		const char *p = ltt_trace_attr(ltt_reader_trace(ctx->reader, i), "ltt_pid");

		c->pids[i] = p ? (uint32_t)strtoul(p, NULL, 10) : 1000000 + i;
	}
	c->base_ns = ctx->first_ns;
	ctx->priv = c;
	dump_out_str(ctx->out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"ltt_start_ns\":");
	dump_out_u64(ctx->out, c->base_ns);
	dump_out_str(ctx->out, "},\"traceEvents\":[");
	return 0;
}

static int cj_event(struct ltt_export_ctx *ctx, const struct ltt_event *ev)
{
	struct cj *c = ctx->priv;
	struct tl_event e;
	struct tl_lane *l;
	uint32_t pid;
	int ret = timeline_event(c->tl, ev, &e);

	if (ret < 0)
		return ret;
	{
		struct sched_ev k;
		int kr = sched_decode(c->kd, ev, &k);

		if (kr < 0 || (kr == 1 && (kr = sched_model_feed(c->km, &k))))
			return kr < 0 ? kr : -EIO;
	}
	l = e.lane;
	pid = l->proc->pid;
	if (__builtin_expect(l->proc->renamed, 0)) {
		cj_meta(ctx, "process_name", pid, 0, l->proc->name);
		l->proc->renamed = 0;
	}
	if (__builtin_expect(l->renamed, 0)) {
		cj_meta(ctx, "thread_name", pid, l->tid, l->name);
		cj_head(ctx, "M", pid, l->tid);	/* threads first, CPUs after them */
		dump_out_str(ctx->out, ",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":");
		dump_out_u64(ctx->out, l->is_thread ? l->index : 100000 + l->index);
		dump_out_str(ctx->out, "}}");
		l->renamed = 0;
	}
	if (ev->time_ns > c->last_ns)
		c->last_ns = ev->time_ns;
	switch (e.kind) {
	case TL_BEGIN:
		cj_named(ctx, "B", pid, l->tid, ev->time_ns, e.name, e.category);
		dump_out_char(ctx->out, '}');
		ret = cj_push(ctx, l, &e);
		if (ret)
			return ret;
		break;
	case TL_END:
		cj_pop(ctx, l, ev->time_ns, 0);
		break;
	case TL_LOST:
		if (!l->proc->user) {
			cj_meta(ctx, "thread_name", pid, CJ_LOST_TID, "ltt: lost events");
			l->proc->user = 1;
		}
		cj_named(ctx, "i", pid, CJ_LOST_TID, ev->time_ns, e.cause, "ltt");
		dump_out_str(ctx->out, ",\"args\":{\"count\":");
		dump_out_u64(ctx->out, e.count);
		dump_out_str(ctx->out, ",\"cause\":");
		cj_jstr(ctx->out, e.cause);
		dump_out_str(ctx->out, ",\"tracefile\":");
		cj_jstr(ctx->out, ev->tracefile->name);
		dump_out_str(ctx->out, "}}");
		break;
	case TL_CHILD: {
		char name[32];

		snprintf(name, sizeof(name), "child %d", e.child_id);
		cj_named(ctx, "X", pid, l->tid, e.child_start_ns, name, "child");
		cj_us(ctx, "dur", ev->time_ns, e.child_start_ns);
		cj_args(ctx, ev);
		dump_out_char(ctx->out, '}');
		break;
	}
	case TL_SLICE:
		cj_named(ctx, "X", pid, l->tid, e.slice_start_ns, e.name, e.category);
		cj_us(ctx, "dur", ev->time_ns, e.slice_start_ns);
		cj_args(ctx, ev);
		dump_out_char(ctx->out, '}');
		break;
	case TL_COUNTER:
		cj_head(ctx, "C", pid, l->tid);
		cj_us(ctx, "ts", ev->time_ns, c->base_ns);
		dump_out_str(ctx->out, ",\"name\":");
		cj_jstr(ctx->out, e.category);
		dump_out_str(ctx->out, ",\"args\":{\"value\":");
		dump_out_i64(ctx->out, e.value);
		dump_out_str(ctx->out, "}}");
		/* the event itself is an instant too */
		__attribute__((fallthrough));
	case TL_INSTANT:
		cj_named(ctx, "i", pid, l->tid, ev->time_ns, e.name, ev->type->facility);
		cj_args(ctx, ev);
		dump_out_char(ctx->out, '}');
		break;
	}
	return ctx->out->error;
}

static int cj_end(struct ltt_export_ctx *ctx, int failed)
{
	struct cj *c = ctx->priv;

	if (!failed && c->km && sched_model_finish(c->km, c->last_ns))	/* the last state intervals */
		failed = 1;
	if (!failed && c->states_cut) {	/* the kernel states not drawn: a global note, and stderr */
		char line[200];

		snprintf(line, sizeof(line), "ltt: %" PRIu64 " kernel state intervals from here not drawn (at most %" PRIu64
			 " are): export a shorter window with --from/--to", c->states_cut, c->states_max);
		cj_named(ctx, "i", 0, 0, c->cut_from, line + 5, "ltt");
		dump_out_str(ctx->out, ",\"s\":\"g\",\"args\":{\"ltt_states_not_drawn\":");
		dump_out_u64(ctx->out, c->states_cut);
		dump_out_str(ctx->out, "}}");
		fprintf(stderr, "ltt export: %s\n", line + 5);
	}
	if (!failed) {	/* regions still open at the end of the trace end there */
		for (unsigned i = 0; i < timeline_nlanes(c->tl); i++) {
			struct tl_lane *l = timeline_lane(c->tl, i);

			for (; l->depth; l->depth--)
				cj_pop(ctx, l, c->last_ns, 1);
		}
		dump_out_str(ctx->out, "\n]}\n");
	}
	for (unsigned i = 0; i < timeline_nlanes(c->tl); i++) {
		struct cj_open *op = (struct cj_open *)(uintptr_t)timeline_lane(c->tl, i)->user[0];

		if (op) {
			free(op->buf);
			free(op->off);
			free(op);
		}
	}
	free(c->scratch);
	timeline_free(c->tl);
	sched_model_free(c->km);
	sched_decoder_free(c->kd);
	free(c->pids);
	free(c);
	return failed ? 0 : ctx->out->error;
}

const struct ltt_exporter ltt_exp_chrome_json = {
	.name = "chrome-json",
	.summary = "Chrome trace event JSON: chrome://tracing, ui.perfetto.dev, speedscope",
	.suffix = ".json",
	.lost = 1,
	.begin = cj_begin,
	.event = cj_event,
	.end = cj_end,
};
