// SPDX-License-Identifier: MIT
/* The HTML export's page writer (html_write.h): the embedded viewer sources around the trace's data,
 * gzip (zlib) then base64 (libcrypto's EVP_EncodeBlock), streamed to the output. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <zlib.h>

#include "common/escape_json.h"
#include "html_write.h"
#include "html_assets.h"	/* generated from tools/export/html/ (tools/export/module.mk) */

#define HW_CHUNK 65536

struct hw {
	struct dump_out *o;
	z_stream z;
	unsigned char zout[HW_CHUNK];
	unsigned char carry[3];		/* base64: bytes waiting for a group of three */
	unsigned ncarry;
	uint64_t off;			/* uncompressed bytes so far */
	struct ltt_buf meta;		/* the JSON */
	struct ltt_buf col;		/* the column being built */
	int err;
};

static void b64(struct hw *w, const unsigned char *p, size_t n)
{
	unsigned char out[4 * (HW_CHUNK / 3) + 8];

	while (w->ncarry && w->ncarry < 3 && n) {
		w->carry[w->ncarry++] = *p++;
		n--;
	}
	if (w->ncarry == 3) {
		EVP_EncodeBlock(out, w->carry, 3);
		dump_out_mem(w->o, (const char *)out, 4);
		w->ncarry = 0;
	}
	while (n >= 3) {
		size_t k = n / 3 * 3 < HW_CHUNK / 3 * 3 ? n / 3 * 3 : HW_CHUNK / 3 * 3;
		int len = EVP_EncodeBlock(out, p, (int)k);

		dump_out_mem(w->o, (const char *)out, (size_t)len);
		p += k;
		n -= k;
	}
	while (n--)
		w->carry[w->ncarry++] = *p++;
}

static void deflate_out(struct hw *w, int flush)
{
	do {
		int rc;

		w->z.next_out = w->zout;
		w->z.avail_out = sizeof(w->zout);
		rc = deflate(&w->z, flush);
		if (rc == Z_STREAM_ERROR) {
			w->err = -EIO;
			return;
		}
		b64(w, w->zout, sizeof(w->zout) - w->z.avail_out);
	} while (w->z.avail_out == 0);
}

static void put(struct hw *w, const void *p, size_t n)
{
	w->z.next_in = (unsigned char *)(uintptr_t)p;
	w->z.avail_in = (uInt)n;
	deflate_out(w, Z_NO_FLUSH);
	w->off += n;
}

static void varint(struct ltt_buf *b, uint64_t v)
{
	char *p = ltt_buf_reserve(b, 10);
	size_t n = 0;

	if (!p)
		return;
	do {
		p[n++] = (char)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
		v >>= 7;
	} while (v);
	ltt_buf_commit(b, n);
}

/* Writes the column built in w->col and adds `"name":[offset,length]` to the JSON. */
static void col_end(struct hw *w, const char *name)
{
	if (w->col.nomem)
		w->err = -ENOMEM;
	ltt_buf_printf(&w->meta, "\"%s\":[%llu,%zu]", name, (unsigned long long)w->off, w->col.len);
	put(w, w->col.buf ? w->col.buf : "", w->col.len);
	ltt_buf_reset(&w->col);
}

static void jstr(struct ltt_buf *b, const char *s)
{
	ltt_json_to_buf(b, s, strlen(s));
}

/* ---- items ------------------------------------------------------------------------------------------ */

enum { C_LANE, C_START, C_DUR, C_DEPTH, C_KIND, C_NAME, C_ARGS };

static void items(struct hw *w, const char *what, const struct hm_item *v, size_t n, int spans)
{
	static const char *const names[] = { "lane", "start", "dur", "depth", "kind", "name", "args" };

	ltt_buf_printf(&w->meta, ",\"%s\":{\"n\":%zu", what, n);
	for (int c = C_LANE; c <= C_ARGS; c++) {
		uint32_t lane = 0;
		uint64_t prev = 0;

		if (!spans && (c == C_DUR || c == C_DEPTH))
			continue;
		for (size_t i = 0; i < n; i++) {
			const struct hm_item *it = &v[i];

			switch (c) {
			case C_LANE: varint(&w->col, it->lane - lane); lane = it->lane; break;
			case C_START:
				if (it->lane != lane)
					prev = 0;
				lane = it->lane;
				varint(&w->col, it->start - prev);
				prev = it->start;
				break;
			case C_DUR: varint(&w->col, it->dur); break;
			case C_DEPTH: varint(&w->col, it->depth); break;
			case C_KIND: varint(&w->col, it->kind); break;
			case C_NAME: varint(&w->col, it->name); break;
			default: varint(&w->col, it->args); break;
			}
		}
		ltt_buf_putc(&w->meta, ',');
		col_end(w, names[c]);
	}
	ltt_buf_putc(&w->meta, '}');
}

/* ---- summaries: the finest level and two coarser ones, each 4 times coarser ------------------------- */

#define LEVELS 3

static unsigned char quant(double ns, double col_ns)
{
	double f = ns / col_ns;
	int q = (int)(f * 255 + 0.5);

	if (ns > 0 && q < 1)
		q = 1;
	return (unsigned char)(q > 255 ? 255 : q);
}

static void sum_rows(struct hw *w, const float *rows, unsigned nrows, double col_ns)
{
	for (unsigned lv = 0, g = 1; lv < LEVELS; lv++, g *= 4)
		for (unsigned r = 0; r < nrows; r++)
			for (unsigned c = 0; c < HM_BUCKETS; c += g) {
				double ns = 0;
				unsigned char q;

				for (unsigned k = 0; k < g; k++)
					ns += rows[(size_t)r * HM_BUCKETS + c + k];
				q = quant(ns, col_ns * g);
				ltt_buf_add(&w->col, &q, 1);
			}
}

static void sum_counts(struct hw *w, const uint32_t *v)
{
	for (unsigned lv = 0, g = 1; lv < LEVELS; lv++, g *= 4)
		for (unsigned c = 0; c < HM_BUCKETS; c += g) {
			uint64_t n = 0;

			for (unsigned k = 0; k < g; k++)
				n += v[c + k];
			varint(&w->col, n);
		}
}

static void lane_json(struct hw *w, const struct hm *m, const struct hm_lane *l)
{
	static const char *const kinds[] = { "thread", "cpu", "span", "file" };

	ltt_buf_puts(&w->meta, "{\"name\":");
	jstr(&w->meta, l->name);
	ltt_buf_printf(&w->meta, ",\"kind\":\"%s\",\"tid\":%u,\"proc\":%u,\"events\":%llu,\"dropped\":%llu,\"sum\":{",
		       kinds[l->kind], l->tid, l->proc, (unsigned long long)l->events, (unsigned long long)l->dropped);
	int any = 0;

	if (l->sum.count) {
		sum_counts(w, l->sum.count);
		col_end(w, "count");
		any = 1;
	}
	if (l->sum.st) {
		sum_rows(w, l->sum.st, HM_NCAT, m->col_ns);
		if (any)
			ltt_buf_putc(&w->meta, ',');
		col_end(w, "st");
		any = 1;
	}
	if (l->sum.cov) {
		sum_rows(w, l->sum.cov, HM_DEPTHS, m->col_ns);
		if (any)
			ltt_buf_putc(&w->meta, ',');
		col_end(w, "cov");
		any = 1;
	}
	if (l->sum.dropped) {
		sum_counts(w, l->sum.dropped);
		if (any)
			ltt_buf_putc(&w->meta, ',');
		col_end(w, "drop");
	}
	ltt_buf_puts(&w->meta, "}}");
}

/* ---- the page ------------------------------------------------------------------------------------------ */

static void html_text(struct dump_out *o, const char *s)
{
	dump_out_xml_text(o, s, strlen(s));
}

/* Writes tmpl up to marker (or all of it, marker NULL); returns what follows the marker. */
static const char *upto(struct dump_out *o, const char *tmpl, const char *marker)
{
	const char *p = marker ? strstr(tmpl, marker) : NULL;

	if (!p) {
		dump_out_str(o, tmpl);
		return "";
	}
	dump_out_mem(o, tmpl, (size_t)(p - tmpl));
	return p + strlen(marker);
}

static void data(struct hw *w, const struct hm *m, const struct hw_info *in)
{
	struct ltt_buf *j = &w->meta;
	uint32_t len;

	ltt_buf_puts(j, "{\"v\":1,\"title\":");
	jstr(j, in->title);
	ltt_buf_printf(j, ",\"ntraces\":%u,\"t0\":\"%llu\",\"span\":%llu,\"events\":%llu,\"lost\":%llu,"
		       "\"states\":%d,\"runnable_source\":%d,\"samples_unknown\":%llu",
		       in->ntraces, (unsigned long long)in->t0, (unsigned long long)m->span_ns,
		       (unsigned long long)in->events, (unsigned long long)in->lost_total, in->states,
		       in->runnable_source, (unsigned long long)in->samples_unknown);
	ltt_buf_printf(j, ",\"lod\":{\"buckets\":%u,\"levels\":%u,\"factor\":4,\"depths\":%u,\"max_spans\":%zu,"
		       "\"max_points\":%zu,\"spans_total\":%llu,\"spans_dropped\":%llu,\"points_total\":%llu,"
		       "\"points_dropped\":%llu,\"dropped_max_ns\":%llu}",
		       HM_BUCKETS, LEVELS, HM_DEPTHS, m->max_spans, m->max_points, (unsigned long long)m->spans_total,
		       (unsigned long long)m->spans_dropped, (unsigned long long)m->points_total,
		       (unsigned long long)m->points_dropped, (unsigned long long)m->dropped_max_ns);
	/* strings: NUL-separated */
	ltt_buf_puts(j, ",\"strings\":{\"n\":");
	ltt_buf_printf(j, "%zu,", m->nstrs);
	ltt_buf_add(&w->col, m->strbuf, m->strlen_);
	col_end(w, "bytes");
	ltt_buf_puts(j, "},\"procs\":[");
	for (size_t i = 0; i < m->nprocs; i++) {
		const struct hm_proc *p = &m->procs[i];

		ltt_buf_puts(j, i ? ",{\"name\":" : "{\"name\":");
		jstr(j, p->name);
		ltt_buf_printf(j, ",\"pid\":%lld,\"trace\":%u,\"first\":%u}",
			       p->pid == UINT32_MAX ? -1LL : (long long)p->pid, p->trace, p->first_lane);
	}
	ltt_buf_puts(j, "],\"lanes\":[");
	for (size_t i = 0; i < m->nlanes; i++) {
		if (i)
			ltt_buf_putc(j, ',');
		lane_json(w, m, &m->lanes[i]);
	}
	ltt_buf_puts(j, "]");
	items(w, "spans", m->spans, m->nspans, 1);
	items(w, "points", m->points, m->npoints, 0);
	ltt_buf_printf(j, ",\"nodes\":{\"n\":%zu,", in->nnodes);
	for (size_t i = 0; i < in->nnodes; i++)
		varint(&w->col, in->node_parent[i]);
	col_end(w, "parent");
	ltt_buf_putc(j, ',');
	for (size_t i = 0; i < in->nnodes; i++)
		varint(&w->col, in->node_func[i]);
	col_end(w, "func");
	ltt_buf_printf(j, "},\"losses\":{\"merged\":%llu,\"list\":[", (unsigned long long)in->losses_merged);
	for (size_t i = 0; i < in->nlosses; i++)
		ltt_buf_printf(j, "%s[%llu,%llu,%u,%u]", i ? "," : "", (unsigned long long)in->losses[i].t,
			       (unsigned long long)in->losses[i].count, in->losses[i].lane, in->losses[i].cause);
	ltt_buf_puts(j, "]}}");
	if (j->nomem) {
		w->err = -ENOMEM;
		return;
	}
	put(w, j->buf, j->len);
	len = (uint32_t)j->len;
	{
		unsigned char le[4] = { (unsigned char)len, (unsigned char)(len >> 8), (unsigned char)(len >> 16),
					(unsigned char)(len >> 24) };

		put(w, le, 4);
	}
	deflate_out(w, Z_FINISH);
	if (w->ncarry) {
		unsigned char out[8];
		int n = EVP_EncodeBlock(out, w->carry, (int)w->ncarry);

		dump_out_mem(w->o, (const char *)out, (size_t)n);
		w->ncarry = 0;
	}
}

int html_write(struct dump_out *o, const struct hm *m, const struct hw_info *in)
{
	struct hw *w = calloc(1, sizeof(*w));
	const char *t = html_page;
	int err;

	if (!w)
		return -ENOMEM;
	w->o = o;
	if (deflateInit2(&w->z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(w);
		return -ENOMEM;
	}
	t = upto(o, t, "@TITLE@");
	html_text(o, in->title);
	dump_out_str(o, " (ltt)");
	t = upto(o, t, "/*@CSS@*/");
	dump_out_str(o, html_css);
	t = upto(o, t, "@DATA@");
	data(w, m, in);
	t = upto(o, t, "/*@JS@*/");
	dump_out_str(o, html_js);
	upto(o, t, NULL);
	err = w->err;
	deflateEnd(&w->z);
	ltt_buf_free(&w->meta);
	ltt_buf_free(&w->col);
	free(w);
	return err ? err : o->error;
}
