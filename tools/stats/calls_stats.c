/* SPDX-License-Identifier: MIT */
/* tools/calls/calls_stats.c: `ltt stats --functions`: per function (symbolized), the completed calls,
 * their total time (the time the function was on its thread's stack: a call inside a call of the same
 * function is not counted twice), self time (on the CPU, less the callees), time off the CPU (from its
 * thread's switch records: "Off-CPU", blocked part in JSON), min/avg/max of one call, and who
 * called it. uftrace report's table, in text or JSON; then the calls still open at the end of the trace
 * (a crash, a flight snapshot), per thread, outermost first ("open" in JSON). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "toolkit/calls.h"
#include "toolkit/dump_out.h"
#include "report.h"

struct caller {
	long func;
	uint64_t n;
};

struct fstat {
	uint64_t calls, total, self, sum, min, max;
	uint64_t cut;		/* calls cut by a loss: counted apart, no duration */
	uint64_t off, blocked;	/* off the CPU while on its thread's stack (outermost calls, as total) */
	struct caller *callers;
	size_t ncallers, capcallers;
};

struct openc {			/* a call open at the end (a crash, a snapshot) */
	uint32_t tid, depth;
	long func;
	uint64_t start_ns;
	int before;		/* entered before the trace (a snapshot's open calls): start not known */
};

struct gedge {			/* --graph: a caller or a callee of the function */
	long func;		/* -1: none in the trace (the function was outermost) */
	uint64_t calls, total, off;
};

struct cstats {
	struct fstat *f;
	size_t n;
	const char *graph;	/* --graph FUNC */
	struct gedge *up, *down;	/* its callers, its callees */
	size_t nup, ndown, capup, capdown;
	uint64_t gcalls, gtotal, gself, goff;	/* its own calls */
	uint64_t calls, unfinished, cut;
	struct openc *open;
	size_t nopen, capopen;
};

static const struct calls_model *graph_model;

static int edge_add(struct gedge **v, size_t *n, size_t *cap, long func, const struct call *c)
{

	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].func == func) {
			(*v)[i].calls++;
			(*v)[i].total += c->dur_ns;
			(*v)[i].off += c->off_ns;
			return 0;
		}
	if (LTT_GROW(*v, *n + 1, *cap))
		return -ENOMEM;
	(*v)[(*n)++] = (struct gedge){ func, 1, c->dur_ns, c->off_ns };
	return 0;
}

/* --graph FUNC: a completed call of FUNC counts for its caller; one FUNC made counts for its callee. */
static int graph_call(struct cstats *s, const struct call *c)
{
	const char *name = calls_func_name(graph_model, c->func);
	int ret;

	if (c->unfinished || c->cut)
		return 0;
	if (!strcmp(name, s->graph)) {
		s->gcalls++;
		s->gtotal += c->outermost ? c->dur_ns : 0;
		s->gself += c->self_ns;
		s->goff += c->outermost ? c->off_ns : 0;
		if ((ret = edge_add(&s->up, &s->nup, &s->capup, c->parent, c)))
			return ret;
	}
	if (c->parent >= 0 && !strcmp(calls_func_name(graph_model, c->parent), s->graph))
		return edge_add(&s->down, &s->ndown, &s->capdown, c->func, c);
	return 0;
}

static int on_call(void *arg, const struct call *c)
{
	struct cstats *s = arg;
	struct fstat *f;

	if (s->graph)
		return graph_call(s, c);

	if (c->unfinished && !c->cut) {	/* one open across a loss is counted cut */
		s->unfinished++;
		if (LTT_GROW_FROM(s->open, s->nopen + 1, s->capopen, 64))
			return -ENOMEM;
		s->open[s->nopen++] = (struct openc){ c->tid, c->depth, c->func, c->start_ns, c->before };
		return 0;
	}
	if (LTT_GROW_ZERO_FROM(s->f, (size_t)c->func + 1, s->n, 64))	/* s->n: the table by function */
		return -ENOMEM;
	f = &s->f[c->func];
	if (c->cut) {
		f->cut++;
		s->cut++;
		return 0;
	}
	if (!f->calls || c->dur_ns < f->min)
		f->min = c->dur_ns;
	if (c->dur_ns > f->max)
		f->max = c->dur_ns;
	f->calls++;
	s->calls++;
	f->sum += c->dur_ns;
	f->self += c->self_ns;
	if (c->outermost) {
		f->total += c->dur_ns;
		f->off += c->off_ns;
		f->blocked += c->blocked_ns;
	}
	for (size_t i = 0; i < f->ncallers; i++)
		if (f->callers[i].func == c->parent) {
			f->callers[i].n++;
			return 0;
		}
	if (LTT_GROW(f->callers, f->ncallers + 1, f->capcallers))
		return -ENOMEM;
	f->callers[f->ncallers++] = (struct caller){ .func = c->parent, .n = 1 };
	return 0;
}

static const struct cstats *sort_s;

static int by_total(const void *a, const void *b)
{
	const struct fstat *x = &sort_s->f[*(const long *)a], *y = &sort_s->f[*(const long *)b];

	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return *(const long *)a < *(const long *)b ? -1 : 1;
}

/* Open calls by thread (in the order threads were seen), outermost first. */
static int by_open(const void *a, const void *b)
{
	const struct openc *x = a, *y = b;

	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

/* "1.234 us" in 10 columns, uftrace's units. */
static void put_dur(struct dump_out *o, uint64_t ns)
{
	char buf[32];

	if (ns < 1000000)
		snprintf(buf, sizeof(buf), "%7.3f us", ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, sizeof(buf), "%7.3f ms", ns / 1e6);
	else
		snprintf(buf, sizeof(buf), "%7.3f  s", ns / 1e9);
	dump_out_str(o, buf);
}

static void print_text(struct dump_out *o, const struct calls_model *m, const struct cstats *s, const long *ord,
		       size_t n)
{
	char buf[512];

	if (losses_format_text(&m->loss, buf, sizeof(buf), "calls", s->cut))
		dump_out_str(o, buf);
	snprintf(buf, sizeof(buf), "functions: %" PRIu64 " calls of %zu functions on %zu threads; %" PRIu64
		 " unfinished, %" PRIu64 " exits without their entry, %" PRIu64 " cut by a loss\n", s->calls, n,
		 m->nth, s->unfinished, m->unmatched, s->cut);
	dump_out_str(o, buf);
	if (!n) {
		dump_out_str(o, "  (no func events: record with LTT_FUNCTIONS=1 or ltt record --functions)\n");
		return;
	}
	dump_out_str(o, "  Total time   Self time    Off-CPU      Calls   Min time    Avg time    Max time        Cut  Function\n");
	for (size_t i = 0; i < n; i++) {
		const struct fstat *f = &s->f[ord[i]];

		dump_out_str(o, "  ");
		put_dur(o, f->total);
		dump_out_str(o, "  ");
		put_dur(o, f->self);
		dump_out_str(o, " ");
		put_dur(o, f->off);
		snprintf(buf, sizeof(buf), "  %9" PRIu64 "  ", f->calls);
		dump_out_str(o, buf);
		if (f->calls) {
			put_dur(o, f->min);
			dump_out_str(o, "  ");
			put_dur(o, f->sum / f->calls);
			dump_out_str(o, "  ");
			put_dur(o, f->max);
		} else {	/* only calls cut by a loss: no duration known */
			dump_out_str(o, "         -           -           -");
		}
		snprintf(buf, sizeof(buf), "  %9" PRIu64 "  ", f->cut);
		dump_out_str(o, buf);
		dump_out_str(o, calls_func_name(m, ord[i]));
		dump_out_char(o, '\n');
	}
	/* the chains still open at the end, outermost first: where a crash or a snapshot found each thread */
	for (size_t i = 0; i < s->nopen; i++) {
		const struct openc *c = &s->open[i];

		if (!i || c->tid != s->open[i - 1].tid) {
			snprintf(buf, sizeof(buf), "%s  open at the end [%" PRIu32 "]: ", i ? "\n" : "", c->tid);
			dump_out_str(o, buf);
		} else {
			dump_out_str(o, " > ");
		}
		dump_out_str(o, calls_func_name(m, c->func));
		if (c->before)
			dump_out_char(o, '*');
	}
	if (s->nopen)
		dump_out_str(o, "\n  (* entered before the trace: its entry is not in the rings, the snapshot's "
				"open calls hold it)\n");
}

/* ,"key":v (or ,"key":null when !have), in a JSON object */
static void json_u64_if(struct dump_out *o, const char *key, uint64_t v, int have)
{
	dump_out_str(o, ",\"");
	dump_out_str(o, key);
	dump_out_str(o, "\":");
	if (have)
		dump_out_u64(o, v);
	else
		dump_out_str(o, "null");
}

static void json_u64(struct dump_out *o, const char *key, uint64_t v)
{
	json_u64_if(o, key, v, 1);
}

static void print_json(struct dump_out *o, const struct calls_model *m, const struct cstats *s, const long *ord,
		       size_t n)
{
	char buf[512];

	dump_out_str(o, "{");
	losses_format_json(&m->loss, buf, sizeof(buf), "calls", s->cut);
	dump_out_str(o, buf);
	json_u64(o, "calls", s->calls);
	json_u64(o, "threads", m->nth);
	json_u64(o, "unfinished", s->unfinished);
	json_u64(o, "exits_without_entry", m->unmatched);
	dump_out_str(o, ",\"functions\":[");
	for (size_t i = 0; i < n; i++) {
		const struct fstat *f = &s->f[ord[i]];
		const struct prof_func *pf = &m->pm.funcs[ord[i]];
		const char *name = calls_func_name(m, ord[i]);

		dump_out_str(o, i ? ",\n{\"function\":" : "\n{\"function\":");
		dump_out_json_string(o, name, strlen(name));
		dump_out_str(o, ",\"module\":");
		if (pf->module)
			dump_out_json_string(o, pf->module, strlen(pf->module));
		else
			dump_out_str(o, "null");
		json_u64(o, "calls", f->calls);
		json_u64(o, "total_ns", f->total);
		json_u64(o, "self_ns", f->self);
		json_u64(o, "off_cpu_ns", f->off);
		json_u64(o, "blocked_ns", f->blocked);
		json_u64_if(o, "min_ns", f->min, f->calls);	/* only calls cut by a loss */
		json_u64_if(o, "avg_ns", f->calls ? f->sum / f->calls : 0, f->calls);
		json_u64(o, "cut", f->cut);
		json_u64_if(o, "max_ns", f->max, f->calls);
		dump_out_str(o, ",\"callers\":{");
		for (size_t k = 0; k < f->ncallers; k++) {
			const char *cn = f->callers[k].func < 0 ? "" : calls_func_name(m, f->callers[k].func);

			if (k)
				dump_out_char(o, ',');
			dump_out_json_string(o, cn, strlen(cn));
			dump_out_char(o, ':');
			dump_out_u64(o, f->callers[k].n);
		}
		dump_out_str(o, "}}");
	}
	dump_out_str(o, "],\n\"open\":[");
	for (size_t i = 0; i < s->nopen; i++) {
		const struct openc *c = &s->open[i];
		const char *name = calls_func_name(m, c->func);

		dump_out_str(o, i ? ",\n{\"tid\":" : "\n{\"tid\":");
		dump_out_u64(o, c->tid);
		json_u64(o, "depth", c->depth);
		dump_out_str(o, ",\"function\":");
		dump_out_json_string(o, name, strlen(name));
		json_u64_if(o, "start_ns", c->start_ns, !c->before);
		dump_out_char(o, '}');
	}
	dump_out_str(o, "]}\n");
}

static int by_edge_total(const void *a, const void *b)
{
	const struct gedge *x = a, *y = b;

	return x->total > y->total ? -1 : x->total < y->total;
}

/* uftrace graph's shape: the function's totals, who called it, what it called, with calls and times. */
static void print_graph(struct dump_out *o, const struct calls_model *m, struct cstats *s, int json)
{
	char buf[512];
	struct gedge *sides[2] = { s->up, s->down };
	size_t ns[2] = { s->nup, s->ndown };
	static const char *const title[2] = { "callers", "callees" };

	qsort(s->up, s->nup, sizeof(*s->up), by_edge_total);
	qsort(s->down, s->ndown, sizeof(*s->down), by_edge_total);
	if (json) {
		dump_out_str(o, "{\"function\":");
		dump_out_json_string(o, s->graph, strlen(s->graph));
		snprintf(buf, sizeof(buf), ",\"calls\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"self_ns\":%" PRIu64
			 ",\"off_cpu_ns\":%" PRIu64, s->gcalls, s->gtotal, s->gself, s->goff);
		dump_out_str(o, buf);
		for (int k = 0; k < 2; k++) {
			snprintf(buf, sizeof(buf), ",\"%s\":[", title[k]);
			dump_out_str(o, buf);
			for (size_t i = 0; i < ns[k]; i++) {
				const struct gedge *e = &sides[k][i];
				const char *name = e->func < 0 ? "" : calls_func_name(m, e->func);

				dump_out_str(o, i ? ",{\"function\":" : "{\"function\":");
				dump_out_json_string(o, name, strlen(name));
				snprintf(buf, sizeof(buf), ",\"calls\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"off_cpu_ns\":%"
					 PRIu64 "}", e->calls, e->total, e->off);
				dump_out_str(o, buf);
			}
			dump_out_char(o, ']');
		}
		dump_out_str(o, "}\n");
		return;
	}
	snprintf(buf, sizeof(buf), "graph of %s: %" PRIu64 " calls, total ", s->graph, s->gcalls);
	dump_out_str(o, buf);
	put_dur(o, s->gtotal);
	dump_out_str(o, ", self ");
	put_dur(o, s->gself);
	dump_out_str(o, ", off-CPU ");
	put_dur(o, s->goff);
	dump_out_char(o, '\n');
	if (!s->gcalls) {
		dump_out_str(o, "  (no completed call of it in the trace: is the name right? ltt stats --functions "
				"lists them)\n");
		return;
	}
	for (int k = 0; k < 2; k++) {
		snprintf(buf, sizeof(buf), "  %s:%s\n    Total time      Calls  Function\n", title[k],
			 ns[k] ? "" : " none");
		dump_out_str(o, buf);
		for (size_t i = 0; i < ns[k]; i++) {
			const struct gedge *e = &sides[k][i];

			dump_out_str(o, "    ");
			put_dur(o, e->total);
			snprintf(buf, sizeof(buf), "  %9" PRIu64 "  %s\n", e->calls,
				 e->func < 0 ? "(none: outermost in the trace)" : calls_func_name(m, e->func));
			dump_out_str(o, buf);
		}
	}
}

/* graph: NULL, or a function's name: its callers and callees instead of the table (--graph FUNC). */
static int calls_report(struct ltt_reader *r, const struct stats_args *a)
{
	const char *graph = a->graph;
	struct dump_out *o = a->o;
	int json = a->json, ret;
	struct calls_model m;
	struct cstats s = { 0 };
	struct ltt_event ev;
	long *ord = NULL;
	size_t n = 0;

	ret = calls_init(&m);
	if (ret)
		return ret;
	m.on_call = on_call;
	m.arg = &s;
	s.graph = graph;
	graph_model = &m;
	while ((ret = ltt_reader_next(r, &ev)) > 0)
		if ((ret = calls_event(&m, &ev)) < 0)
			break;
	if (!ret)
		ret = calls_finish(&m);
	if (!ret && graph) {
		print_graph(o, &m, &s, json);
		goto out;
	}
	if (!ret) {
		ord = malloc((s.n ? s.n : 1) * sizeof(*ord));
		if (!ord)
			ret = -ENOMEM;
	}
	if (!ret) {
		for (size_t i = 0; i < s.n; i++)
			if (s.f[i].calls || s.f[i].cut)
				ord[n++] = (long)i;
		sort_s = &s;
		qsort(ord, n, sizeof(*ord), by_total);
		if (s.nopen)
			qsort(s.open, s.nopen, sizeof(*s.open), by_open);
		if (json)
			print_json(o, &m, &s, ord, n);
		else
			print_text(o, &m, &s, ord, n);
	}
out:
	free(s.up);
	free(s.down);
	for (size_t i = 0; i < s.n; i++)
		free(s.f[i].callers);
	free(s.f);
	free(s.open);
	free(ord);
	calls_free(&m);
	return ret;
}

const struct stats_report stats_report_functions = {
	.option = "functions",
	.flags = STATS_TAKES_GRAPH,
	.run = calls_report,
};
