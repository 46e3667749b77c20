/* SPDX-License-Identifier: MIT */
/* ltt dump --format=calls: the func events of function tracing as call trees, one line per call, in
 * the shape of `uftrace replay`: a call with callees opens `f() {` and closes with `}` and its name in a C comment, with its
 * duration, a call without is one line `f();` with its duration; the thread id on every line, the
 * indentation its depth. Threads interleave in time order. Other events are not shown. Calls still
 * open at the end of the trace (a crash, a flight snapshot) close with `(unfinished)`, those a snapshot's
 * open calls hold whose entry the rings no longer kept with `(unfinished, entered before the trace)`
 * and no duration; exits whose
 * entry the trace does not hold are counted on the last line. Where events were lost a comment line says
 * how many, on which tracefile, between which times; the calls open across it are printed without a
 * duration, "(cut by a loss)", and a last comment line sums the window's losses (toolkit/losses.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "toolkit/calls.h"
#include "toolkit/dump_format.h"

struct pending {		/* a thread's entry not printed yet: a leaf if its exit comes next */
	uint32_t tid, depth;
	long func;
	int held;
	char *args; /* its arguments (func.args), malloc'ed, or NULL */
};

struct cf {
	struct calls_model m;
	struct dump_out *o;
	struct pending *p;
	size_t np, capp;
	uint64_t shown;
};

static struct pending *pending_of(struct cf *c, uint32_t tid)
{
	for (size_t i = 0; i < c->np; i++)
		if (c->p[i].tid == tid)
			return &c->p[i];
	if (LTT_GROW(c->p, c->np + 1, c->capp))
		return NULL;
	c->p[c->np] = (struct pending){ .tid = tid };
	return &c->p[c->np++];
}

static void put_line(struct cf *c, const uint64_t *dur, uint32_t tid, uint32_t depth, const char *a,
		     const char *name, const char *b)
{
	char buf[64];

	if (dur)
		snprintf(buf, sizeof(buf), "%10.3f us [%7" PRIu32 "] | ", *dur / 1e3, tid);
	else
		snprintf(buf, sizeof(buf), "%13s [%7" PRIu32 "] | ", "", tid);
	dump_out_str(c->o, buf);
	for (uint32_t i = 0; i < depth && i < 256; i++)
		dump_out_str(c->o, "  ");
	dump_out_str(c->o, a);
	dump_out_str(c->o, name);
	dump_out_str(c->o, b);
	dump_out_char(c->o, '\n');
	c->shown++;
}

/* "(ARGS)" then tail into buf: a call's arguments and what follows them on its line. */
static const char *with_args(char *buf, size_t n, const char *args, const char *retval, const char *tail)
{
	snprintf(buf, n, "(%s)%s%s%s", args ? args : "", retval ? " = " : "", retval ? retval : "", tail);
	return buf;
}

static void flush_pending(struct cf *c, struct pending *p)
{
	char buf[4096];

	if (p->held) {
		put_line(c, NULL, p->tid, p->depth, "", calls_func_name(&c->m, p->func),
			 with_args(buf, sizeof(buf), p->args, NULL, " {"));
		p->held = 0;
	}
	free(p->args);
	p->args = NULL;
}

static int on_args(void *arg, uint32_t tid, uint32_t depth, const char *args)
{
	struct cf *c = arg;
	struct pending *p = pending_of(c, tid);

	if (!p)
		return -ENOMEM;
	if (p->held && p->depth == depth) {
		free(p->args);
		if (!(p->args = strdup(args)))
			return -ENOMEM;
	}
	return 0;
}

static int on_enter(void *arg, uint32_t tid, uint32_t depth, long func, uint64_t start_ns)
{
	struct cf *c = arg;
	struct pending *p = pending_of(c, tid);

	(void)start_ns;
	if (!p)
		return -ENOMEM;
	flush_pending(c, p);
	*p = (struct pending){ .tid = tid, .depth = depth, .func = func, .held = 1 };
	return 0;
}

static int on_call(void *arg, const struct call *k)
{
	struct cf *c = arg;
	struct pending *p = pending_of(c, k->tid);
	const char *name = calls_func_name(&c->m, k->func);
	char buf[4096], close[8192];

	if (!p)
		return -ENOMEM;
	if (p->held && p->depth == k->depth && p->func == k->func && !k->unfinished) {
		p->held = 0;
		free(p->args);
		p->args = NULL;
		put_line(c, &k->dur_ns, k->tid, k->depth, "", name,
			 with_args(buf, sizeof(buf), k->args, k->retval, ";"));
		return 0;
	}
	if (k->cut) {	/* no duration: which entry this exit ends is not known (toolkit/losses.h) */
		if (p->held && p->depth == k->depth && p->func == k->func) {
			p->held = 0;
			free(p->args);
			p->args = NULL;
			put_line(c, NULL, k->tid, k->depth, "", name,
				 with_args(buf, sizeof(buf), k->args, NULL, "; /* cut by a loss */"));
			return 0;
		}
		flush_pending(c, p);
		put_line(c, NULL, k->tid, k->depth, "} /* ", name, " (cut by a loss) */");
		return 0;
	}
	flush_pending(c, p);
	if (k->before) {	/* from a snapshot's open calls: its entry (and so its duration) not in the trace */
		put_line(c, NULL, k->tid, k->depth, "} /* ", name, " (unfinished, entered before the trace) */");
		return 0;
	}
	if (k->retval) { /* uftrace: "} = 7;" then the name in a comment */
		snprintf(close, sizeof(close), "} = %s; /* ", k->retval);
		put_line(c, &k->dur_ns, k->tid, k->depth, close, name, " */");
		return 0;
	}
	put_line(c, &k->dur_ns, k->tid, k->depth, "} /* ", name, k->unfinished ? " (unfinished) */" : " */");
	return 0;
}

static int cf_begin(struct ltt_dump_ctx *ctx)
{
	struct cf *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	ret = calls_init(&c->m);
	if (ret) {
		free(c);
		return ret;
	}
	c->o = ctx->out;
	c->m.on_enter = on_enter;
	c->m.on_call = on_call;
	c->m.on_args = on_args;
	c->m.arg = c;
	ctx->priv = c;
	dump_out_str(ctx->out, "#     DURATION       TID   | FUNCTION\n");
	return 0;
}

static int cf_event(struct ltt_dump_ctx *ctx, const struct ltt_event *ev)
{
	struct cf *c = ctx->priv;
	uint64_t before = c->m.loss.records;
	int ret = calls_event(&c->m, ev);
	char buf[256];

	if (ret >= 0 && c->m.loss.records != before) {	/* a loss record: said where it is */
		const struct loss_window *w = &c->m.loss.last;

		snprintf(buf, sizeof(buf), "# lost %" PRIu64 " events (%s) on %s between %" PRIu64 ".%09" PRIu64
			 " and %" PRIu64 ".%09" PRIu64 "%s\n", w->events,
			 w->cause == LOSS_OVERWRITTEN ? "overwritten" : ltt_lost_cause_name(w->cause), w->tf->name,
			 w->from_ns / 1000000000u, w->from_ns % 1000000000u, w->to_ns / 1000000000u,
			 w->to_ns % 1000000000u, w->kernel ? "" : ": the calls open across it are cut");
		dump_out_str(c->o, buf);
	}
	return ret < 0 ? ret : 0;
}

static int cf_end(struct ltt_dump_ctx *ctx)
{
	struct cf *c = ctx->priv;
	int ret;
	char buf[512];

	if (!c)
		return 0;
	ret = calls_finish(&c->m);
	for (size_t i = 0; i < c->np; i++)
		flush_pending(c, &c->p[i]); /* frees its args too */
	if (!c->shown)
		dump_out_str(ctx->out, "# no func events (record with LTT_FUNCTIONS=1 or ltt record --functions)\n");
	if (losses_format_text(&c->m.loss, buf + 2, sizeof(buf) - 2, "calls", c->m.cut)) {
		buf[0] = '#';
		buf[1] = ' ';
		dump_out_str(ctx->out, buf);
	}
	if (c->m.unmatched) {
		snprintf(buf, sizeof(buf), "# %" PRIu64 " exits without their entry in the trace\n", c->m.unmatched);
		dump_out_str(ctx->out, buf);
	}
	calls_free(&c->m);
	free(c->p);
	free(c);
	ctx->priv = NULL;
	return ret;
}

const struct ltt_dump_format ltt_fmt_calls = {
	.name = "calls",
	.summary = "function tracing's calls as call trees per thread with durations (uftrace replay's "
		   "shape); other events left out",
	.begin = cf_begin,
	.event = cf_event,
	.end = cf_end,
	.losses = 1,
};
