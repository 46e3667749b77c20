// SPDX-License-Identifier: MIT
/* The HTML export's bounded store of lanes, intervals, points, strings and per-lane summaries
 * (html_model.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "toolkit/sched_model.h"
#include "html_model.h"

/* A budget from the environment (at least 16), else dflt. */
static size_t budget(const char *var, size_t dflt)
{
	const char *e = getenv(var);
	char *end;
	unsigned long long v = e && *e ? strtoull(e, &end, 10) : 0;

	return e && *e && !*end && v >= 16 ? (size_t)v : dflt;
}

int hm_init(struct hm *m, uint64_t span_ns)
{
	memset(m, 0, sizeof(*m));
	m->max_spans = budget("LTT_HTML_MAX_SPANS", HM_MAX_SPANS);
	m->max_points = budget("LTT_HTML_MAX_POINTS", HM_MAX_POINTS);
	m->span_ns = span_ns ? span_ns : 1;
	m->col_ns = (double)m->span_ns / HM_BUCKETS;
	if (m->col_ns < 1)
		m->col_ns = 1;
	/* strings 0 and 1: "" and the name given when the table is full */
	if (hm_intern(m, "", 0, 0) != 0 || hm_intern(m, "(name not kept)", 15, 0) != 1)
		return -ENOMEM;
	return 0;
}

void hm_free(struct hm *m)
{
	for (size_t i = 0; i < m->nlanes; i++) {
		for (unsigned k = 0; m->lanes[i].open && k < HM_STACK; k++)
			free(m->lanes[i].open[k].fields);
		free(m->lanes[i].open);
		free(m->lanes[i].sum.count);
		free(m->lanes[i].sum.st);
		free(m->lanes[i].sum.cov);
		free(m->lanes[i].sum.dropped);
	}
	free(m->lanes);
	free(m->procs);
	hm_lanemap_free(&m->lanemap);
	free(m->spans);
	free(m->points);
	free(m->strbuf);
	free(m->strs);
	hm_strmap_free(&m->strmap);
	memset(m, 0, sizeof(*m));
}

uint32_t hm_intern(struct hm *m, const char *s, size_t n, int droppable)
{
	uint64_t h;
	uint32_t *v;
	int added;

	if (droppable && m->strlen_ + n + 1 > HM_STR_BYTES)
		return 0;	/* full: not looked up either (fields only) */
	h = ltt_hash_bytes(0, s, n);
	for (;; h++) {
		v = hm_strmap_find(&m->strmap, h);
		if (!v)
			break;
		if (m->strs[*v].len == n && !memcmp(m->strbuf + m->strs[*v].off, s, n))
			return *v;
	}
	if (m->strlen_ + n + 1 > HM_STR_BYTES && m->nstrs >= 2)
		return droppable ? 0 : 1;
	if (LTT_GROW(m->strbuf, m->strlen_ + n + 1, m->strcap) || LTT_GROW(m->strs, m->nstrs + 1, m->capstrs))
		return droppable ? 0 : 1;
	v = hm_strmap_put(&m->strmap, h, &added);
	if (!v)
		return droppable ? 0 : 1;
	memcpy(m->strbuf + m->strlen_, s, n);
	m->strbuf[m->strlen_ + n] = 0;
	m->strs[m->nstrs] = (struct hm_str){ (uint32_t)m->strlen_, (uint32_t)n };
	m->strlen_ += n + 1;
	*v = (uint32_t)m->nstrs;
	return (uint32_t)m->nstrs++;
}

const char *hm_string(const struct hm *m, uint32_t i, size_t *len)
{
	if (i >= m->nstrs)
		i = 0;
	if (len)
		*len = m->strs[i].len;
	return m->strbuf + m->strs[i].off;
}

long hm_lane(struct hm *m, enum hm_lane_kind kind, unsigned trace, uint32_t id, int *created)
{
	uint64_t k = (uint64_t)kind << 56 | (uint64_t)(trace & 0xffffff) << 32 | id;
	uint32_t *v = hm_lanemap_find(&m->lanemap, k);
	struct hm_lane *l;

	*created = 0;
	if (v)
		return *v;
	if (m->nlanes >= HM_MAX_LANES || LTT_GROW(m->lanes, m->nlanes + 1, m->caplanes))
		return -ENOMEM;
	v = hm_lanemap_put(&m->lanemap, k, NULL);
	if (!v)
		return -ENOMEM;
	*v = (uint32_t)m->nlanes;
	l = &m->lanes[m->nlanes];
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	l->trace = trace;
	l->tid = id;
	l->pid = id;
	*created = 1;
	return (long)m->nlanes++;
}

unsigned hm_cat(unsigned st)
{
	switch (st) {
	case SCHED_ST_USER: case SCHED_ST_SYSCALL: case SCHED_ST_TRAP: return 0;
	case SCHED_ST_IRQ: case SCHED_ST_SOFTIRQ: return 1;
	case SCHED_ST_RUNNABLE: return 2;
	case SCHED_ST_SLEEPING: return 3;
	case SCHED_ST_BLOCKED: return 4;
	case SCHED_ST_NOTREC: return 6;
	default: return 5;
	}
}

static unsigned col_of(const struct hm *m, uint64_t t)
{
	double c = (double)t / m->col_ns;

	return c >= HM_BUCKETS - 1 ? HM_BUCKETS - 1 : (unsigned)c;
}

/* Adds [b, e) to row[c] over the columns it covers, as ns. */
static void spread(const struct hm *m, float *row, uint64_t b, uint64_t e)
{
	unsigned cb = col_of(m, b), ce = col_of(m, e);

	if (cb == ce) {
		row[cb] += (float)(e - b);
		return;
	}
	for (unsigned c = cb; c <= ce; c++) {
		double lo = c * m->col_ns, hi = lo + m->col_ns;
		double from = (double)b > lo ? (double)b : lo, to = (double)e < hi || c == HM_BUCKETS - 1 ? (double)e : hi;

		if (to > from)
			row[c] += (float)(to - from);
	}
}

static int summarize(struct hm *m, const struct hm_item *it)
{
	struct hm_sum *s = &m->lanes[it->lane].sum;
	uint64_t e = it->start + it->dur;

	if (it->kind == HM_STATE) {
		if (!s->st && !(s->st = calloc((size_t)HM_NCAT * HM_BUCKETS, sizeof(float))))
			return -ENOMEM;
		spread(m, s->st + (size_t)hm_cat(it->name) * HM_BUCKETS, it->start, e);
	} else if (it->kind <= HM_CHILD || it->kind == HM_ONCPU) {
		if (it->depth >= HM_DEPTHS)
			return 0;
		if (!s->cov && !(s->cov = calloc((size_t)HM_DEPTHS * HM_BUCKETS, sizeof(float))))
			return -ENOMEM;
		spread(m, s->cov + (size_t)it->depth * HM_BUCKETS, it->start, e);
	}
	return 0;
}

static int drop(struct hm *m, const struct hm_item *it)
{
	struct hm_lane *l = &m->lanes[it->lane];

	if (!l->sum.dropped && !(l->sum.dropped = calloc(HM_BUCKETS, sizeof(uint32_t))))
		return -ENOMEM;
	l->sum.dropped[col_of(m, it->start)]++;
	l->dropped++;
	if (it->kind <= HM_ONCPU) {
		m->spans_dropped++;
		if (it->dur > m->dropped_max_ns)
			m->dropped_max_ns = it->dur;
	} else {
		m->points_dropped++;
	}
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Drops the lower half (by key) of v: the new cut is the median key. */
static int cut(struct hm *m, struct hm_item *v, size_t *n, uint64_t *cutkey)
{
	size_t ns = *n < 65536 ? *n : 65536, j = 0;
	uint64_t *k = malloc(ns * sizeof(*k)), med;

	int ret = 0;

	if (!k)
		return -ENOMEM;
	/* sorting a sample of the keys gives the median closely enough */
	for (size_t i = 0; i < ns; i++)
		k[i] = v[(size_t)(ltt_hash64(i) % *n)].key;
	qsort(k, ns, sizeof(*k), cmp_u64);
	med = k[ns / 2];
	free(k);
	if (med <= *cutkey)
		med = *cutkey + 1;
	for (size_t i = 0; i < *n; i++) {
		if (v[i].key < med) {
			if (!ret)
				ret = drop(m, &v[i]);
		} else {
			v[j++] = v[i];
		}
	}
	*n = j;
	*cutkey = med;
	return ret;
}

/* The order in which intervals are dropped: by duration, a hash of start and lane breaking ties. */
static uint64_t span_key(const struct hm_item *it)
{
	uint64_t d = it->dur < (1ull << 47) ? it->dur : (1ull << 47) - 1;

	return d << 16 | (ltt_hash64(it->start ^ (uint64_t)it->lane << 40) & 0xffff);
}

int hm_span_kept(const struct hm *m, const struct hm_item *it)
{
	return span_key(it) >= m->span_cut;
}

int hm_add(struct hm *m, const struct hm_item *in)
{
	struct hm_item it = *in;
	int ret = summarize(m, &it);

	if (ret)
		return ret;
	if (it.kind <= HM_ONCPU) {
		m->spans_total++;
		it.key = span_key(&it);
		if (it.key < m->span_cut)
			return drop(m, &it);
		if (m->nspans >= m->max_spans && (ret = cut(m, m->spans, &m->nspans, &m->span_cut)))
			return ret;
		if (it.key < m->span_cut)
			return drop(m, &it);
		if (LTT_GROW(m->spans, m->nspans + 1, m->capspans))
			return -ENOMEM;
		m->spans[m->nspans++] = it;
		return 0;
	}
	m->points_total++;
	it.dur = 0;
	it.key = ltt_hash64(++m->points_seq);	/* hm_point_kept computes the same */
	if (it.key < m->point_cut)
		return drop(m, &it);
	if (m->npoints >= m->max_points && (ret = cut(m, m->points, &m->npoints, &m->point_cut)))
		return ret;
	if (it.key < m->point_cut)
		return drop(m, &it);
	if (LTT_GROW(m->points, m->npoints + 1, m->cappoints))
		return -ENOMEM;
	m->points[m->npoints++] = it;
	return 0;
}

int hm_point_kept(const struct hm *m)
{
	return ltt_hash64(m->points_seq + 1) >= m->point_cut;
}

int hm_count(struct hm *m, uint32_t lane, uint64_t t)
{
	struct hm_lane *l = &m->lanes[lane];

	if (!l->sum.count && !(l->sum.count = calloc(HM_BUCKETS, sizeof(uint32_t))))
		return -ENOMEM;
	if (l->sum.count[col_of(m, t)] < UINT32_MAX)
		l->sum.count[col_of(m, t)]++;
	l->events++;
	return 0;
}

/* ---- the end: lanes by process, items by (lane, start) ---------------------------------------------- */

static const struct hm *sort_m;

static int lane_order(const void *a, const void *b)
{
	const struct hm_lane *x = &sort_m->lanes[*(const uint32_t *)a], *y = &sort_m->lanes[*(const uint32_t *)b];
	int cx = x->kind == HM_LANE_CPU, cy = y->kind == HM_LANE_CPU;

	if (cx != cy)
		return cx - cy;		/* CPUs last */
	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int item_order(const void *a, const void *b)
{
	const struct hm_item *x = a, *y = b;

	if (x->lane != y->lane)
		return x->lane < y->lane ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->depth != y->depth)	/* outer first */
		return x->depth < y->depth ? -1 : 1;
	return x->dur > y->dur ? -1 : x->dur < y->dur;
}

int hm_finish(struct hm *m)
{
	uint32_t *order = malloc((m->nlanes + 1) * sizeof(*order)), *newidx = malloc((m->nlanes + 1) * sizeof(*newidx));
	struct hm_lane *nl = malloc((m->nlanes + 1) * sizeof(*nl));

	if (!order || !newidx || !nl) {
		free(order);
		free(newidx);
		free(nl);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < m->nlanes; i++)
		order[i] = i;
	sort_m = m;
	if (m->nlanes > 1)
		qsort(order, m->nlanes, sizeof(*order), lane_order);
	for (uint32_t i = 0; i < m->nlanes; i++) {
		newidx[order[i]] = i;
		nl[i] = m->lanes[order[i]];
	}
	if (m->nlanes)
		memcpy(m->lanes, nl, m->nlanes * sizeof(*nl));
	free(nl);
	free(order);
	m->nprocs = 0;
	for (uint32_t i = 0; i < m->nlanes; i++) {
		struct hm_lane *l = &m->lanes[i];
		struct hm_proc *p = m->nprocs ? &m->procs[m->nprocs - 1] : NULL;
		uint32_t pid = l->kind == HM_LANE_CPU ? UINT32_MAX : l->pid;

		if (!p || p->trace != l->trace || p->pid != pid) {
			if (LTT_GROW(m->procs, m->nprocs + 1, m->capprocs)) {
				free(newidx);
				return -ENOMEM;
			}
			p = &m->procs[m->nprocs++];
			memset(p, 0, sizeof(*p));
			p->trace = l->trace;
			p->pid = pid;
			p->first_lane = i;
		}
		l->proc = (uint32_t)(m->nprocs - 1);
	}
	for (size_t i = 0; i < m->nspans; i++) {
		m->spans[i].lane = newidx[m->spans[i].lane];
		if (m->spans[i].kind == HM_ONCPU)
			m->spans[i].args = newidx[m->spans[i].args];
	}
	for (size_t i = 0; i < m->npoints; i++)
		m->points[i].lane = newidx[m->points[i].lane];
	free(newidx);
	if (m->nspans > 1)
		qsort(m->spans, m->nspans, sizeof(*m->spans), item_order);
	if (m->npoints > 1)
		qsort(m->points, m->npoints, sizeof(*m->points), item_order);
	return 0;
}
