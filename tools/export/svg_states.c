/* SPDX-License-Identifier: MIT */
/* The SVG exporter's thread-state lanes (svg_states.h): the scheduling model's finished intervals of
 * each thread, spread over pixel columns by time; at the end, each column shows the state that held
 * the thread longest in it, runs of equal columns as one bar. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/reader_common.h"
#include "toolkit/sched_decode.h"
#include "toolkit/sched_model.h"
#include "svg_states.h"

#define SVG_STATE_RECTS 8000	/* state bars in the whole picture: columns are grouped beyond */


struct st_lane {
	unsigned trace;
	uint32_t tid;
	uint64_t ns[SCHED_NSTATES];	/* exact totals */
	uint64_t n[SCHED_NSTATES];	/* intervals */
	float *col;			/* [state * pw + column]: ns in the column */
};

struct svg_states {
	struct sched_model *m;
	struct sched_decoder *d;
	uint64_t t0;
	double px_ns;
	unsigned pw;
	struct st_lane lanes[SVG_STATE_LANES];
	unsigned nlanes;
	uint64_t hidden;		/* threads with states beyond SVG_STATE_LANES */
	unsigned group;			/* columns per bar group (set by svg_states_height) */
};


/* A finished interval: its lane's totals and columns. */
static int on_interval(void *arg, const struct sched_interval *iv)
{
	struct svg_states *s = arg;
	struct sched_thread *t = sched_model_thread(s->m, iv->trace, iv->tid);
	struct st_lane *l;
	double b, e;
	unsigned cb, ce;

	if (!t)
		return 0;
	if (!t->user) {	/* the thread's lane: index + 1, or -1 when there is no room */
		if (s->nlanes >= SVG_STATE_LANES) {
			t->user = -1;
			s->hidden++;
			return 0;
		}
		l = &s->lanes[s->nlanes];
		l->col = calloc((size_t)SCHED_NSTATES * s->pw, sizeof(*l->col));
		if (!l->col)
			return -ENOMEM;
		l->trace = iv->trace;
		l->tid = iv->tid;
		t->user = (int)++s->nlanes;
	}
	if (t->user < 0)
		return 0;
	l = &s->lanes[t->user - 1];
	l->ns[iv->state] += iv->end_ns - iv->start_ns;
	l->n[iv->state]++;
	b = iv->start_ns > s->t0 ? (double)(iv->start_ns - s->t0) / s->px_ns : 0;
	e = iv->end_ns > s->t0 ? (double)(iv->end_ns - s->t0) / s->px_ns : 0;
	cb = b >= s->pw ? s->pw - 1 : (unsigned)b;
	ce = e >= s->pw ? s->pw - 1 : (unsigned)e;
	for (unsigned c = cb; c <= ce; c++) {
		double lo = c, hi = c + 1.0, from = b > lo ? b : lo, to = e < hi ? e : hi;

		if (to > from)
			l->col[iv->state * s->pw + c] += (float)((to - from) * s->px_ns);
	}
	return 0;
}

int svg_states_new(struct svg_states **out, uint64_t t0, double px_ns, unsigned pw)
{
	struct svg_states *s = calloc(1, sizeof(*s));
	struct sched_hooks hooks = { .interval = on_interval };

	if (!s)
		return -ENOMEM;
	*out = s;
	s->t0 = t0;
	s->px_ns = px_ns > 0 ? px_ns : 1;
	s->pw = pw ? pw : 1;
	s->group = 1;
	hooks.arg = s;
	if (sched_model_new(&s->m, &hooks, 0) || sched_decoder_new(&s->d))
		return -ENOMEM;
	return 0;
}

int svg_states_history(struct svg_states *s, struct ltt_reader *r)
{
	return sched_read_history(r, s->m);
}

void svg_states_free(struct svg_states *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->nlanes; i++)
		free(s->lanes[i].col);
	sched_model_free(s->m);
	sched_decoder_free(s->d);
	free(s);
}

int svg_states_event(struct svg_states *s, const struct ltt_event *ev)
{
	struct sched_ev k;
	int rc = sched_decode(s->d, ev, &k);

	if (rc == 1)
		rc = sched_model_feed(s->m, &k);
	return rc < 0 ? rc : rc ? -EIO : 0;
}

int svg_states_finish(struct svg_states *s, uint64_t end_ns)
{
	return sched_model_finish(s->m, end_ns);
}

unsigned svg_states_lanes(const struct svg_states *s)
{
	return s->nlanes;
}

/* The categories a lane draws (issue 35: a thread on a CPU a third of the time is drawn so, not as
 * the state that held it longest): each column shows the share of its time each one held, stacked. */
enum { CAT_ON, CAT_IRQ, CAT_RUNNABLE, CAT_SLEEPING, CAT_BLOCKED, CAT_OTHER, CAT_NOTREC, NCAT };
static const char *const cat_name[NCAT] = {
	"on CPU", "interrupt", "runnable", "sleeping", "blocked", "other", "not recorded",
};
static const char *const cat_fill[NCAT] = {
	"#2b8a3e", "#9c36b5", "#339af0", "#ced4da", "#f76707", "#495057", "#fff3bf",
};

static int cat_of(int st)
{
	switch (st) {
	case SCHED_ST_USER: case SCHED_ST_SYSCALL: case SCHED_ST_TRAP: return CAT_ON;
	case SCHED_ST_IRQ: case SCHED_ST_SOFTIRQ: return CAT_IRQ;
	case SCHED_ST_RUNNABLE: return CAT_RUNNABLE;
	case SCHED_ST_SLEEPING: return CAT_SLEEPING;
	case SCHED_ST_BLOCKED: return CAT_BLOCKED;
	case SCHED_ST_NOTREC: return CAT_NOTREC;
	default: return CAT_OTHER;
	}
}

#define BAR_H (SVG_STATE_H - 3)

/* The pixel heights of the categories in columns [c, c + g): each its share of the columns' time
 * (rounded, at least 1 pixel for any time); 0 when the lane has no state there. */
static unsigned profile(const struct svg_states *s, const struct st_lane *l, unsigned c, unsigned g, unsigned h[NCAT])
{
	double cat[NCAT] = { 0 }, span = 0;
	unsigned any = 0;

	for (unsigned i = c; i < c + g && i < s->pw; i++)
		span += s->px_ns;
	for (int k = 0; k < SCHED_NSTATES; k++)
		for (unsigned i = c; i < c + g && i < s->pw; i++)
			cat[cat_of(k)] += l->col[k * s->pw + i];
	for (int k = 0; k < NCAT; k++) {
		double f = span > 0 ? cat[k] / span : 0;

		h[k] = cat[k] > 0 ? (unsigned)(f * BAR_H + 0.5) : 0;
		if (cat[k] > 0 && !h[k])
			h[k] = 1;
		if (h[k] > BAR_H)
			h[k] = BAR_H;
		any |= h[k];
	}
	return any;
}

/* The lane's bars at columns grouped by g (runs of equal profiles are one bar per category, stacked
 * from the bottom in category order): their count, written when o is not NULL. */
static unsigned bars(const struct svg_states *s, const struct st_lane *l, unsigned g, struct dump_out *o, int x0,
		     int y)
{
	unsigned n = 0, c = 0;

	while (c < s->pw) {
		unsigned h[NCAT], h2[NCAT], start = c, any = profile(s, l, c, g, h), used = 0;

		c += g;
		while (any && c < s->pw && profile(s, l, c, g, h2) && !memcmp(h, h2, sizeof(h)))
			c += g;
		if (!any)
			continue;
		for (int k = 0; k < NCAT; k++) {
			if (!h[k] || used >= BAR_H)
				continue;
			if (h[k] > BAR_H - used)
				h[k] = BAR_H - used;
			n++;
			if (o)
				dump_out_printf(o, "<rect x=\"%u\" y=\"%d\" width=\"%u\" height=\"%u\" fill=\"%s\"/>\n", x0 + start,
				     y + (int)(BAR_H - used - h[k]), (c > s->pw ? s->pw : c) - start, h[k], cat_fill[k]);
			used += h[k];
		}
	}
	return n;
}

unsigned svg_states_height(const struct svg_states *s)
{
	struct svg_states *w = (struct svg_states *)s;

	if (!s->nlanes)
		return 0;
	/* the smallest grouping of columns that keeps the bars within the budget */
	for (w->group = 1; w->group < s->pw; w->group *= 2) {
		unsigned n = 0;

		for (unsigned i = 0; i < s->nlanes; i++)
			n += bars(s, &s->lanes[i], w->group, NULL, 0, 0);
		if (n <= SVG_STATE_RECTS)
			break;
	}
	return SVG_STATE_HEAD + s->nlanes * SVG_STATE_H + 8;
}

void svg_states_draw(struct svg_states *s, struct dump_out *o, int x0, int y)
{
	int x = 4;

	if (!s->nlanes)
		return;
	dump_out_printf(o, "<text x=\"4\" y=\"%d\" font-weight=\"bold\">thread states (kernel events)", y + 12);
	if (s->hidden)
		dump_out_printf(o, " (%" PRIu64 " more threads, not drawn)", s->hidden);
	dump_out_str(o, "</text>\n");
	for (int k = 0; k < NCAT; k++) {	/* the legend */
		const char *name = cat_name[k];

		dump_out_printf(o, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>"
		     "<text x=\"%d\" y=\"%d\" font-size=\"10\">%s</text>\n", x, y + 18, cat_fill[k], x + 13, y + 27, name);
		x += 13 + 7 * (int)strlen(name) + 12;
	}
	for (unsigned i = 0; i < s->nlanes; i++) {
		const struct st_lane *l = &s->lanes[i];
		struct sched_thread *t = sched_model_thread(s->m, l->trace, l->tid);
		int ly = y + SVG_STATE_HEAD + (int)i * SVG_STATE_H;
		char name[SCHED_COMM_MAX + 32], d[32];

		/* its name, else its process's (a thread named by nothing in the trace), else its process id */
		struct sched_thread *pt = t && t->pid != SCHED_TID_NONE ? sched_model_thread(s->m, l->trace, t->pid) : NULL;

		if (t && t->comm[0])
			snprintf(name, sizeof(name), "%s (%" PRIu32 ")", t->comm, l->tid);
		else if (pt && pt->comm[0])
			snprintf(name, sizeof(name), "%s (%" PRIu32 ")", pt->comm, l->tid);
		else if (t && t->pid != SCHED_TID_NONE)
			snprintf(name, sizeof(name), "thread of %" PRIu32 " (%" PRIu32 ")", t->pid, l->tid);
		else
			snprintf(name, sizeof(name), "thread %" PRIu32, l->tid);
		dump_out_printf(o, "<g class=\"states\" data-trace=\"%u\" data-tid=\"%" PRIu32 "\"", l->trace, l->tid);
		for (int k = 0; k < SCHED_NSTATES; k++)
			if (l->n[k])
				dump_out_printf(o, " data-%s-ns=\"%" PRIu64 "\" data-%s-n=\"%" PRIu64 "\"",
				     sched_state_name((enum sched_state)k), l->ns[k], sched_state_name((enum sched_state)k),
				     l->n[k]);
		dump_out_str(o, "><title>");
		dump_out_xml_text(o, name, strlen(name));
		dump_out_char(o, ':');
		for (int k = 0; k < SCHED_NSTATES; k++)
			if (l->n[k])
				dump_out_printf(o, " %s %s (%" PRIu64 ")", sched_state_name((enum sched_state)k),
				     reader_format_duration(d, sizeof(d), l->ns[k]), l->n[k]);
		dump_out_str(o, "</title>\n");
		dump_out_printf(o, "<text x=\"4\" y=\"%d\" font-size=\"10\">", ly + 10);
		dump_out_xml_text(o, name, strlen(name));
		dump_out_str(o, " states</text>\n");
		bars(s, l, s->group, o, x0, ly);
		dump_out_str(o, "</g>\n");
	}
}
