/* `ltt stats --regions` (regions.h). Every completed region adds its duration to the entry of its
 * (process, thread, category, label), and to its parent region's child time, for self times. The
 * durations are kept for exact medians: memory grows with the number of regions in the trace. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "app/regions.h"
#include "app/trace2_model.h"

#define REG_STACK_MAX 4096

struct reg_entry {
	unsigned trace;		/* process: trace index */
	uint32_t tid;
	char *category, *label;
	uint64_t *durations;	/* ns, one per completed region */
	uint64_t n, cap;
	uint64_t total, self;
};

/* A thread's open regions: the time spent in their completed children so far. */
struct reg_thread {
	unsigned trace;
	uint32_t tid;
	char name[T2_THREAD_NAME_MAX + 1];
	uint64_t *child;	/* by nesting */
	uint64_t *ids;		/* by nesting: the open regions' ids (0: enter not in the trace) */
	uint32_t cap;
};

struct reg_state {
	struct reg_entry *e;
	size_t ne, cape;
	struct reg_thread *t;
	size_t nt, capt;
	size_t *eh, *th;	/* hash indexes of e and t: index + 1, 0 when free; size a power of 2 */
	size_t ehsize, thsize;
	/* regions_scan: each completed region goes to fn instead of the tables */
	int (*fn)(void *arg, const struct region_row *row);
	void *arg;
	uint64_t next_id;
};

static uint64_t reg_fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--)
		h = (h ^ *c++) * 1099511628211u;
	return h;
}

static uint64_t reg_hash_thread(unsigned trace, uint32_t tid)
{
	uint64_t h = reg_fnv(14695981039346656037u, &trace, sizeof(trace));

	return reg_fnv(h, &tid, sizeof(tid));
}

static uint64_t reg_hash_entry(unsigned trace, uint32_t tid, const char *cat, const char *label)
{
	uint64_t h = reg_hash_thread(trace, tid);

	h = reg_fnv(h, cat, strlen(cat) + 1);
	return reg_fnv(h, label, strlen(label) + 1);
}

/* Makes room in a hash index for n items (at most half full), rehashing with hash(i) of item i. */
static int reg_index_grow(size_t **tab, size_t *size, size_t n, uint64_t (*hash)(const struct reg_state *, size_t),
			  const struct reg_state *s)
{
	size_t nsize = *size ? *size : 64, *nt;

	if (n * 2 <= *size)
		return 0;
	while (n * 2 > nsize)
		nsize *= 2;
	nt = calloc(nsize, sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	for (size_t k = 0; k < *size; k++) {
		size_t i;

		if (!(*tab)[k])
			continue;
		for (i = hash(s, (*tab)[k] - 1) & (nsize - 1); nt[i]; i = (i + 1) & (nsize - 1))
			;
		nt[i] = (*tab)[k];
	}
	free(*tab);
	*tab = nt;
	*size = nsize;
	return 0;
}

static uint64_t reg_thread_hash_at(const struct reg_state *s, size_t i)
{
	return reg_hash_thread(s->t[i].trace, s->t[i].tid);
}

static uint64_t reg_entry_hash_at(const struct reg_state *s, size_t i)
{
	return reg_hash_entry(s->e[i].trace, s->e[i].tid, s->e[i].category, s->e[i].label);
}

static void *reg_grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *np;

	if (need <= *cap)
		return p;
	while (ncap < need)
		ncap *= 2;
	np = realloc(p, ncap * size);
	if (np)
		*cap = ncap;
	return np;
}

static struct reg_thread *reg_thread(struct reg_state *s, const struct t2_event *e)
{
	unsigned trace = e->ev->trace->index;
	struct reg_thread *t, *nt;
	size_t i;

	if (reg_index_grow(&s->th, &s->thsize, s->nt + 1, reg_thread_hash_at, s))
		return NULL;
	for (i = reg_hash_thread(trace, e->tid) & (s->thsize - 1); s->th[i]; i = (i + 1) & (s->thsize - 1)) {
		t = &s->t[s->th[i] - 1];
		if (t->tid == e->tid && t->trace == trace)
			return t;
	}
	nt = reg_grow(s->t, &s->capt, s->nt + 1, sizeof(*nt));
	if (!nt)
		return NULL;
	s->t = nt;
	t = &s->t[s->nt++];
	s->th[i] = s->nt;
	memset(t, 0, sizeof(*t));
	t->trace = trace;
	t->tid = e->tid;
	return t;
}

static struct reg_entry *reg_entry(struct reg_state *s, const struct t2_event *e)
{
	const char *cat = t2_str(e, "category"), *label = t2_str(e, "label");
	unsigned trace = e->ev->trace->index;
	struct reg_entry *x, *nx;
	size_t i;

	if (reg_index_grow(&s->eh, &s->ehsize, s->ne + 1, reg_entry_hash_at, s))
		return NULL;
	for (i = reg_hash_entry(trace, e->tid, cat, label) & (s->ehsize - 1); s->eh[i]; i = (i + 1) & (s->ehsize - 1)) {
		x = &s->e[s->eh[i] - 1];
		if (x->tid == e->tid && x->trace == trace && !strcmp(x->category, cat) && !strcmp(x->label, label))
			return x;
	}
	nx = reg_grow(s->e, &s->cape, s->ne + 1, sizeof(*nx));
	if (!nx)
		return NULL;
	s->e = nx;
	x = &s->e[s->ne];
	memset(x, 0, sizeof(*x));
	x->trace = trace;
	x->tid = e->tid;
	x->category = strdup(cat);
	x->label = strdup(label);
	if (!x->category || !x->label) {
		free(x->category);
		free(x->label);
		return NULL;
	}
	s->eh[i] = ++s->ne;
	return x;
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
	uint64_t child, id;
	size_t cap;

	if (!t)
		return -ENOMEM;
	snprintf(t->name, sizeof(t->name), "%s", e->thread);
	if (n >= REG_STACK_MAX)
		return 0;
	cap = t->cap;
	if (n + 1 > cap) {
		uint64_t *nc = reg_grow(t->child, &cap, n + 1, sizeof(*nc)), *ni;

		if (!nc)
			return -ENOMEM;
		t->child = nc;
		cap = t->cap;
		ni = reg_grow(t->ids, &cap, n + 1, sizeof(*ni));
		if (!ni)
			return -ENOMEM;
		memset(nc + t->cap, 0, (cap - t->cap) * sizeof(*nc));
		memset(ni + t->cap, 0, (cap - t->cap) * sizeof(*ni));
		t->ids = ni;
		t->cap = (uint32_t)cap;
	}
	if (e->kind == T2_REGION_ENTER) {
		t->child[n] = 0;
		t->ids[n] = ++s->next_id;
		return 0;
	}
	child = t->child[n];
	t->child[n] = 0;
	id = t->ids[n];
	t->ids[n] = 0;
	if (!e->has_rel)
		return 0;
	if (n > 0)
		t->child[n - 1] += e->t_rel_ns;
	if (s->fn) {
		struct region_row row = {
			.trace = trace_index(e), .tid = e->tid, .thread = t->name,
			.category = t2_str(e, "category"), .label = t2_str(e, "label"),
			.start_ns = e->ev->time_ns - e->t_rel_ns, .dur_ns = e->t_rel_ns,
			.self_ns = e->t_rel_ns > child ? e->t_rel_ns - child : 0,
			.depth = n, .id = id, .parent_id = n > 0 ? t->ids[n - 1] : 0,
		};

		return s->fn(s->arg, &row);
	}
	x = reg_entry(s, e);
	if (!x)
		return -ENOMEM;
	if (x->n == x->cap) {
		size_t c = (size_t)x->cap;
		uint64_t *nd = reg_grow(x->durations, &c, (size_t)x->n + 1, sizeof(*nd));

		if (!nd)
			return -ENOMEM;
		x->durations = nd;
		x->cap = c;
	}
	x->durations[x->n++] = e->t_rel_ns;
	x->total += e->t_rel_ns;
	x->self += e->t_rel_ns > child ? e->t_rel_ns - child : 0;
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

/* Statistics of one row: the durations of several entries together. */
struct reg_row {
	const char *category, *label;
	uint64_t count, total, self, min, median, max;
};

static int reg_row(struct reg_row *row, struct reg_entry *const *ents, size_t nents)
{
	uint64_t *all, k = 0;

	memset(row, 0, sizeof(*row));
	row->category = ents[0]->category;
	row->label = ents[0]->label;
	for (size_t i = 0; i < nents; i++) {
		row->count += ents[i]->n;
		row->total += ents[i]->total;
		row->self += ents[i]->self;
	}
	if (!row->count)
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
	/* the lower median for an even count: a duration that occurred */
	row->median = all[(row->count - 1) / 2];
	free(all);
	return 0;
}

static void reg_sec(FILE *out, uint64_t ns)
{
	fprintf(out, " %10" PRIu64 ".%06" PRIu64, ns / 1000000000u, ns % 1000000000u / 1000u);
}

static void reg_json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void reg_print_row(FILE *out, const struct reg_row *r, int json, int first)
{
	if (json) {
		fputs(first ? "" : ",", out);
		fputs("{\"category\":", out);
		reg_json_str(out, r->category);
		fputs(",\"label\":", out);
		reg_json_str(out, r->label);
		fprintf(out, ",\"count\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"self_ns\":%" PRIu64
			",\"min_ns\":%" PRIu64 ",\"median_ns\":%" PRIu64 ",\"max_ns\":%" PRIu64 "}",
			r->count, r->total, r->self, r->min, r->median, r->max);
		return;
	}
	fprintf(out, "  %-16s %-24s %8" PRIu64, r->category, r->label, r->count);
	reg_sec(out, r->total);
	reg_sec(out, r->self);
	reg_sec(out, r->min);
	reg_sec(out, r->median);
	reg_sec(out, r->max);
	fputc('\n', out);
}

static void reg_print_header(FILE *out)
{
	fprintf(out, "  %-16s %-24s %8s %17s %17s %17s %17s %17s\n", "category", "label", "count", "total(s)",
		"self(s)", "min(s)", "median(s)", "max(s)");
}

static const char *reg_thread_name(const struct reg_state *s, unsigned trace, uint32_t tid)
{
	if (!s->thsize)
		return "?";
	for (size_t i = reg_hash_thread(trace, tid) & (s->thsize - 1); s->th[i]; i = (i + 1) & (s->thsize - 1))
		if (s->t[s->th[i] - 1].trace == trace && s->t[s->th[i] - 1].tid == tid)
			return s->t[s->th[i] - 1].name;
	return "?";
}

static int reg_cmp_label(const void *a, const void *b)
{
	const struct reg_entry *const *x = a, *const *y = b;
	int c = strcmp((*x)->category, (*y)->category);

	return c ? c : strcmp((*x)->label, (*y)->label);
}

static int reg_print(struct reg_state *s, FILE *out, int json, unsigned ntraces)
{
	struct reg_entry **by_label;
	struct reg_row row;
	size_t i, j;
	int rc = 0, first;

	if (s->ne)	/* qsort of a NULL array is undefined even for 0 elements (UBSan) */
		qsort(s->e, s->ne, sizeof(*s->e), reg_cmp_entry);	/* s->eh is stale from here on */
	if (json)
		fputs("{\"threads\":[", out);
	for (i = 0; i < s->ne && !rc; i = j) {
		const struct reg_entry *x = &s->e[i];
		const char *name = reg_thread_name(s, x->trace, x->tid);

		if (json) {
			fprintf(out, "%s{\"trace\":%u,\"tid\":%" PRIu32 ",\"thread\":", i ? "," : "", x->trace, x->tid);
			reg_json_str(out, name);
			fputs(",\"regions\":[", out);
		} else {
			if (ntraces > 1)
				fprintf(out, "regions of thread %s (tid %" PRIu32 ", trace %u):\n", name, x->tid, x->trace);
			else
				fprintf(out, "regions of thread %s (tid %" PRIu32 "):\n", name, x->tid);
			reg_print_header(out);
		}
		for (j = i, first = 1; j < s->ne && s->e[j].trace == x->trace && s->e[j].tid == x->tid; j++) {
			struct reg_entry *one = &s->e[j];

			rc = reg_row(&row, &one, 1);
			if (rc)
				break;
			reg_print_row(out, &row, json, first);
			first = 0;
		}
		fputs(json ? "]}" : "\n", out);
	}
	if (rc)
		return rc;
	by_label = malloc((s->ne ? s->ne : 1) * sizeof(*by_label));
	if (!by_label)
		return -ENOMEM;
	for (i = 0; i < s->ne; i++)
		by_label[i] = &s->e[i];
	qsort(by_label, s->ne, sizeof(*by_label), reg_cmp_label);
	if (json)
		fputs("],\"overall\":[", out);
	else
		fprintf(out, "regions of all threads:\n");
	if (!json)
		reg_print_header(out);
	for (i = 0, first = 1; i < s->ne && !rc; i = j) {
		for (j = i + 1; j < s->ne && !reg_cmp_label(&by_label[i], &by_label[j]); j++)
			;
		rc = reg_row(&row, by_label + i, j - i);
		if (!rc)
			reg_print_row(out, &row, json, first);
		first = 0;
	}
	fputs(json ? "]}\n" : "", out);
	free(by_label);
	return rc;
}

/* Reads the events of r into s (s->fn set: each completed region to it; else the tables). */
static int reg_read(struct reg_state *s, struct ltt_reader *r)
{
	struct t2_model *m;
	struct ltt_event ev;
	struct t2_event e;
	int rc;

	rc = t2_model_new(&m);
	if (rc)
		return rc;
	while ((rc = ltt_reader_next(r, &ev)) == 1) {
		rc = t2_model_event(m, &ev, &e);
		if (rc < 0)
			break;
		if (rc == 1 && (e.kind == T2_REGION_ENTER || e.kind == T2_REGION_LEAVE)) {
			rc = reg_event(s, &e);
			if (rc < 0)
				break;
		}
	}
	t2_model_free(m);
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
		free(s->t[i].child);
		free(s->t[i].ids);
	}
	free(s->t);
	free(s->eh);
	free(s->th);
}

int regions_report(struct ltt_reader *r, FILE *out, int json)
{
	struct reg_state s = { 0 };
	int rc = reg_read(&s, r);

	if (rc == 0)
		rc = reg_print(&s, out, json, ltt_reader_ntraces(r));
	reg_free(&s);
	return rc;
}

int regions_scan(struct ltt_reader *r, int (*fn)(void *arg, const struct region_row *row), void *arg)
{
	struct reg_state s = { .fn = fn, .arg = arg };
	int rc = reg_read(&s, r);

	reg_free(&s);
	return rc;
}
