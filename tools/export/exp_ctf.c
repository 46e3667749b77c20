/* SPDX-License-Identifier: MIT */
/* ltt export --format=ctf: a CTF 1.8 trace directory (metadata + one packet stream per tracefile) for
 * babeltrace2 and Trace Compass (doc/viewing.md). With several traces, OUT holds one CTF trace per
 * ltt trace in a subdirectory each (babeltrace2 finds them all).
 *
 * Each ltt block becomes a packet of the stream of its tracefile: packet_seq_num is the block's
 * block_id, so blocks a flight recorder overwrote are packet_seq_num gaps; events_lost records add to
 * the stream's running events_discarded. Event payloads are copied as they are: the TSDL types of
 * ctf_meta.c have exactly ltt's layout, in the trace's byte order. The event header is the event id
 * and the event's real time as ltt's reader computes it, in ns since the Epoch on a 1 GHz clock of
 * offset 0 (babeltrace2's times are then exactly ltt's); times are clamped so that they never go back
 * within a stream, as ltt's reader clamps them. Tracefiles are read one after the other (no merge);
 * memory is one packet buffer per tracefile. With --threads, ctf_par.c encodes block ranges of the
 * tracefiles in threads with the same encoder (ctf_stream_event) into the same bytes. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/grow.h"
#include "common/io.h"
#include "toolkit/cmd.h"
#include "ctf.h"
#include "toolkit/export.h"

#define CTF_MAGIC 0xC1FC1FC1u
#define SUMMARY_BLOCK 0xFFFFFFFFu

static void put_u(unsigned char *p, uint64_t v, unsigned bytes, int be)
{
	for (unsigned i = 0; i < bytes; i++)
		p[be ? bytes - 1 - i : i] = (uint8_t)(v >> (8 * i));
}

static int room(struct ctf_stream *s, size_t n)
{
	return LTT_GROW_FROM(s->buf, s->len + n, s->cap, 65536);
}

static struct ctf_stream *stream_of(struct ctf *c, const struct ltt_event *ev)
{
	if (c->cur && c->cur->tf == ev->tracefile)
		return c->cur;
	for (unsigned i = 0; i < c->nstreams; i++)
		if (c->streams[i].tf == ev->tracefile)
			return c->cur = &c->streams[i];
	return NULL;
}

void ctf_stream_path(const struct ctf_stream *s, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%s/", s->dir);
	const char *tf = s->tf->name;

	for (; *tf && n + 1 < len; tf++)
		buf[n++] = *tf == '/' ? '_' : *tf;
	buf[n] = 0;
}

static int open_packet(struct ctf_stream *s, uint64_t seq, uint64_t begin)
{
	if (s->fd < 0 && !s->ahead) {
		char path[4096];

		ctf_stream_path(s, path, sizeof(path));
		s->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
		if (s->fd < 0) {
			ltt_tool_error("export", "%s: %s", path, strerror(errno));
			return EXPORT_REPORTED;
		}
	}
	if (room(s, CTF_HEAD))
		return -ENOMEM;
	s->pkt = s->len;
	s->len += CTF_HEAD;
	s->open = 1;
	s->seq = seq;
	s->next_seq = seq + 1;
	if (!s->opened) {
		s->opened = 1;
		s->first_begin = begin;
	}
	if (!s->have_ts || begin > s->last) {
		s->last = begin;
		s->have_ts = 1;
	}
	s->begin = s->last;
	return 0;
}

int ctf_close_packet(struct ctf_stream *s, uint64_t end)
{
	unsigned char *p = s->buf + s->pkt;
	uint64_t bits = (uint64_t)(s->len - s->pkt) * 8;
	int be = s->be, rc;

	if (!s->open)
		return 0;
	s->open = 0;
	if (end > s->last)
		s->last = end;
	put_u(p, CTF_MAGIC, 4, be);
	put_u(p + 4, 0, 4, be);			/* stream_id */
	put_u(p + 8, s->begin, 8, be);		/* timestamp_begin */
	put_u(p + 16, s->last, 8, be);		/* timestamp_end */
	put_u(p + 24, bits, 8, be);		/* content_size */
	put_u(p + 32, bits, 8, be);		/* packet_size */
	put_u(p + 40, s->seq, 8, be);		/* packet_seq_num */
	put_u(p + CTF_DISCARDED_AT, s->discarded, 8, be);	/* events_discarded */
	put_u(p + 56, s->tf->cpu < 0 ? UINT32_MAX : (uint32_t)s->tf->cpu, 4, be);	/* cpu_id */
	if (s->ahead) {		/* kept: its events_discarded gets the ranges before it (ctf_par.c) */
		if (LTT_GROW(s->heads, s->nheads + 1, s->capheads))
			return -ENOMEM;
		s->heads[s->nheads++] = s->pkt;
		return 0;
	}
	if ((rc = ltt_write_all(s->fd, s->buf, s->len)))
		return rc;
	s->len = 0;
	return 0;
}

static uint64_t builtin_uint(const struct ltt_event *ev, const char *path0, const char *path1)
{
	struct ltt_value b, v, w;

	if (ltt_event_body(ev, &b) < 0 || ltt_value_field(&b, path0, &v) < 0)
		return 0;
	if (path1 && ltt_value_field(&v, path1, &w) < 0)
		return 0;
	return ltt_value_uint(path1 ? &w : &v);
}

int ctf_stream_event(struct ctf_stream *s, struct ctf_anchor *a, const struct ltt_event *ev)
{
	unsigned char *p;
	uint64_t ts;
	int be = s->be, ret;

	if (__builtin_expect(ev->type->builtin, 0)) {
		switch (ev->id) {
		case LTT_ID_BLOCK_START: {
			uint64_t id = builtin_uint(ev, "block_id", NULL);

			if (!a->anchored) {
				a->anchored = 1;
				a->cycles = ev->cycles;
				a->ns = ev->time_ns;
			}
			ret = ctf_close_packet(s, 0);
			if (ret)
				return ret;
			s->summary = id == SUMMARY_BLOCK;
			return s->summary ? 0 : open_packet(s, id, ev->time_ns);
		}
		case LTT_ID_BLOCK_END:
			if (s->summary) {
				s->summary = 0;
				return 0;
			}
			return ctf_close_packet(s, ev->time_ns);
		case LTT_ID_EVENTS_LOST:
			s->discarded += builtin_uint(ev, "count", NULL);
			return 0;
		default:
			return 0;
		}
	}
	if (!s->open) {
		if (!s->opened)
			s->used_next_seq = 1;
		if ((ret = open_packet(s, s->next_seq, ev->time_ns)))
			return ret;
	}
	if (room(s, 10 + ev->size))
		return -ENOMEM;
	/* the event's time as ltt's reader gives it (ns since the Epoch), on a clock of 1 GHz from the
	 * Epoch: babeltrace2 shows exactly ltt's times (a clock of the cycle rate cannot: its own
	 * conversion rounds differently from the anchors' interpolation, by 1-2 ns) */
	ts = ev->time_ns > s->last ? ev->time_ns : s->last;
	s->last = ts;
	p = s->buf + s->len;
	put_u(p, ev->id, 2, be);
	put_u(p + 2, ts, 8, be);
	memcpy(p + 10, ev->payload, ev->size);
	s->len += 10 + ev->size;
	return 0;
}

static int ctf_event(struct ltt_export_ctx *ctx, const struct ltt_event *ev)
{
	struct ctf *c = ctx->priv;
	struct ctf_stream *s = stream_of(c, ev);

	if (!s)
		return -EINVAL;
	return ctf_stream_event(s, &c->traces[s->trace].anchor, ev);
}

static int ctf_begin(struct ltt_export_ctx *ctx)
{
	unsigned nt = ctx->ntraces, n = 0;
	struct ctf *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	ctx->priv = c;
	c->traces = calloc(nt, sizeof(*c->traces));
	for (unsigned i = 0; i < nt; i++)
		n += ltt_reader_trace(ctx->reader, i)->ntracefiles;
	c->streams = calloc(n ? n : 1, sizeof(*c->streams));
	if (!c->traces || !c->streams)
		return -ENOMEM;
	for (unsigned i = 0; i < nt; i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		if (nt == 1) {
			c->traces[i].dir = strdup(ctx->path);
		} else {	/* one subdirectory per trace: "N_NAME" */
			const char *b = strrchr(t->path, '/');
			char name[256];
			size_t k;

			snprintf(name, sizeof(name), "%s", b && b[1] ? b + 1 : t->path);
			for (k = strlen(name); k > 0 && name[k - 1] == '/'; k--)
				name[k - 1] = 0;
			for (k = 0; name[k]; k++)
				if (name[k] == '/' || name[k] == '.')
					name[k] = '_';
			if (asprintf(&c->traces[i].dir, "%s/%u_%s", ctx->path, i, name) < 0)
				c->traces[i].dir = NULL;
			else if (mkdir(c->traces[i].dir, 0777) < 0) {
				ltt_tool_error("export", "%s: %s", c->traces[i].dir, strerror(errno));
				return EXPORT_REPORTED;
			}
		}
		if (!c->traces[i].dir)
			return -ENOMEM;
		for (unsigned k = 0; k < t->ntracefiles; k++) {
			struct ctf_stream *s = &c->streams[c->nstreams++];

			s->tf = t->tracefiles[k];
			s->dir = c->traces[i].dir;
			s->trace = i;
			s->be = (int)t->big_endian;
			s->fd = -1;
		}
	}
	return 0;
}

static void env_attr(FILE *m, const struct ltt_trace_info *t, const char *key, const char *attr)
{
	const char *v = ltt_trace_attr(t, attr);

	if (!v)
		return;
	fprintf(m, "\t%s = ", key);
	ctf_quoted(m, v);
	fputs(";\n", m);
}

static int write_metadata(struct ltt_export_ctx *ctx, unsigned i)
{
	struct ctf *c = ctx->priv;
	const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);
	struct ctf_trace *ct = &c->traces[i];
	char path[4096];
	FILE *m;

	if (!ct->anchor.anchored) {	/* no block at all: the time of the start */
		ct->anchor.cycles = 0;
		ct->anchor.ns = ctx->first_ns;
	}
	snprintf(path, sizeof(path), "%s/metadata", ct->dir);
	m = fopen(path, "we");
	if (!m) {
		ltt_tool_error("export", "%s: %s", path, strerror(errno));
		return EXPORT_REPORTED;
	}
	fputs("/* CTF 1.8 */\n\n", m);
	fputs("typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	      "typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	      "typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	      "typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n\n", m);
	fprintf(m, "trace {\n\tmajor = 1;\n\tminor = 8;\n\tbyte_order = %s;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint32_t stream_id;\n\t};\n};\n\n",
		t->big_endian ? "be" : "le");
	fputs("env {\n\ttracer_name = \"ltt\";\n", m);
	env_attr(m, t, "ltt_program", "ltt_program");
	env_attr(m, t, "ltt_pid", "ltt_pid");
	env_attr(m, t, "ltt_start_time", "ltt_start_time");
	fputs("\tltt_trace = ", m);
	ctf_quoted(m, t->path);
	fputs(";\n};\n\n", m);
	fputs("clock {\n\tname = \"ltt\";\n\tdescription = \"the real time of the ltt trace's events (ns since the Epoch)\";\n"
	      "\tfreq = 1000000000;\n\tprecision = 1;\n\toffset_s = 0;\n\toffset = 0;\n\tabsolute = true;\n};\n\n", m);
	fputs("typealias integer { size = 64; align = 8; signed = false; map = clock.ltt.value; } := ltt_cycles_t;\n\n", m);
	fputs("stream {\n\tid = 0;\n"
	      "\tpacket.context := struct {\n\t\tltt_cycles_t timestamp_begin;\n\t\tltt_cycles_t timestamp_end;\n"
	      "\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n\t\tuint64_t packet_seq_num;\n"
	      "\t\tuint64_t events_discarded;\n\t\tuint32_t cpu_id;\n\t};\n"
	      "\tevent.header := struct {\n\t\tuint16_t id;\n\t\tltt_cycles_t timestamp;\n\t};\n};\n\n", m);
	for (unsigned k = 0; k < t->nevent_types; k++) {
		const struct ltt_event_type *ty = t->event_types[k];

		if (ty->builtin)
			continue;
		fputs("event {\n\tname = ", m);
		ctf_quoted(m, export_type_full(ty));
		fprintf(m, ";\n\tid = %u;\n\tstream_id = 0;\n", ty->id);
		if (ty->body && ctf_body_decl(m, ty->body, t->arch_size)) {
			fclose(m);
			ltt_tool_error("export", "%s: out of memory", path);
			return EXPORT_REPORTED;
		}
		fputs("};\n\n", m);
	}
	if (fclose(m) != 0) {
		ltt_tool_error("export", "%s: %s", path, strerror(errno));
		return EXPORT_REPORTED;
	}
	return 0;
}

static int ctf_end(struct ltt_export_ctx *ctx, int failed)
{
	struct ctf *c = ctx->priv;
	int ret = 0;

	if (!c)
		return 0;
	for (unsigned i = 0; i < c->nstreams; i++) {
		struct ctf_stream *s = &c->streams[i];

		if (!failed && !ret)
			ret = ctf_close_packet(s, 0);
		if (s->fd >= 0 && close(s->fd) < 0 && !ret)
			ret = -errno;
		free(s->buf);
		free(s->heads);
	}
	for (unsigned i = 0; c->traces && i < ctx->ntraces; i++) {
		if (!failed && !ret && c->traces[i].dir)
			ret = write_metadata(ctx, i);
		free(c->traces[i].dir);
	}
	free(c->traces);
	free(c->streams);
	free(c);
	return ret;
}

const struct ltt_exporter ltt_exp_ctf = {
	.name = "ctf",
	.summary = "CTF 1.8 trace directory: babeltrace2, Trace Compass",
	.suffix = ".ctf",
	.dir = 1,
	.builtin = 1,
	.unordered = 1,
	.begin = ctf_begin,
	.event = ctf_event,
	.end = ctf_end,
	.parallel = ctf_parallel,
};
