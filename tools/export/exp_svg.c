/* SPDX-License-Identifier: MIT */
/* ltt export --format=svg: a static timeline picture, self-contained, for any browser (doc/viewing.md).
 * One lane per thread (per tracefile for events without a thread), in the order first seen: the event
 * density along time (a bar per pixel column, log scale), the app regions as bars by nesting level
 * (coverage per pixel, merged into runs) labelled with the longest regions where the label fits, a
 * strip of lost-event marks, a time axis with real units; with kernel events, a lane of states per
 * thread below (svg_states.h: running by mode, runnable, sleeping, blocked). Everything is aggregated per pixel column
 * while the events stream, then written at the end: memory and size are bounded whatever the trace
 * (SVG_MAX_LANES lanes drawn, SVG_RECT_BUDGET region bars, about 1 MB at most). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "toolkit/export.h"
#include "svg_states.h"
#include "timeline.h"

#define SVG_PW 1000		/* plot width, pixels */
#define SVG_LABEL_W 190		/* lane names, left of the plot */
#define SVG_MAX_LANES 48	/* lanes drawn; events of later lanes are counted in the title only */
#define SVG_LEVELS 4		/* region nesting levels drawn */
#define SVG_STACK 64		/* nesting levels followed per lane */
#define SVG_TOP 8		/* labelled regions per lane and level */
#define SVG_LABEL_MAX 40
#define SVG_RECT_BUDGET 12000	/* region bars in the whole picture */
#define SVG_DENS_H 12		/* lane layout, pixels */
#define SVG_LEVEL_H 11
#define SVG_LANE_H (SVG_DENS_H + SVG_LEVELS * SVG_LEVEL_H + 8)
#define SVG_TOP_Y 70		/* first lane */

struct svg_top {
	uint64_t b, e;
	char label[SVG_LABEL_MAX + 1];
};

struct svg_lane {
	uint32_t count[SVG_PW];			/* events per pixel column */
	float cov[SVG_LEVELS][SVG_PW];		/* ns of regions per level and column */
	uint64_t open_b[SVG_STACK];		/* begin of each open region */
	char open_label[SVG_LEVELS][SVG_LABEL_MAX + 1];
	uint32_t depth;
	struct svg_top top[SVG_LEVELS][SVG_TOP];
	unsigned ntop[SVG_LEVELS];
};

struct svg {
	struct timeline *tl;
	struct svg_states *st;		/* the thread-state lanes */
	struct svg_lane *lanes[SVG_MAX_LANES];
	uint64_t lost[SVG_PW];
	uint64_t t0, t1;		/* the time range drawn */
	double px_ns;			/* ns per pixel column */
	uint64_t events, lost_total, hidden_events;
	uint64_t last_ns;
};

static unsigned col(const struct svg *s, uint64_t t)
{
	double x;

	if (t <= s->t0)
		return 0;
	x = (double)(t - s->t0) / s->px_ns;
	return x >= SVG_PW - 1 ? SVG_PW - 1 : (unsigned)x;
}

static int svg_begin(struct ltt_export_ctx *ctx)
{
	struct svg *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	ctx->priv = s;
	if (timeline_new(&s->tl, ctx->reader))
		return -ENOMEM;
	s->t0 = ctx->first_ns;
	s->t1 = ctx->last_ns > ctx->first_ns ? ctx->last_ns : ctx->first_ns + 1;
	s->px_ns = (double)(s->t1 - s->t0) / SVG_PW;
	if (svg_states_new(&s->st, s->t0, s->px_ns, SVG_PW))
		return -ENOMEM;
	return svg_states_history(s->st, ctx->reader);
}

/* Adds a region [b, e] at level lv to the coverage of lane l, and to its longest regions. */
static void add_region(struct svg *s, struct svg_lane *l, unsigned lv, uint64_t b, uint64_t e, const char *label)
{
	unsigned cb = col(s, b), ce = col(s, e), k, min = 0;

	for (unsigned c = cb; c <= ce; c++) {
		double lo = s->t0 + c * s->px_ns, hi = lo + s->px_ns;
		double from = (double)b > lo ? (double)b : lo, to = (double)e < hi ? (double)e : hi;

		if (to > from)
			l->cov[lv][c] += (float)(to - from);
		else if (cb == ce)
			l->cov[lv][c] += 1;	/* a region of no width still shows */
	}
	if (l->ntop[lv] < SVG_TOP) {
		k = l->ntop[lv]++;
	} else {
		for (k = 1; k < SVG_TOP; k++)
			if (l->top[lv][k].e - l->top[lv][k].b < l->top[lv][min].e - l->top[lv][min].b)
				min = k;
		if (e - b <= l->top[lv][min].e - l->top[lv][min].b)
			return;
		k = min;
	}
	l->top[lv][k].b = b;
	l->top[lv][k].e = e;
	snprintf(l->top[lv][k].label, sizeof(l->top[lv][k].label), "%s", label);
}

static int svg_event(struct ltt_export_ctx *ctx, const struct ltt_event *ev)
{
	struct svg *s = ctx->priv;
	struct svg_lane *l;
	struct tl_event e;
	unsigned c;
	int ret = timeline_event(s->tl, ev, &e);

	if (ret < 0 || (ret = svg_states_event(s->st, ev)) < 0)
		return ret;
	if (ev->time_ns > s->last_ns)
		s->last_ns = ev->time_ns;
	c = col(s, ev->time_ns);
	if (e.kind == TL_LOST) {
		s->lost[c] += e.count;
		s->lost_total += e.count;
		return 0;
	}
	s->events++;
	if (e.lane->index >= SVG_MAX_LANES) {
		s->hidden_events++;
		return 0;
	}
	l = s->lanes[e.lane->index];
	if (!l) {
		l = s->lanes[e.lane->index] = calloc(1, sizeof(*l));
		if (!l)
			return -ENOMEM;
	}
	if (l->count[c] < UINT32_MAX)
		l->count[c]++;
	if (e.kind == TL_BEGIN) {
		if (l->depth < SVG_STACK) {
			l->open_b[l->depth] = ev->time_ns;
			if (l->depth < SVG_LEVELS)
				snprintf(l->open_label[l->depth], SVG_LABEL_MAX + 1, "%s", e.name);
		}
		l->depth++;
	} else if (e.kind == TL_END && l->depth) {
		l->depth--;
		if (l->depth < SVG_LEVELS)
			add_region(s, l, l->depth, l->open_b[l->depth], ev->time_ns, l->open_label[l->depth]);
	} else if (e.kind == TL_SLICE && l->depth < SVG_LEVELS) {
		add_region(s, l, l->depth, e.slice_start_ns, ev->time_ns, e.name);
	} else if (e.kind == TL_CHILD && l->depth < SVG_LEVELS) {
		char name[32];

		snprintf(name, sizeof(name), "child %d", e.child_id);
		add_region(s, l, l->depth, e.child_start_ns, ev->time_ns, name);
	}
	return 0;
}


/* A duration in its unit: "1.5 ms", "2 min". */
static void fmt_duration(char *buf, size_t len, double ns)
{
	static const struct { double f; const char *u; } units[] = {
		{ 3600e9, "h" }, { 60e9, "min" }, { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t i = 0;

	while (i + 1 < sizeof(units) / sizeof(units[0]) && fabs(ns) < units[i].f)
		i++;
	snprintf(buf, len, "%.4g %s", ns / units[i].f, units[i].u);
}

/* Ticks every 1, 2 or 5 x 10^k ns, or whole minutes and hours, about ten over the plot. */
static double tick_step(double span)
{
	static const double hm[] = { 60e9, 120e9, 300e9, 600e9, 900e9, 1800e9, 3600e9, 7200e9, 0 };
	double raw = span / 10, p = 1;

	if (raw >= 60e9) {
		for (size_t i = 0; hm[i]; i++)
			if (hm[i] >= raw)
				return hm[i];
		return ceil(raw / 3600e9) * 3600e9;
	}
	while (p * 10 <= raw)
		p *= 10;
	return raw <= p ? p : raw <= 2 * p ? 2 * p : raw <= 5 * p ? 5 * p : 10 * p;
}

static const char *const level_fill[SVG_LEVELS] = { "#3b6fb6", "#5b8fd6", "#7fb0e8", "#a8cdf4" };

/* The region bars of a level: runs of covered columns (gaps up to `gap` columns joined). */
static unsigned draw_level(struct dump_out *o, const struct svg_lane *l, unsigned lv, unsigned gap, int y,
			   int write)
{
	unsigned n = 0, c = 0;

	while (c < SVG_PW) {
		unsigned start, end, hole;

		while (c < SVG_PW && l->cov[lv][c] <= 0)
			c++;
		if (c >= SVG_PW)
			break;
		start = end = c;
		for (hole = 0; c < SVG_PW && hole <= gap; c++) {
			if (l->cov[lv][c] > 0) {
				end = c;
				hole = 0;
			} else {
				hole++;
			}
		}
		c = end + 1;
		n++;
		if (write)
			dump_out_printf(o, "<rect x=\"%u\" y=\"%d\" width=\"%u\" height=\"%d\" fill=\"%s\"/>\n",
			     SVG_LABEL_W + start, y, end - start + 1, SVG_LEVEL_H - 1, level_fill[lv]);
	}
	return n;
}

static void draw_lane(struct svg *s, struct dump_out *o, const struct tl_lane *tl, const struct svg_lane *l, int y,
		      unsigned gap)
{
	uint32_t max = 1;
	char name[TL_NAME_MAX + 32];

	if (tl->is_thread)
		snprintf(name, sizeof(name), "%s (%u)", tl->name, tl->tid);
	else
		snprintf(name, sizeof(name), "%s", tl->name);
	dump_out_printf(o, "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", y - 3, SVG_LABEL_W + SVG_PW, y - 3);
	dump_out_printf(o, "<text x=\"4\" y=\"%d\"%s>", y + 10, tl->is_thread ? "" : " fill=\"#666\"");
	dump_out_xml_text(o, name, strlen(name));
	dump_out_str(o, "</text>\n");
	if (tl->proc && s->tl && timeline_nprocs(s->tl) > 1) {
		dump_out_printf(o, "<text x=\"4\" y=\"%d\" font-size=\"9\" fill=\"#888\">", y + 21);
		dump_out_xml_text(o, tl->proc->name, strlen(tl->proc->name));
		dump_out_printf(o, " [%u]</text>\n", tl->proc->pid);
	}
	/* density: one path, a column per pixel, height by log of the count */
	for (unsigned c = 0; c < SVG_PW; c++)
		if (l->count[c] > max)
			max = l->count[c];
	dump_out_printf(o, "<path fill=\"#777\" d=\"M%d %d", SVG_LABEL_W, y + SVG_DENS_H);
	for (unsigned c = 0; c < SVG_PW; c++) {
		int h = l->count[c] ? 1 + (int)((SVG_DENS_H - 1) * log1p(l->count[c]) / log1p(max)) : 0;

		dump_out_printf(o, "V%dh1", y + SVG_DENS_H - h);
	}
	dump_out_printf(o, "V%dZ\"/>\n", y + SVG_DENS_H);
	for (unsigned lv = 0; lv < SVG_LEVELS; lv++) {
		int ly = y + SVG_DENS_H + 2 + (int)lv * SVG_LEVEL_H;

		draw_level(o, l, lv, gap, ly, 1);
		for (unsigned k = 0; k < l->ntop[lv]; k++) {
			const struct svg_top *t = &l->top[lv][k];
			unsigned cb = col(s, t->b), ce = col(s, t->e);
			size_t chars = strlen(t->label);

			if ((ce - cb + 1) < chars * 6 + 4 || !chars)
				continue;	/* the label does not fit */
			dump_out_printf(o, "<text x=\"%u\" y=\"%d\" font-size=\"9\" fill=\"white\">", SVG_LABEL_W + cb + 2,
			     ly + SVG_LEVEL_H - 3);
			dump_out_xml_text(o, t->label, strlen(t->label));
			dump_out_str(o, "</text>\n");
		}
	}
}

static int svg_end(struct ltt_export_ctx *ctx, int failed)
{
	struct svg *s = ctx->priv;
	struct dump_out *o = ctx->out;
	unsigned nl, gap = 0, W = SVG_LABEL_W + SVG_PW + 10, H;
	int err = 0;
	double span, step;
	char buf[64], when[64];
	const char *path;
	time_t sec;
	struct tm tm;

	if (!s)
		return 0;
	if (failed)
		goto out;
	nl = timeline_nlanes(s->tl) < SVG_MAX_LANES ? timeline_nlanes(s->tl) : SVG_MAX_LANES;
	/* regions open at the end end there */
	for (unsigned i = 0; i < nl; i++) {
		struct svg_lane *l = s->lanes[i];

		for (; l && l->depth; ) {
			l->depth--;
			if (l->depth < SVG_LEVELS && l->depth < SVG_STACK)
				add_region(s, l, l->depth, l->open_b[l->depth], s->last_ns, l->open_label[l->depth]);
		}
	}
	/* the smallest joining of gaps that keeps the bars within the budget */
	for (;; gap = gap ? gap * 2 : 1) {
		unsigned n = 0;

		for (unsigned i = 0; i < nl; i++)
			for (unsigned lv = 0; s->lanes[i] && lv < SVG_LEVELS; lv++)
				n += draw_level(o, s->lanes[i], lv, gap, 0, 0);
		if (n <= SVG_RECT_BUDGET || gap >= SVG_PW)
			break;
	}
	if ((err = svg_states_finish(s->st, s->last_ns)) < 0)
		goto out;
	H = SVG_TOP_Y + nl * SVG_LANE_H + svg_states_height(s->st) + 30;
	dump_out_printf(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	     "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
	     "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"%u\" height=\"%u\" fill=\"white\"/>\n",
	     W, H, W, H, W, H);
	sec = (time_t)(s->t0 / 1000000000u);
	gmtime_r(&sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	span = (double)(s->t1 - s->t0);
	fmt_duration(buf, sizeof(buf), span);
	dump_out_str(o, "<text x=\"4\" y=\"16\" font-size=\"13\" font-weight=\"bold\">");
	path = ltt_reader_trace(ctx->reader, 0)->path;
	dump_out_xml_text(o, path, strlen(path));
	if (ctx->ntraces > 1)
		dump_out_printf(o, " and %u more traces", ctx->ntraces - 1);
	dump_out_printf(o, "</text>\n<text x=\"4\" y=\"32\">from %s.%09llu UTC, %s, %llu events", when,
	     (unsigned long long)(s->t0 % 1000000000u), buf, (unsigned long long)s->events);
	if (s->lost_total)
		dump_out_printf(o, ", <tspan fill=\"#d00\">%llu lost</tspan>", (unsigned long long)s->lost_total);
	if (timeline_nlanes(s->tl) > nl)
		dump_out_printf(o, " (%u more lanes, %llu events, not drawn)", timeline_nlanes(s->tl) - nl,
		     (unsigned long long)s->hidden_events);
	dump_out_str(o, "</text>\n");
	/* time axis and grid */
	step = tick_step(span);
	for (double t = 0; t <= span + 1e-9 * span; t += step) {
		int x = SVG_LABEL_W + (int)(t / s->px_ns);

		fmt_duration(buf, sizeof(buf), t);
		dump_out_printf(o, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%u\" stroke=\"#eee\"/>\n"
		     "<text x=\"%d\" y=\"%d\" font-size=\"9\" text-anchor=\"middle\">+%s</text>\n",
		     x, SVG_TOP_Y - 18, x, H - 24, x, SVG_TOP_Y - 22, buf);
	}
	/* lost-event marks */
	dump_out_printf(o, "<text x=\"4\" y=\"%d\" fill=\"#d00\">lost events</text>\n", SVG_TOP_Y - 8);
	for (unsigned c = 0; c < SVG_PW; c++)
		if (s->lost[c])
			dump_out_printf(o, "<rect x=\"%u\" y=\"%d\" width=\"2\" height=\"8\" fill=\"#d00\"><title>%llu lost</title></rect>\n",
			     SVG_LABEL_W + c, SVG_TOP_Y - 16, (unsigned long long)s->lost[c]);
	/* threads first, then the tracefile lanes, each in the order first seen */
	for (int pass = 0, row = 0; pass < 2; pass++)
		for (unsigned i = 0; i < nl; i++) {
			const struct tl_lane *tl = timeline_lane(s->tl, i);

			if ((int)tl->is_thread != !pass)
				continue;
			if (s->lanes[i])
				draw_lane(s, o, tl, s->lanes[i], SVG_TOP_Y + row * SVG_LANE_H, gap);
			row++;
		}
	svg_states_draw(s->st, o, SVG_LABEL_W, SVG_TOP_Y + (int)nl * SVG_LANE_H);
	dump_out_str(o, "</svg>\n");
out:
	for (unsigned i = 0; i < SVG_MAX_LANES; i++)
		free(s->lanes[i]);
	timeline_free(s->tl);
	svg_states_free(s->st);
	free(s);
	return failed ? 0 : err ? err : o->error;
}

const struct ltt_exporter ltt_exp_svg = {
	.name = "svg",
	.summary = "a static timeline picture (SVG) for any browser",
	.suffix = ".svg",
	.lost = 1,
	.begin = svg_begin,
	.event = svg_event,
	.end = svg_end,
};
