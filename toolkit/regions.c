/* SPDX-License-Identifier: MIT */
/* `ltt stats --regions` (regions.h). Every completed region adds its duration to the entry of its
 * (process, thread, category, label), and its time and itself to its parent region's children, for
 * self times and children counts. The durations are kept for exact percentiles: memory grows with the
 * number of regions in the trace (8 bytes each). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape_json.h"
#include "common/escape_term.h"
#include "common/grow.h"
#include "common/hashmap.h"
#include "toolkit/losses.h"
#include "toolkit/regions.h"
#include "toolkit/trace2_model.h"
#include "toolkit/reader_common.h"
#include "toolkit/sched_decode.h"

#define REG_STACK_MAX 4096

struct reg_entry {
	unsigned trace;		/* process: trace index */
	uint32_t tid;
	char *category, *label;
	uint64_t *durations;	/* ns, one per completed region */
	uint64_t n, cap;
	uint64_t total, self;
	uint64_t children;	/* regions completed directly inside these */
	struct reg_kernel k;	/* their time by kernel state, their longest system call */
};

/* A region open on a thread. */
struct reg_open {
	uint64_t child_ns;	/* time in its completed direct children so far */
	uint64_t children;	/* its completed direct children so far */
	uint64_t id;		/* 0: its enter is not in the trace */
	uint64_t start_ns;
	char *msg;		/* the enter's message (rows only: regions_scan, regions_iter), NULL when empty */
	uint64_t at_enter[SCHED_NSTATES];	/* the thread's time by state at its enter */
	int known;		/* the thread's kernel state was known at its enter */
	struct reg_kernel k;	/* its longest system call so far */
	size_t soff, send;	/* its category and label in its thread's strs: [soff, send) */
};

/* A thread's open regions, by nesting. */
struct reg_thread {
	unsigned trace;
	uint32_t tid;
	char name[T2_THREAD_NAME_MAX + 1];
	struct reg_open *open;
	size_t cap;
	unsigned depth;		/* regions open (the entries of open in use, up to REG_STACK_MAX) */
	unsigned ncut;		/* open[0 .. ncut) were open at a loss of their trace: cut */
	char *strs;		/* "category\0label\0" of each open region, outermost first (for the
				 * regions still open at the end) */
	size_t strs_cap;
};

struct reg_thread_key {
	unsigned trace;		/* process: trace index */
	uint32_t tid;
};

static inline uint64_t reg_thread_key_hash(struct reg_thread_key k)
{
	return ltt_hash64((uint64_t)k.trace << 32 | k.tid);
}

static inline int reg_thread_key_eq(struct reg_thread_key a, struct reg_thread_key b)
{
	return a.trace == b.trace && a.tid == b.tid;
}

LTT_MAP_DEFINE(reg_thread_map, struct reg_thread_key, size_t, reg_thread_key_hash, reg_thread_key_eq)

/* An entry's key: category and label point into the entry once put. */
struct reg_entry_key {
	unsigned trace;
	uint32_t tid;
	const char *category, *label;
};

static inline uint64_t reg_entry_key_hash(struct reg_entry_key k)
{
	uint64_t h = ltt_hash_bytes((uint64_t)k.trace << 32 | k.tid, k.category, strlen(k.category) + 1);

	return ltt_hash_bytes(h, k.label, strlen(k.label) + 1);
}

static inline int reg_entry_key_eq(struct reg_entry_key a, struct reg_entry_key b)
{
	return a.trace == b.trace && a.tid == b.tid && !strcmp(a.category, b.category) && !strcmp(a.label, b.label);
}

LTT_MAP_DEFINE(reg_entry_map, struct reg_entry_key, size_t, reg_entry_key_hash, reg_entry_key_eq)

struct reg_state {
	struct reg_entry *e;
	size_t ne, cape;
	struct reg_thread *t;
	size_t nt, capt;
	struct reg_entry_map eh;	/* index of e by (process, thread, category, label) */
	struct reg_thread_map th;	/* index of t by (process, thread) */
	/* regions_scan: each completed region goes to fn instead of the tables */
	int (*fn)(void *arg, const struct region_row *row);
	void *arg;
	/* regions_iter: the completed region goes to *out, and reading stops (have set) */
	struct region_row *out;
	int have;
	char *msg;		/* the last completed region's message, kept until the next one */
	struct t2_model *m;
	uint64_t next_id;
	/* kernel events (toolkit/sched_model.h): the time of each region on and off CPU */
	struct sched_model *km;
	struct sched_decoder *kd;
	int kernel;		/* the traces hold kernel events */
	struct ltt_reader *r;
	uint64_t last_ns;	/* the last event's time (regions still open: how long before it) */
	struct losses loss;	/* the loss records read (toolkit/losses.h) */
	uint64_t cut;		/* regions left after a loss of their trace: no duration */
};

static struct reg_thread *reg_thread(struct reg_state *s, const struct t2_event *e)
{
	struct reg_thread_key k = {.trace = e->ev->trace->index, .tid = e->tid};
	struct reg_thread *t;
	size_t *i;
	int added;

	if (LTT_GROW(s->t, s->nt + 1, s->capt) || !(i = reg_thread_map_put(&s->th, k, &added)))
		return NULL;
	if (!added)
		return &s->t[*i];
	*i = s->nt;
	t = &s->t[s->nt++];
	memset(t, 0, sizeof(*t));
	t->trace = k.trace;
	t->tid = k.tid;
	return t;
}

static struct reg_entry *reg_entry(struct reg_state *s, const struct t2_event *e)
{
	struct reg_entry_key k = {.trace = e->ev->trace->index, .tid = e->tid,
				  .category = t2_str(e, "category"), .label = t2_str(e, "label")};
	struct reg_entry *x;
	size_t *i;

	if ((i = reg_entry_map_find(&s->eh, k)))
		return &s->e[*i];
	if (LTT_GROW(s->e, s->ne + 1, s->cape))
		return NULL;
	x = &s->e[s->ne];
	memset(x, 0, sizeof(*x));
	x->trace = k.trace;
	x->tid = k.tid;
	x->category = strdup(k.category);
	x->label = strdup(k.label);
	k.category = x->category;
	k.label = x->label;
	if (!x->category || !x->label || !(i = reg_entry_map_put(&s->eh, k, NULL))) {
		free(x->category);
		free(x->label);
		return NULL;
	}
	*i = s->ne++;
	return x;
}

static struct reg_thread *reg_thread_find(const struct reg_state *s, unsigned trace, uint32_t tid)
{
	size_t *i = reg_thread_map_find(&s->th, (struct reg_thread_key){.trace = trace, .tid = tid});

	return i ? &s->t[*i] : NULL;
}

/* A system call completed: the longest of each region open on its thread (the part inside it). */
static int reg_kernel_call(void *arg, const struct sched_call *c)
{
	struct reg_thread *t = reg_thread_find(arg, c->trace, c->tid);

	for (unsigned i = 0; t && i < t->depth && i < t->cap; i++) {
		struct reg_open *o = &t->open[i];
		uint64_t from = c->entry_ns > o->start_ns ? c->entry_ns : o->start_ns;
		uint64_t d = c->exit_ns > from ? c->exit_ns - from : 0;

		if (o->id && o->known && (!o->k.has_call || d > o->k.call_ns)) {
			o->k.has_call = 1;
			o->k.call_ns = d;
			o->k.call_nr = c->nr;
			o->k.call_trace = c->trace;
		}
	}
	return 0;
}

static unsigned trace_index(const struct t2_event *e)
{
	return e->ev->trace->index;
}

static int reg_event(struct reg_state *s, const struct t2_event *e)
{
	uint32_t n = e->nesting - 1;	/* regions open around this one */
	struct reg_thread *t = reg_thread(s, e);
	struct reg_entry *x;
	struct reg_open o;

	if (!t)
		return -ENOMEM;
	snprintf(t->name, sizeof(t->name), "%s", e->thread);
	if (n >= REG_STACK_MAX)
		return 0;
	if (LTT_GROW_ZERO(t->open, n + 1, t->cap))
		return -ENOMEM;
	if (e->kind == T2_REGION_ENTER) {
		const char *cat = t2_str(e, "category"), *label = t2_str(e, "label");
		const char *msg = s->fn || s->out ? t2_str(e, "msg") : "";
		size_t soff = n ? t->open[n - 1].send : 0, lc = strlen(cat) + 1, ll = strlen(label) + 1;
		char *ns;

		if (LTT_GROW(t->strs, soff + lc + ll, t->strs_cap))
			return -ENOMEM;
		ns = t->strs;
		memcpy(ns + soff, cat, lc);
		memcpy(ns + soff + lc, label, ll);
		free(t->open[n].msg);	/* a region left open by a leave missing from the trace */
		t->open[n] = (struct reg_open){ .id = ++s->next_id, .start_ns = e->ev->time_ns, .soff = soff,
						.send = soff + lc + ll };
		if (*msg && !(t->open[n].msg = strdup(msg)))
			return -ENOMEM;
		t->open[n].known = s->km && !sched_model_thread_at(s->km, trace_index(e), e->tid, e->ev->time_ns,
								     t->open[n].at_enter);
		t->depth = n + 1;
		if (t->ncut > n)
			t->ncut = n;
		return 0;
	}
	o = t->open[n];
	t->open[n] = (struct reg_open){ 0 };
	t->depth = n;
	if (n < t->ncut) {	/* open across a loss: its enter is not known to be this leave's */
		t->ncut = n;
		free(s->msg);
		s->msg = o.msg;
		s->cut++;
		if (s->fn || s->out) {
			struct region_row row = {
				.trace = trace_index(e), .tid = e->tid, .thread = t->name,
				.category = t2_str(e, "category"), .label = t2_str(e, "label"), .msg = o.msg,
				.start_ns = o.start_ns, .depth = n, .id = o.id,
				.parent_id = n > 0 ? t->open[n - 1].id : 0, .cut = 1,
			};

			if (s->out) {
				*s->out = row;
				s->have = 1;
				return 0;
			}
			return s->fn(s->arg, &row);
		}
		return 0;
	}
	free(s->msg);	/* the row before this one is gone: its message too */
	s->msg = o.msg;
	if (!e->has_rel)
		return 0;
	if (o.known) {	/* the time by state between the enter and now */
		uint64_t now[SCHED_NSTATES];

		if (!sched_model_thread_at(s->km, trace_index(e), e->tid, e->ev->time_ns, now))
			reg_kernel_span(&o.k, o.at_enter, now);
	}
	if (n > 0) {
		t->open[n - 1].child_ns += e->t_rel_ns;
		t->open[n - 1].children++;
	}
	if (s->fn || s->out) {
		struct region_row row = {
			.trace = trace_index(e), .tid = e->tid, .thread = t->name,
			.category = t2_str(e, "category"), .label = t2_str(e, "label"), .msg = o.msg,
			.start_ns = e->ev->time_ns - e->t_rel_ns, .dur_ns = e->t_rel_ns,
			.self_ns = e->t_rel_ns > o.child_ns ? e->t_rel_ns - o.child_ns : 0,
			.depth = n, .id = o.id, .parent_id = n > 0 ? t->open[n - 1].id : 0, .k = o.k,
		};

		if (s->out) {
			*s->out = row;
			s->have = 1;
			return 0;
		}
		return s->fn(s->arg, &row);
	}
	x = reg_entry(s, e);
	if (!x)
		return -ENOMEM;
	if (LTT_GROW(x->durations, (size_t)x->n + 1, x->cap))
		return -ENOMEM;
	x->durations[x->n++] = e->t_rel_ns;
	x->total += e->t_rel_ns;
	x->self += e->t_rel_ns > o.child_ns ? e->t_rel_ns - o.child_ns : 0;
	x->children += o.children;
	reg_kernel_add(&x->k, &o.k);
	return 0;
}

static int reg_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Order: process, thread, category, label. */
static int reg_cmp_entry(const void *a, const void *b)
{
	const struct reg_entry *x = a, *y = b;
	int c;

	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	c = strcmp(x->category, y->category);
	return c ? c : strcmp(x->label, y->label);
}

/* Statistics of one row: the durations of several entries together. Percentiles are exact: the
 * duration at 0-based rank floor(p * (count - 1) / 100) of all the durations sorted (one that occurred,
 * the lower one when the rank falls between two); p50 is the lower median. */
struct reg_row {
	const struct reg_entry *first;	/* per thread: the entry (trace, tid, thread name) */
	const char *category, *label;
	uint64_t count, children, total, self, min, p50, p90, p99, max;
	struct reg_kernel k;
	char call[64];		/* with kernel events: the longest system call, "read 100.00ms" */
};

static uint64_t reg_pct(const uint64_t *sorted, uint64_t n, unsigned p)
{
	return sorted[(n - 1) * p / 100u];
}

static int reg_row(struct reg_row *row, struct reg_entry *const *ents, size_t nents)
{
	uint64_t *all, k = 0;

	memset(row, 0, sizeof(*row));
	row->first = ents[0];
	row->category = ents[0]->category;
	row->label = ents[0]->label;
	for (size_t i = 0; i < nents; i++) {
		row->count += ents[i]->n;
		row->children += ents[i]->children;
		row->total += ents[i]->total;
		row->self += ents[i]->self;
		reg_kernel_add(&row->k, &ents[i]->k);
	}
	if (!row->count)	/* an entry is made for a completed region: never 0 */
		return 0;
	all = malloc(row->count * sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < nents; i++) {
		memcpy(all + k, ents[i]->durations, ents[i]->n * sizeof(*all));
		k += ents[i]->n;
	}
	qsort(all, row->count, sizeof(*all), reg_cmp_u64);
	row->min = all[0];
	row->max = all[row->count - 1];
	row->p50 = reg_pct(all, row->count, 50);
	row->p90 = reg_pct(all, row->count, 90);
	row->p99 = reg_pct(all, row->count, 99);
	free(all);
	return 0;
}

/* One region object of the JSON (doc/cli.md "ltt stats --regions --format=json"). */
static void reg_json_row(FILE *out, const struct reg_row *r, int first, int kernel)
{
	fputs(first ? "{\"category\":" : ",{\"category\":", out);
	ltt_json_to_file(out, r->category, strlen(r->category));
	fputs(",\"label\":", out);
	ltt_json_to_file(out, r->label, strlen(r->label));
	fprintf(out, ",\"count\":%" PRIu64 ",\"children\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"self_ns\":%" PRIu64
		",\"min_ns\":%" PRIu64 ",\"median_ns\":%" PRIu64 ",\"p50_ns\":%" PRIu64 ",\"p90_ns\":%" PRIu64
		",\"p99_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64,
		r->count, r->children, r->total, r->self, r->min, r->p50, r->p50, r->p90, r->p99, r->max);
	if (kernel)
		reg_kernel_json(out, &r->k, r->call);
	fputc('}', out);
}

/* Column widths of the text tables, the same for every table of the output. */
struct reg_widths {
	int category, label, count, children, dur;
	int kernel;		/* the kernel columns (on-cpu, runnable, off-cpu, longest-call) */
};

#define REG_NDUR 7
static const char *const reg_dur_names[REG_NDUR] = { "total", "self", "min", "p50", "p90", "p99", "max" };

static void reg_durs(const struct reg_row *r, uint64_t d[REG_NDUR])
{
	d[0] = r->total, d[1] = r->self, d[2] = r->min, d[3] = r->p50, d[4] = r->p90, d[5] = r->p99, d[6] = r->max;
}

static int reg_max(int a, int b)
{
	return a > b ? a : b;
}

/* The terminal columns of s as terminal text (common/escape_term.h). */
static int reg_term_columns(const char *s)
{
	char *e = ltt_term_dup(s);
	int n = (int)reader_text_columns(e ? e : s);

	free(e);
	return n;
}

static void reg_widen(struct reg_widths *w, const struct reg_row *r)
{
	char buf[32];
	uint64_t d[REG_NDUR];

	w->category = reg_max(w->category, reg_term_columns(r->category));
	w->label = reg_max(w->label, reg_term_columns(r->label));
	w->count = reg_max(w->count, snprintf(buf, sizeof(buf), "%" PRIu64, r->count));
	w->children = reg_max(w->children, snprintf(buf, sizeof(buf), "%" PRIu64, r->children));
	reg_durs(r, d);
	for (int i = 0; i < REG_NDUR; i++)
		w->dur = reg_max(w->dur, (int)reader_text_columns(reader_format_duration(buf, sizeof(buf), d[i])));
	if (w->kernel) {
		w->dur = reg_max(w->dur, (int)reader_text_columns(reader_format_duration(buf, sizeof(buf), r->k.on_cpu_ns)));
		w->dur = reg_max(w->dur, (int)reader_text_columns(reader_format_duration(buf, sizeof(buf), r->k.runnable_ns)));
		w->dur = reg_max(w->dur, (int)reader_text_columns(reader_format_duration(buf, sizeof(buf), r->k.off_cpu_ns)));
	}
}

/* s left-aligned (left) or right-aligned in w columns, after a space (terminal columns, not bytes) */
static void reg_cell(FILE *out, const char *s, int w, int left)
{
	int pad = w - (int)reader_text_columns(s);

	fputc(' ', out);
	if (!left)
		fprintf(out, "%*s", pad > 0 ? pad : 0, "");
	fputs(s, out);
	if (left)
		fprintf(out, "%*s", pad > 0 ? pad : 0, "");
}

/* A category or a label (strings of the trace): left-aligned terminal text. */
static void reg_cell_term(FILE *out, const char *s, int w)
{
	char *e = ltt_term_dup(s);

	reg_cell(out, e ? e : "?", w, 1);
	free(e);
}

static void reg_text_header(FILE *out, const struct reg_widths *w)
{
	fputc(' ', out);
	reg_cell(out, "category", w->category, 1);
	reg_cell(out, "label", w->label, 1);
	reg_cell(out, "count", w->count, 0);
	reg_cell(out, "children", w->children, 0);
	for (int i = 0; i < REG_NDUR; i++)
		reg_cell(out, reg_dur_names[i], w->dur, 0);
	if (w->kernel) {
		reg_cell(out, "on-cpu", w->dur, 0);
		reg_cell(out, "runnable", w->dur, 0);
		reg_cell(out, "off-cpu", w->dur, 0);
		fputs("  longest-call", out);	/* the last column: not padded */
	}
	fputc('\n', out);
}

static void reg_text_row(FILE *out, const struct reg_row *r, const struct reg_widths *w)
{
	char buf[32];
	uint64_t d[REG_NDUR];

	fputc(' ', out);
	reg_cell_term(out, r->category, w->category);
	reg_cell_term(out, r->label, w->label);
	snprintf(buf, sizeof(buf), "%" PRIu64, r->count);
	reg_cell(out, buf, w->count, 0);
	snprintf(buf, sizeof(buf), "%" PRIu64, r->children);
	reg_cell(out, buf, w->children, 0);
	reg_durs(r, d);
	for (int i = 0; i < REG_NDUR; i++)
		reg_cell(out, reader_format_duration(buf, sizeof(buf), d[i]), w->dur, 0);
	if (w->kernel) {
		reg_cell(out, reader_format_duration(buf, sizeof(buf), r->k.on_cpu_ns), w->dur, 0);
		reg_cell(out, reader_format_duration(buf, sizeof(buf), r->k.runnable_ns), w->dur, 0);
		reg_cell(out, reader_format_duration(buf, sizeof(buf), r->k.off_cpu_ns), w->dur, 0);
		fputs("  ", out);
		fputs(r->call, out);
	}
	fputc('\n', out);
}

static const char *reg_thread_name(const struct reg_state *s, unsigned trace, uint32_t tid)
{
	const struct reg_thread *t = reg_thread_find(s, trace, tid);

	return t ? t->name : "?";
}

static int reg_cmp_label(const void *a, const void *b)
{
	const struct reg_entry *const *x = a, *const *y = b;
	int c = strcmp((*x)->category, (*y)->category);

	return c ? c : strcmp((*x)->label, (*y)->label);
}

static void reg_print_text(FILE *out, const struct reg_state *s, const struct reg_row *rows, size_t nthread,
			   size_t nrows, unsigned ntraces)
{
	struct reg_widths w = { 8, 5, 5, 8, 5, s->kernel };
	size_t i;

	for (i = 0; i < nrows; i++)
		reg_widen(&w, &rows[i]);
	w.dur++;	/* two spaces between durations */
	for (i = 0; i < nthread; i++) {
		const struct reg_entry *x = rows[i].first;

		if (!i || x->trace != rows[i - 1].first->trace || x->tid != rows[i - 1].first->tid) {
			char nb[200];
			const char *name = ltt_term_str(nb, sizeof(nb), reg_thread_name(s, x->trace, x->tid));

			if (i)
				fputc('\n', out);
			if (ntraces > 1)
				fprintf(out, "regions of thread %s (tid %" PRIu32 ", trace %u):\n", name, x->tid, x->trace);
			else
				fprintf(out, "regions of thread %s (tid %" PRIu32 "):\n", name, x->tid);
			reg_text_header(out, &w);
		}
		reg_text_row(out, &rows[i], &w);
	}
	if (nthread)
		fputc('\n', out);
	fprintf(out, "regions of all threads:\n");
	reg_text_header(out, &w);
	for (; i < nrows; i++)
		reg_text_row(out, &rows[i], &w);
}

/* Calls fn for each region still open at the end whose enter is in the trace, thread by thread in the
 * order first seen, outermost first: open 1, dur_ns and self_ns 0. */
/* The region open at the end after position (*i thread, *d depth) into *row, the position moved past
 * it: 1, or 0 when there is none left. */
static int reg_open_next(const struct reg_state *s, size_t *i, unsigned *d, struct region_row *row)
{
	for (; *i < s->nt; (*i)++, *d = 0) {
		const struct reg_thread *t = &s->t[*i];

		for (; *d < t->depth && *d < t->cap; (*d)++) {
			const struct reg_open *o = &t->open[*d];

			if (!o->id)
				continue;	/* its enter is not in the trace */
			*row = (struct region_row){
				.trace = t->trace, .tid = t->tid, .thread = t->name, .category = t->strs + o->soff,
				.start_ns = o->start_ns, .depth = *d, .id = o->id, .open = 1, .msg = o->msg,
				.parent_id = *d > 0 ? t->open[*d - 1].id : 0,
			};
			row->label = row->category + strlen(row->category) + 1;
			(*d)++;
			return 1;
		}
	}
	return 0;
}

static int reg_open_each(const struct reg_state *s, int (*fn)(void *arg, const struct region_row *row), void *arg)
{
	struct region_row row;
	unsigned d = 0;
	size_t i = 0;
	int rc;

	while (reg_open_next(s, &i, &d, &row))
		if ((rc = fn(arg, &row)))
			return rc;
	return 0;
}

struct reg_open_print {
	FILE *out;
	int json, n;
	uint64_t last_ns;
	unsigned ntraces;
};

/* A region open at the end: a line of text ("  thread main (tid 5): main/outer since TS ns (1.23ms
 * before the end), depth 0") or an object of the JSON's "open" array. */
static int reg_open_print(void *arg, const struct region_row *r)
{
	struct reg_open_print *p = arg;
	char buf[32];

	if (p->json) {
		fprintf(p->out, "%s{\"trace\":%u,\"tid\":%" PRIu32 ",\"thread\":", p->n++ ? "," : "", r->trace, r->tid);
		ltt_json_to_file(p->out, r->thread, strlen(r->thread));
		fputs(",\"category\":", p->out);
		ltt_json_to_file(p->out, r->category, strlen(r->category));
		fputs(",\"label\":", p->out);
		ltt_json_to_file(p->out, r->label, strlen(r->label));
		fprintf(p->out, ",\"start_ns\":%" PRIu64 ",\"open_ns\":%" PRIu64 ",\"depth\":%u}", r->start_ns,
			p->last_ns - r->start_ns, r->depth);
		return 0;
	}
	if (!p->n++)
		fputs("\nregions open at the end of the trace:\n", p->out);
	fprintf(p->out, "  thread %s (tid %" PRIu32, r->thread, r->tid);
	if (p->ntraces > 1)
		fprintf(p->out, ", trace %u", r->trace);
	fprintf(p->out, "): %s/%s since %" PRIu64 " ns (%s before the end), depth %u\n", r->category, r->label,
		r->start_ns, reader_format_duration(buf, sizeof(buf), p->last_ns - r->start_ns), r->depth);
	return 0;
}

static void reg_print_json(FILE *out, const struct reg_state *s, const struct reg_row *rows, size_t nthread,
			   size_t nrows)
{
	size_t i;

	fputs("{\"version\":1,", out);
	losses_print_json(&s->loss, out, "regions", s->cut);
	fputs(",\"threads\":[", out);
	for (i = 0; i < nthread; i++) {
		const struct reg_entry *x = rows[i].first;
		int first = !i || x->trace != rows[i - 1].first->trace || x->tid != rows[i - 1].first->tid;

		if (first) {
			const char *name = reg_thread_name(s, x->trace, x->tid);

			fprintf(out, "%s{\"trace\":%u,\"tid\":%" PRIu32 ",\"thread\":", i ? "]}," : "", x->trace, x->tid);
			ltt_json_to_file(out, name, strlen(name));
			fputs(",\"regions\":[", out);
		}
		reg_json_row(out, &rows[i], first, s->kernel);
	}
	fputs(nthread ? "]}],\"overall\":[" : "],\"overall\":[", out);
	for (; i < nrows; i++)
		reg_json_row(out, &rows[i], i == nthread, s->kernel);
	fputs("],\"open\":[", out);
	reg_open_each(s, reg_open_print, &(struct reg_open_print){ .out = out, .json = 1, .last_ns = s->last_ns });
	fputs("]}\n", out);
}

/* The rows: one per entry (sorted by process, thread, category, label), then one per (category,
 * label) of all threads together; printed as text or JSON. */
static int reg_print(struct reg_state *s, FILE *out, int json, unsigned ntraces)
{
	struct reg_entry **by_label = NULL;
	struct reg_row *rows = NULL;
	size_t i, j, nrows = 0;
	int rc = -ENOMEM;

	if (s->ne) {	/* qsort of a NULL array is undefined even for 0 elements (UBSan) */
		qsort(s->e, s->ne, sizeof(*s->e), reg_cmp_entry);	/* s->eh is stale from here on */
		by_label = malloc(s->ne * sizeof(*by_label));
		rows = malloc(2 * s->ne * sizeof(*rows));
		if (!by_label || !rows)
			goto out;
		for (i = 0; i < s->ne; i++)
			by_label[i] = &s->e[i];
		qsort(by_label, s->ne, sizeof(*by_label), reg_cmp_label);
	}
	for (i = 0; i < s->ne; i++) {
		struct reg_entry *one = &s->e[i];

		if ((rc = reg_row(&rows[nrows++], &one, 1)) < 0)
			goto out;
	}
	for (i = 0; i < s->ne; i = j) {
		for (j = i + 1; j < s->ne && !reg_cmp_label(&by_label[i], &by_label[j]); j++)
			;
		if ((rc = reg_row(&rows[nrows++], by_label + i, j - i)) < 0)
			goto out;
	}
	for (i = 0; s->kernel && i < nrows; i++)
		reg_kernel_call_text(rows[i].call, sizeof(rows[i].call), &rows[i].k, s->r);
	if (json)
		reg_print_json(out, s, rows, s->ne, nrows);
	else {
		losses_print_text(&s->loss, out, "regions", s->cut);
		reg_print_text(out, s, rows, s->ne, nrows, ntraces);
		reg_open_each(s, reg_open_print,
			      &(struct reg_open_print){ .out = out, .last_ns = s->last_ns, .ntraces = ntraces });
	}
	rc = 0;
out:
	free(by_label);
	free(rows);
	return rc;
}

/* The models reg_read feeds: 0 or -ENOMEM (what was made is freed by reg_free). */
static int reg_begin(struct reg_state *s)
{
	struct sched_hooks hooks = { .arg = s, .call = reg_kernel_call };
	int rc = t2_model_new(&s->m);

	if (!rc && !(rc = sched_model_new(&s->km, &hooks, 0)))
		rc = sched_decoder_new(&s->kd);
	return rc;
}

/* Reads the events of r into s (s->fn set: each completed region to it; else the tables), or with
 * s->out set up to the next completed region (1 then, 0 at the end). */
static int reg_read(struct reg_state *s, struct ltt_reader *r)
{
	struct t2_model *m = s->m;
	struct ltt_event ev;
	struct t2_event e;
	int rc;

	struct sched_ev k;

	s->have = 0;
	while ((rc = ltt_reader_next(r, &ev)) == 1) {
		if ((rc = losses_event(&s->loss, &ev)) != 0) {
			if (rc < 0)
				break;
			for (size_t i = 0; losses_cut_user(&s->loss) && i < s->nt; i++)
				if (s->t[i].trace == ev.trace->index)
					s->t[i].ncut = s->t[i].depth;
			continue;
		}
		if (ev.time_ns > s->last_ns)
			s->last_ns = ev.time_ns;
		rc = sched_decode(s->kd, &ev, &k);
		if (rc == 1) {
			s->kernel |= k.kind != SCHED_EV_THREAD;
			rc = sched_model_feed(s->km, &k);
		}
		if (rc < 0)
			break;
		rc = t2_model_event(m, &ev, &e);
		if (rc < 0)
			break;
		if (rc == 1 && (e.kind == T2_REGION_ENTER || e.kind == T2_REGION_LEAVE)) {
			rc = reg_event(s, &e);
			if (rc < 0)
				break;
			if (s->have)
				return 1;
		}
	}
	return rc;
}

static void reg_free(struct reg_state *s)
{
	for (size_t i = 0; i < s->ne; i++) {
		free(s->e[i].durations);
		free(s->e[i].category);
		free(s->e[i].label);
	}
	free(s->e);
	for (size_t i = 0; i < s->nt; i++) {
		for (size_t k = 0; k < s->t[i].cap; k++)
			free(s->t[i].open[k].msg);
		free(s->t[i].open);
		free(s->t[i].strs);
	}
	free(s->msg);
	losses_free(&s->loss);
	t2_model_free(s->m);
	free(s->t);
	reg_entry_map_free(&s->eh);
	reg_thread_map_free(&s->th);
	sched_model_free(s->km);
	sched_decoder_free(s->kd);
}

int regions_report(struct ltt_reader *r, FILE *out, int json)
{
	struct reg_state s = { .r = r };
	int rc = reg_begin(&s);

	if (rc == 0)
		rc = reg_read(&s, r);
	if (rc == 0)
		rc = reg_print(&s, out, json, ltt_reader_ntraces(r));
	reg_free(&s);
	return rc;
}

int regions_scan(struct ltt_reader *r, int (*fn)(void *arg, const struct region_row *row), void *arg)
{
	struct reg_state s = { .fn = fn, .arg = arg };
	int rc = reg_begin(&s);

	if (rc == 0)
		rc = reg_read(&s, r);
	if (!rc)	/* then the regions still open at the end */
		rc = reg_open_each(&s, fn, arg);
	reg_free(&s);
	return rc;
}

struct regions_iter {
	struct reg_state s;
	struct ltt_reader *r;
	struct region_row row;
	int at_end;		/* the trace is read: the regions still open at its end */
	size_t open_i;
	unsigned open_d;
};

int regions_iter_new(struct ltt_reader *r, struct regions_iter **out)
{
	struct regions_iter *it = calloc(1, sizeof(*it));
	int rc;

	*out = NULL;
	if (!it)
		return -ENOMEM;
	it->r = r;
	it->s.out = &it->row;
	rc = reg_begin(&it->s);
	if (rc) {
		regions_iter_free(it);
		return rc;
	}
	*out = it;
	return 0;
}

int regions_iter_next(struct regions_iter *it, const struct region_row **row)
{
	int rc = it->at_end ? 0 : reg_read(&it->s, it->r);

	if (rc == 0) {	/* then the regions still open at the end, as regions_scan */
		it->at_end = 1;
		rc = reg_open_next(&it->s, &it->open_i, &it->open_d, &it->row);
	}
	*row = rc == 1 ? &it->row : NULL;
	return rc;
}

void regions_iter_free(struct regions_iter *it)
{
	if (!it)
		return;
	reg_free(&it->s);
	free(it);
}
