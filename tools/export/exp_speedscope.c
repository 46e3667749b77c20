/* SPDX-License-Identifier: MIT */
/* ltt export --format=speedscope: speedscope's own file format (its file-format-spec: a "shared" list
 * of frames and a list of profiles), doc/viewing.md. Per thread, up to two profiles:
 *
 *   "PROCESS: THREAD (tid N) samples"   a "sampled" profile: each decodable core.stack_sample is one
 *                                        sample, its stack root first, weighed by its ticks in
 *                                        nanoseconds of CPU time (1e9 / stack_sample_hz per tick;
 *                                        unit "none" and the ticks when the rate is unknown);
 *   "PROCESS: THREAD (tid N) regions"   an "evented" profile: the app regions as open/close frame
 *                                        events, nanoseconds since the set's first block.
 *
 * When the process lost events (events_lost, blocks_lost records: the format has no markers), its
 * profiles' names end with "(N events of the process lost)".
 *
 * Functions are symbolized as by `ltt stats --profile` (tools/profile/), a frame per function (its
 * module as the frame's file); a region's frame is its label, one frame per category and label, so
 * that every region of a label merges. activeProfileIndex is the heaviest samples profile.
 *
 * A profile's arrays are written in one piece while events of all threads arrive in merge order: each
 * array is kept as a stream, whose bytes go to one temporary file in chunks of SS_CHUNK (memory:
 * a chunk per stream and the chunk list, not the events). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "toolkit/export.h"
#include "timeline.h"
#include "toolkit/profile.h"

#define SS_CHUNK 8192

struct ss_stream {
	char *buf;			/* SS_CHUNK bytes, allocated at the first write */
	size_t len;
	long *offs;			/* chunks already in the temporary file (SS_CHUNK bytes each) */
	size_t nchunks, cap;
	uint64_t items;			/* elements written (a comma before all but the first) */
};

struct ss_lane {
	struct ss_stream events, samples, weights;
	uint32_t *stk;			/* frames of the regions open */
	uint32_t depth, cap;
	uint64_t weight;		/* of the samples */
	uint64_t ns_per_tick;		/* 0: unit "none" (ticks); set at the first sample */
	unsigned unit_set;
};

struct ss_frame {
	char *name;
	const char *file;		/* a function's module (owned by the model), NULL */
};

struct ss {
	struct timeline *tl;
	FILE *spill;
	int error;
	struct prof_model *models;	/* per trace, for the stack samples */
	unsigned nmodels;
	struct ss_frame *frames;
	size_t nframes, cap_frames;
	char **region_keys;		/* "category\037label" of frame region_frames[i] */
	uint32_t *region_frames;
	size_t nregions, cap_regions;
	uint64_t last_ns;
};

static void st_write(struct ss *s, struct ss_stream *st, const char *p, size_t n)
{
	while (n && !s->error) {
		size_t k;

		if (!st->buf && !(st->buf = malloc(SS_CHUNK))) {
			s->error = -ENOMEM;
			return;
		}
		if (st->len == SS_CHUNK) {
			long at;

			if (LTT_GROW(st->offs, st->nchunks + 1, st->cap)) {
				s->error = -ENOMEM;
				return;
			}
			if (fseek(s->spill, 0, SEEK_END) || (at = ftell(s->spill)) < 0 ||
			    fwrite(st->buf, 1, SS_CHUNK, s->spill) != SS_CHUNK) {
				s->error = -EIO;
				return;
			}
			st->offs[st->nchunks++] = at;
			st->len = 0;
		}
		k = SS_CHUNK - st->len < n ? SS_CHUNK - st->len : n;
		memcpy(st->buf + st->len, p, k);
		st->len += k;
		p += k;
		n -= k;
	}
}

static void st_printf(struct ss *s, struct ss_stream *st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void st_printf(struct ss *s, struct ss_stream *st, const char *fmt, ...)
{
	char b[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	st_write(s, st, b, n < 0 ? 0 : (size_t)n < sizeof(b) ? (size_t)n : sizeof(b) - 1);
}

/* Copies a stream to the output. */
static void st_copy(struct ss *s, struct ltt_export_ctx *ctx, struct ss_stream *st)
{
	char b[SS_CHUNK];

	for (size_t i = 0; i < st->nchunks && !s->error; i++) {
		if (fseek(s->spill, st->offs[i], SEEK_SET) || fread(b, 1, SS_CHUNK, s->spill) != SS_CHUNK) {
			s->error = -EIO;
			return;
		}
		dump_out_mem(ctx->out, b, SS_CHUNK);
	}
	if (st->len)
		dump_out_mem(ctx->out, st->buf, st->len);
}

static void st_free(struct ss_stream *st)
{
	free(st->buf);
	free(st->offs);
}

static struct ss_lane *ss_lane(struct ss *s, struct tl_lane *l)
{
	if (!l->user[0]) {
		l->user[0] = (uintptr_t)calloc(1, sizeof(struct ss_lane));
		if (!l->user[0])
			s->error = -ENOMEM;
	}
	return (struct ss_lane *)(uintptr_t)l->user[0];
}

static long frame_new(struct ss *s, const char *name, const char *file)
{
	if (LTT_GROW(s->frames, s->nframes + 1, s->cap_frames))
		return -ENOMEM;
	s->frames[s->nframes].name = strdup(name);
	s->frames[s->nframes].file = file;
	if (!s->frames[s->nframes].name)
		return -ENOMEM;
	return (long)s->nframes++;
}

/* The frame of a region (category, label): one per pair, looked up linearly (regions have few
 * distinct labels; a program printing a new label per region pays a scan per region). */
static long region_frame(struct ss *s, const char *cat, const char *label)
{
	size_t lc = strlen(cat);
	char *key;
	long f;

	for (size_t i = 0; i < s->nregions; i++)
		if (!strncmp(s->region_keys[i], cat, lc) && s->region_keys[i][lc] == '\037' &&
		    !strcmp(s->region_keys[i] + lc + 1, label))
			return s->region_frames[i];
	if (s->nregions == s->cap_regions) {
		size_t ck = s->cap_regions, cf = s->cap_regions;	/* two arrays, one capacity */

		if (LTT_GROW(s->region_keys, s->nregions + 1, ck) || LTT_GROW(s->region_frames, s->nregions + 1, cf))
			return -ENOMEM;
		s->cap_regions = ck;
	}
	if (asprintf(&key, "%s\037%s", cat, label) < 0)
		return -ENOMEM;
	f = frame_new(s, label, NULL);
	if (f < 0) {
		free(key);
		return f;
	}
	s->region_keys[s->nregions] = key;
	s->region_frames[s->nregions++] = (uint32_t)f;
	return f;
}

static int ss_end(struct ltt_export_ctx *ctx, int failed);

static int ss_begin(struct ltt_export_ctx *ctx)
{
	struct ss *s = calloc(1, sizeof(*s));
	int ret = -ENOMEM;

	if (!s)
		return -ENOMEM;
	ctx->priv = s;
	s->nmodels = ltt_reader_ntraces(ctx->reader);
	s->models = calloc(s->nmodels ? s->nmodels : 1, sizeof(*s->models));
	s->spill = tmpfile();
	if (!s->spill)
		ret = -errno;
	if (!s->models || !s->spill || timeline_new(&s->tl, ctx->reader))
		goto fail;
	for (unsigned i = 0; i < s->nmodels; i++)
		if (prof_model_init(&s->models[i]))
			goto fail;
	return 0;
fail:
	ss_end(ctx, 1);
	ctx->priv = NULL;
	return ret;
}

static void ss_sample(struct ss *s, struct tl_lane *l, struct ss_lane *sl, const struct ltt_event *ev)
{
	struct prof_model *m = &s->models[ev->trace->index];
	struct prof_thread *t;
	struct prof_sample smp;

	if (prof_model_sample(m, ev, &t, &smp) != 1 || !t->stack.depth)
		return;
	(void)l;
	if (sl->samples.items++)
		st_write(s, &sl->samples, ",[", 2);
	else
		st_write(s, &sl->samples, "[", 1);
	for (unsigned i = 0; i < t->stack.depth; i++) {
		long fi = prof_func_of(m, t->stack.ips[i], i + 1 == t->stack.depth);
		struct prof_func *f;

		if (fi < 0) {
			s->error = (int)fi;
			return;
		}
		f = &m->funcs[fi];
		if (f->user < 0) {
			long fr = frame_new(s, f->name, f->module);

			if (fr < 0) {
				s->error = (int)fr;
				return;
			}
			f->user = fr;
		}
		st_printf(s, &sl->samples, i ? ",%lld" : "%lld", (long long)f->user);
	}
	st_write(s, &sl->samples, "]", 1);
	if (!sl->unit_set) {
		sl->unit_set = 1;
		sl->ns_per_tick = m->hz ? 1000000000ull / m->hz : 0;
	}
	{
		uint64_t w = sl->ns_per_tick ? smp.ticks * sl->ns_per_tick : smp.ticks;

		st_printf(s, &sl->weights, sl->weights.items++ ? ",%llu" : "%llu", (unsigned long long)w);
		sl->weight += w;
	}
}

static void ss_open(struct ss *s, struct ss_lane *sl, long frame, uint64_t at)
{
	if (LTT_GROW(sl->stk, sl->depth + 1, sl->cap)) {
		s->error = -ENOMEM;
		return;
	}
	sl->stk[sl->depth++] = (uint32_t)frame;
	st_printf(s, &sl->events, "%s{\"type\":\"O\",\"frame\":%ld,\"at\":%llu}", sl->events.items++ ? "," : "",
		  frame, (unsigned long long)at);
}

static void ss_close(struct ss *s, struct ss_lane *sl, uint64_t at)
{
	if (!sl->depth)
		return;
	st_printf(s, &sl->events, ",{\"type\":\"C\",\"frame\":%u,\"at\":%llu}", sl->stk[--sl->depth],
		  (unsigned long long)at);
	sl->events.items++;
}

static int ss_event(struct ltt_export_ctx *ctx, const struct ltt_event *ev)
{
	struct ss *s = ctx->priv;
	struct tl_event e;
	struct ss_lane *sl;
	int ret = timeline_event(s->tl, ev, &e);
	uint64_t at = ev->time_ns > ctx->first_ns ? ev->time_ns - ctx->first_ns : 0;

	if (ret < 0)
		return ret;
	if (ev->time_ns > s->last_ns)
		s->last_ns = ev->time_ns;
	if (export_type(ev)->core && prof_model_event(&s->models[ev->trace->index], ev))
		return s->error;
	switch (e.kind) {
	case TL_BEGIN: {
		long f = region_frame(s, e.category ? e.category : "", e.name ? e.name : "");

		if (f < 0)
			return (int)f;
		if ((sl = ss_lane(s, e.lane)))
			ss_open(s, sl, f, at);
		break;
	}
	case TL_END:
		if ((sl = ss_lane(s, e.lane)))
			ss_close(s, sl, at);
		break;
	case TL_LOST:	/* said in the names of the process's profiles (speedscope has no markers) */
		e.lane->proc->user += e.count;
		break;
	case TL_INSTANT:
		if (e.lane->is_thread && export_type(ev)->core && prof_is_core(ev, "stack_sample") &&
		    (sl = ss_lane(s, e.lane)))
			ss_sample(s, e.lane, sl, ev);
		break;
	default:
		break;
	}
	return s->error;
}

static void ss_name(struct ltt_export_ctx *ctx, struct tl_lane *l, const char *what)
{
	char b[TL_NAME_MAX * 2 + 64];

	if (l->proc->user)	/* the process lost events: its slices may hide calls, or span a gap */
		snprintf(b, sizeof(b), "%s: %s (tid %u) %s (%llu events of the process lost)", l->proc->name, l->name,
			 l->tid, what, (unsigned long long)l->proc->user);
	else
		snprintf(b, sizeof(b), "%s: %s (tid %u) %s", l->proc->name, l->name, l->tid, what);
	dump_out_str(ctx->out, "{\"name\":");
	dump_out_json_string(ctx->out, b, strlen(b));
}

static int ss_write(struct ltt_export_ctx *ctx)
{
	struct ss *s = ctx->priv;
	uint64_t end = s->last_ns > ctx->first_ns ? s->last_ns - ctx->first_ns : 0, best = 0;
	unsigned nprof = 0, active = 0;

	dump_out_str(ctx->out, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"name\":");
	dump_out_json_string(ctx->out, ctx->out_name, strlen(ctx->out_name));
	dump_out_str(ctx->out, ",\"exporter\":\"ltt " LTT_VERSION "\",\"shared\":{\"frames\":[");
	for (size_t i = 0; i < s->nframes; i++) {
		dump_out_str(ctx->out, i ? ",\n{\"name\":" : "\n{\"name\":");
		dump_out_json_string(ctx->out, s->frames[i].name, strlen(s->frames[i].name));
		if (s->frames[i].file) {
			dump_out_str(ctx->out, ",\"file\":");
			dump_out_json_string(ctx->out, s->frames[i].file, strlen(s->frames[i].file));
		}
		dump_out_char(ctx->out, '}');
	}
	dump_out_str(ctx->out, "]},\"profiles\":[");
	for (unsigned i = 0; i < timeline_nlanes(s->tl) && !s->error; i++) {
		struct tl_lane *l = timeline_lane(s->tl, i);
		struct ss_lane *sl = (struct ss_lane *)(uintptr_t)l->user[0];

		if (!sl)
			continue;
		if (sl->samples.items) {
			dump_out_str(ctx->out, nprof++ ? ",\n" : "\n");
			ss_name(ctx, l, "samples");
			dump_out_str(ctx->out, ",\"type\":\"sampled\",\"unit\":");
			dump_out_str(ctx->out, sl->ns_per_tick ? "\"nanoseconds\"" : "\"none\"");
			dump_out_str(ctx->out, ",\"startValue\":0,\"endValue\":");
			dump_out_u64(ctx->out, sl->weight);
			dump_out_str(ctx->out, ",\"samples\":[");
			st_copy(s, ctx, &sl->samples);
			dump_out_str(ctx->out, "],\"weights\":[");
			st_copy(s, ctx, &sl->weights);
			dump_out_str(ctx->out, "]}");
			if (sl->weight > best) {
				best = sl->weight;
				active = nprof - 1;
			}
		}
		if (sl->events.items) {
			while (sl->depth)	/* regions still open end at the last event */
				ss_close(s, sl, end);
			dump_out_str(ctx->out, nprof++ ? ",\n" : "\n");
			ss_name(ctx, l, "regions");
			dump_out_str(ctx->out, ",\"type\":\"evented\",\"unit\":\"nanoseconds\",\"startValue\":0,\"endValue\":");
			dump_out_u64(ctx->out, end);
			dump_out_str(ctx->out, ",\"events\":[");
			st_copy(s, ctx, &sl->events);
			dump_out_str(ctx->out, "]}");
		}
	}
	dump_out_str(ctx->out, "\n],\"activeProfileIndex\":");
	dump_out_u64(ctx->out, active);
	dump_out_str(ctx->out, "}\n");
	return s->error ? s->error : ctx->out->error;
}

static int ss_end(struct ltt_export_ctx *ctx, int failed)
{
	struct ss *s = ctx->priv;
	int ret = 0;

	if (!s)
		return 0;
	if (!failed && s->tl && s->spill && s->models)
		ret = ss_write(ctx);
	if (s->tl) {
		for (unsigned i = 0; i < timeline_nlanes(s->tl); i++) {
			struct ss_lane *sl = (struct ss_lane *)(uintptr_t)timeline_lane(s->tl, i)->user[0];

			if (!sl)
				continue;
			st_free(&sl->events);
			st_free(&sl->samples);
			st_free(&sl->weights);
			free(sl->stk);
			free(sl);
		}
		timeline_free(s->tl);
	}
	for (size_t i = 0; i < s->nframes; i++)
		free(s->frames[i].name);
	free(s->frames);
	for (size_t i = 0; i < s->nregions; i++)
		free(s->region_keys[i]);
	free(s->region_keys);
	free(s->region_frames);
	if (s->models)
		for (unsigned i = 0; i < s->nmodels; i++)
			if (s->models[i].sym)
				prof_model_free(&s->models[i]);
	free(s->models);
	if (s->spill)
		fclose(s->spill);
	free(s);
	return ret;
}

const struct ltt_exporter ltt_exp_speedscope = {
	.name = "speedscope",
	.summary = "speedscope's JSON: stack samples as sampled profiles, regions as evented ones, per thread",
	.suffix = ".speedscope.json",
	.begin = ss_begin,
	.event = ss_event,
	.end = ss_end,
	.lost = 1,	/* the loss records: counted per process, said in its profiles' names */
};
