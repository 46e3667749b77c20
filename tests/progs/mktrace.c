/* SPDX-License-Identifier: MIT */
/* mktrace: writes synthetic traces exactly per doc/format.md, for the reader's tests and benchmarks,
 * independent of the recorder: either byte order, any arch_size, any block size, facilities from
 * XML files, events from a script (or a synthetic stream of N events).
 *
 *   mktrace -o DIR [-e little|big] [-a LP64|ILP32|LP32|ILP64] [-b BLOCK_SIZE] [-c CPUS]
 *           [-f FACILITY.xml]... [-s SCRIPT | -n EVENTS] [--cps N] [--start-cycles N]
 *
 * Facilities get base codes from 20 in the order given. Script lines ('#' starts a comment):
 *   ev TF CYCLES FACILITY.EVENT VALUE...   one event; TF is a CPU number or control/NAME; values in
 *                                          depth-first order (sequence: count then elements; union:
 *                                          code then the field; strings "quoted" or bare words)
 *   lost TF CYCLES COUNT CAUSE             an events_lost record
 *   heartbeat TF CYCLES                    a time_heartbeat
 *   gap TF BLOCKS EVENTS                   close the block; summary block saying BLOCKS blocks holding
 *                                          EVENTS events were lost; the next block_id skips them
 *   skip TF BLOCKS                         close the block; block_id skips BLOCKS without a record
 *   flush TF                               close the current block
 * -n N writes N events of facility "synth" (fixed-size "tick" and, one in eight, "msg" with a string)
 * round-robin over the CPUs, 100 cycles apart. Anchors follow one linear map (1 cycle = 1 ns unless
 * --cps), as ltt's recorder writes them. */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <ltt/eventdefs.h>

#include "common/format.h"

#define MAX_TF 64
#define MAX_FAC 32

struct tfw {
	char name[64];
	FILE *f;
	unsigned char *blk;
	uint32_t pos;		/* 0: no open block */
	uint32_t block_id;
	uint64_t prev;		/* full cycles of the previous event */
	int have_prev;
};

struct fac {
	struct ltt_eventdefs *defs;
	const struct ltt_facility_desc *d;
	uint32_t base;
	char *xml;
	size_t xml_len;
};

static struct {
	int be;
	enum ltt_arch_size arch;
	uint32_t bs;
	unsigned cpus;
	uint64_t cps, start_cycles, start_ns;
	struct tfw tf[MAX_TF];
	unsigned ntf;
	struct fac fac[MAX_FAC];
	unsigned nfac;
	const char *dir;
	unsigned line;
} g = { .arch = LTT_ARCH_LP64, .bs = 4096, .cpus = 1, .cps = 1000000000ull, .start_cycles = 1000,
	.start_ns = 1700000000ull * 1000000000ull };

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mktrace: ");
	if (g.line)
		fprintf(stderr, "line %u: ", g.line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void put(unsigned char *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		unsigned shift = g.be ? 8 * (n - 1 - i) : 8 * i;

		p[i] = (unsigned char)(v >> shift);
	}
}

static uint64_t anchor_time(uint64_t c)
{
	return g.start_ns + (uint64_t)(((__int128)(c - g.start_cycles) * 1000000000) / g.cps);
}

static void put_ts(unsigned char *p, uint64_t c)
{
	uint64_t ns = anchor_time(c);

	put(p, ns / 1000000000ull, 4);
	put(p + 4, ns % 1000000000ull, 4);
	put(p + 8, c, 8);
}

static struct tfw *tf_get(const char *name)
{
	char full[64];
	struct tfw *t;

	if (name[0] >= '0' && name[0] <= '9')
		snprintf(full, sizeof(full), "cpu/%s", name);
	else
		snprintf(full, sizeof(full), "%s", name);
	for (unsigned i = 0; i < g.ntf; i++)
		if (!strcmp(g.tf[i].name, full))
			return &g.tf[i];
	if (g.ntf == MAX_TF)
		die("too many tracefiles");
	t = &g.tf[g.ntf++];
	snprintf(t->name, sizeof(t->name), "%s", full);
	return t;
}

static void tf_open_file(struct tfw *t)
{
	char path[4096];

	if (t->f)
		return;
	snprintf(path, sizeof(path), "%s/%s", g.dir, t->name);
	t->f = fopen(path, "wb");
	if (!t->f)
		die("%s: %s", path, strerror(errno));
	t->blk = calloc(1, g.bs);
	if (!t->blk)
		die("out of memory");
}

static void block_open(struct tfw *t, uint64_t c, uint32_t id)
{
	tf_open_file(t);
	memset(t->blk, 0, g.bs);
	put(t->blk, LTT_B_BLOCK_START, 2);
	put(t->blk + 2, (uint32_t)c, 4);
	put_ts(t->blk + LTT_FMT_HEADER, c);
	put(t->blk + LTT_FMT_HEADER + LTT_MARK_BLOCK_ID, id, 4);
	t->pos = LTT_BLOCK_MARK_SIZE;
	t->prev = c;
	t->have_prev = 1;
}

static void block_close(struct tfw *t, uint32_t id)
{
	unsigned char *p = t->blk + t->pos;

	if (!t->pos)
		return;
	put(p, LTT_B_BLOCK_END, 2);
	put(p + 2, (uint32_t)t->prev, 4);
	put_ts(p + LTT_FMT_HEADER, t->prev);
	put(p + LTT_FMT_HEADER + LTT_MARK_BLOCK_ID, id, 4);
	put(t->blk + ltt_block_trailer_off(g.bs), t->pos, LTT_FMT_TRAILER);
	if (fwrite(t->blk, 1, g.bs, t->f) != g.bs)
		die("%s: write error", t->name);
	t->pos = 0;
}

static void close_current(struct tfw *t)
{
	if (t->pos) {
		block_close(t, t->block_id);
		t->block_id++;
	}
}

/* Room for an event of n bytes (header included); opens blocks as needed. */
static unsigned char *reserve(struct tfw *t, uint64_t c, uint32_t n)
{
	if (n > ltt_block_end_max(g.bs) - LTT_BLOCK_MARK_SIZE)
		die("event of %u bytes does not fit a block of %u", n, g.bs);
	if (t->pos && t->pos + n > ltt_block_end_max(g.bs))
		close_current(t);
	if (!t->pos)
		block_open(t, c, t->block_id);
	return t->blk + t->pos;
}

static void heartbeat(struct tfw *t, uint64_t c)
{
	unsigned char *p = reserve(t, c, LTT_HEARTBEAT_SIZE);

	put(p, LTT_B_HEARTBEAT, 2);
	put(p + 2, (uint32_t)c, 4);
	put_ts(p + LTT_FMT_HEADER, c);
	t->pos += LTT_HEARTBEAT_SIZE;
	t->prev = c;
}

/* Writes event id with payload pl[0..n) at cycles c. */
static void write_event(struct tfw *t, uint64_t c, unsigned id, const unsigned char *pl, uint32_t n)
{
	unsigned char *p;

	if (t->have_prev && c > t->prev && c - t->prev >= (1ull << 30))
		heartbeat(t, c);
	p = reserve(t, c, LTT_FMT_HEADER + n);
	put(p, id, 2);
	put(p + 2, (uint32_t)c, 4);
	memcpy(p + LTT_FMT_HEADER, pl, n);
	t->pos += LTT_FMT_HEADER + n;
	t->prev = c;
}

/* ---- payload encoding from script tokens ----------------------------------------------------------- */

struct enc {
	unsigned char buf[65536];
	size_t len;
	char **tok;
	int ntok, next;
};

static const char *next_tok(struct enc *e)
{
	if (e->next >= e->ntok)
		die("too few values");
	return e->tok[e->next++];
}

static void enc_put(struct enc *e, uint64_t v, unsigned n)
{
	if (e->len + n > sizeof(e->buf))
		die("payload too large");
	put(e->buf + e->len, v, n);
	e->len += n;
}

static uint64_t parse_int(const char *s, const struct ltt_type_desc *t)
{
	char *end;
	uint64_t v;

	if (t && t->kind == LTT_TYPE_ENUM)
		for (uint32_t i = 0; i < t->n_labels; i++)
			if (!strcmp(t->labels[i].name, s))
				return t->labels[i].value;
	errno = 0;
	v = s[0] == '-' ? (uint64_t)strtoll(s, &end, 0) : strtoull(s, &end, 0);
	if (errno || *end || end == s)
		die("'%s': not an integer", s);
	return v;
}

static void encode(struct enc *e, const struct ltt_type_desc *t)
{
	const char *s;
	uint64_t n;

	switch (t->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
		enc_put(e, parse_int(next_tok(e), t), ltt_size_bytes(t->size, g.arch));
		break;
	case LTT_TYPE_FLOAT: {
		double d = strtod(next_tok(e), NULL);

		if (ltt_float_bytes(t->size) == 4) {
			float f = (float)d;
			uint32_t u;

			memcpy(&u, &f, 4);
			enc_put(e, u, 4);
		} else {
			uint64_t u;

			memcpy(&u, &d, 8);
			enc_put(e, u, 8);
		}
		break;
	}
	case LTT_TYPE_STRING:
		s = next_tok(e);
		if (e->len + strlen(s) + 1 > sizeof(e->buf))
			die("payload too large");
		memcpy(e->buf + e->len, s, strlen(s) + 1);
		e->len += strlen(s) + 1;
		break;
	case LTT_TYPE_ARRAY:
		for (uint32_t i = 0; i < t->array_len; i++)
			encode(e, t->element);
		break;
	case LTT_TYPE_SEQUENCE:
		n = parse_int(next_tok(e), NULL);
		enc_put(e, n, ltt_size_bytes(t->size, g.arch));
		for (uint64_t i = 0; i < n; i++)
			encode(e, t->element);
		break;
	case LTT_TYPE_STRUCT:
		for (uint32_t i = 0; i < t->n_fields; i++)
			encode(e, t->fields[i].type);
		break;
	case LTT_TYPE_UNION:
		n = parse_int(next_tok(e), NULL);
		enc_put(e, n, ltt_size_bytes(t->size, g.arch));
		if (n < t->n_fields)
			encode(e, t->fields[n].type);
		break;
	default:
		die("unknown type kind");
	}
}

/* Splits a script line into tokens ("quoted strings" keep spaces; \" \\ \n inside them). */
static int tokenize(char *s, char **tok, int max)
{
	int n = 0;

	while (*s) {
		char *o;

		while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			s++;
		if (!*s || *s == '#')
			break;
		if (n == max)
			die("too many tokens");
		if (*s == '"') {
			o = tok[n++] = ++s;
			while (*s && *s != '"') {
				if (*s == '\\' && s[1]) {
					s++;
					*o++ = *s == 'n' ? '\n' : *s;
					s++;
				} else {
					*o++ = *s++;
				}
			}
			if (*s)
				s++;
			*o = 0;
		} else {
			tok[n++] = s;
			while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
				s++;
			if (*s)
				*s++ = 0;
		}
	}
	return n;
}

static void find_event(const char *name, unsigned *id, const struct ltt_event_desc **ev)
{
	const char *dot = strchr(name, '.');

	if (!dot)
		die("'%s': expected FACILITY.EVENT", name);
	for (unsigned i = 0; i < g.nfac; i++) {
		if (strncmp(g.fac[i].d->name, name, (size_t)(dot - name)) || g.fac[i].d->name[dot - name])
			continue;
		*ev = ltt_facility_find_event(g.fac[i].d, dot + 1);
		if (*ev) {
			*id = g.fac[i].base + (*ev)->index;
			return;
		}
	}
	die("'%s': no such event in the facilities given", name);
}

static void run_script(FILE *in)
{
	static struct enc e;
	char line[65536], *tok[4096];
	int n;

	while (fgets(line, sizeof(line), in)) {
		struct tfw *t;

		g.line++;
		n = tokenize(line, tok, 4096);
		if (!n)
			continue;
		if (n < 2)
			die("expected a command and a tracefile");
		t = tf_get(tok[1]);
		if (!strcmp(tok[0], "ev") && n >= 4) {
			const struct ltt_event_desc *ev;
			unsigned id;

			find_event(tok[3], &id, &ev);
			e.len = 0;
			e.tok = tok + 4;
			e.ntok = n - 4;
			e.next = 0;
			if (ev->body)
				encode(&e, ev->body);
			if (e.next != e.ntok)
				die("%d values too many", e.ntok - e.next);
			write_event(t, parse_int(tok[2], NULL), id, e.buf, (uint32_t)e.len);
		} else if (!strcmp(tok[0], "lost") && n == 5) {
			unsigned char pl[9];

			put(pl, parse_int(tok[3], NULL), 8);
			pl[8] = (unsigned char)parse_int(tok[4], NULL);
			write_event(t, parse_int(tok[2], NULL), 1, pl, 9);
		} else if (!strcmp(tok[0], "heartbeat") && n == 3) {
			heartbeat(t, parse_int(tok[2], NULL));
		} else if (!strcmp(tok[0], "gap") && n == 4) {
			unsigned char pl[12];
			uint64_t c = t->prev;
			uint32_t blocks = (uint32_t)parse_int(tok[2], NULL);

			close_current(t);
			block_open(t, c, UINT32_MAX);
			put(pl, blocks, 4);
			put(pl + 4, parse_int(tok[3], NULL), 8);
			write_event(t, c, 2, pl, 12);
			block_close(t, UINT32_MAX);
			t->block_id += blocks;
		} else if (!strcmp(tok[0], "skip") && n == 3) {
			close_current(t);
			t->block_id += (uint32_t)parse_int(tok[2], NULL);
		} else if (!strcmp(tok[0], "flush") && n == 2) {
			close_current(t);
		} else {
			die("'%s': unknown command or wrong number of arguments", tok[0]);
		}
	}
	g.line = 0;
}

static const char synth_xml[] =
	"<facility name=\"synth\">\n"
	"  <event name=\"tick\"><struct>\n"
	"    <field name=\"seq\"><uint size=\"8\"/></field>\n"
	"    <field name=\"value\"><int size=\"4\"/></field>\n"
	"    <field name=\"flag\"><uint size=\"1\"/></field></struct></event>\n"
	"  <event name=\"msg\"><struct>\n"
	"    <field name=\"seq\"><uint size=\"8\"/></field>\n"
	"    <field name=\"text\"><string/></field></struct></event>\n"
	"</facility>\n";

static void synth(uint64_t n)
{
	unsigned char pl[64];
	uint64_t c = g.start_cycles;
	unsigned tick = 0, msg = 0;

	for (unsigned i = 0; i < g.nfac; i++)
		if (!strcmp(g.fac[i].d->name, "synth")) {
			tick = g.fac[i].base;
			msg = tick + 1;
		}
	for (uint64_t i = 0; i < n; i++) {
		struct tfw *t;
		char cpu[16];

		snprintf(cpu, sizeof(cpu), "%u", (unsigned)(i % g.cpus));
		t = tf_get(cpu);
		c += 100;
		put(pl, i, 8);
		if (i % 8 == 7) {
			memcpy(pl + 8, "hello, trace", 13);
			write_event(t, c, msg, pl, 21);
		} else {
			put(pl + 8, (uint32_t)(int32_t)(i % 1000) - 500, 4);
			pl[12] = (unsigned char)(i & 1);
			write_event(t, c, tick, pl, 13);
		}
	}
}

static void add_facility(const char *buf, size_t len, const char *name)
{
	char err[512];
	struct ltt_eventdefs *defs;
	uint32_t base = 20;

	if (ltt_eventdefs_parse_mem(buf, len, name, &defs, err, sizeof(err)))
		die("%s", err);
	for (uint32_t k = 0; k < defs->n_facilities; k++) {
		struct fac *f;

		if (g.nfac == MAX_FAC)
			die("too many facilities");
		if (g.nfac)
			base = g.fac[g.nfac - 1].base + g.fac[g.nfac - 1].d->n_events;
		f = &g.fac[g.nfac++];
		f->defs = k ? NULL : defs;
		f->d = &defs->facilities[k];
		f->base = base;
		if (ltt_facility_to_xml(f->d, &f->xml))
			die("out of memory");
		f->xml_len = strlen(f->xml);
	}
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		die("%s: %s", path, strerror(errno));
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
		die("%s: read error", path);
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static void write_file(const char *rel, const char *text, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", g.dir, rel);
	f = fopen(path, "wb");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f))
		die("%s: cannot write", path);
}

static void mkdirs(void)
{
	static const char *const sub[] = { "", "/eventdefs", "/info", "/control", "/cpu" };
	char path[4096];

	for (size_t i = 0; i < sizeof(sub) / sizeof(sub[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", g.dir, sub[i]);
		if (mkdir(path, 0755) && errno != EEXIST)
			die("%s: %s", path, strerror(errno));
	}
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "cps", required_argument, NULL, 'C' },
		{ "start-cycles", required_argument, NULL, 'S' },
		{ NULL, 0, NULL, 0 },
	};
	const char *script = NULL, *xmls[MAX_FAC];
	unsigned nxml = 0;
	uint64_t nsynth = 0;
	char sys[2048];
	int c, n;

	while ((c = getopt_long(argc, argv, "o:e:a:b:c:f:s:n:", lo, NULL)) != -1) {
		switch (c) {
		case 'o': g.dir = optarg; break;
		case 'e': g.be = !strcmp(optarg, "big"); break;
		case 'a':
			if (ltt_arch_size_parse(optarg, &g.arch))
				die("-a %s: expected LP32, ILP32, LP64 or ILP64", optarg);
			break;
		case 'b': g.bs = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'c': g.cpus = (unsigned)strtoul(optarg, NULL, 0); break;
		case 'f':
			if (nxml == MAX_FAC)
				die("too many -f");
			xmls[nxml++] = optarg;
			break;
		case 's': script = optarg; break;
		case 'n': nsynth = strtoull(optarg, NULL, 0); break;
		case 'C': g.cps = strtoull(optarg, NULL, 0); break;
		case 'S': g.start_cycles = strtoull(optarg, NULL, 0); break;
		default: die("usage: see the comment at the top of tests/progs/mktrace.c");
		}
	}
	if (!g.dir || g.bs < 64 || !g.cps || !g.cpus)
		die("usage: mktrace -o DIR [options] (see tests/progs/mktrace.c)");
	mkdirs();
	if (nsynth)
		add_facility(synth_xml, sizeof(synth_xml) - 1, "synth");
	for (unsigned i = 0; i < nxml; i++) {
		size_t len;
		char *buf = slurp(xmls[i], &len);

		add_facility(buf, len, xmls[i]);
		free(buf);
	}
	/* control files: facility_load per facility, empty processes and interrupts */
	tf_get("control/facilities");
	tf_get("control/processes");
	tf_get("control/interrupts");
	for (unsigned i = 0; i < g.nfac; i++) {
		unsigned char pl[300];
		size_t nl = strlen(g.fac[i].d->name);
		char rel[300];

		memcpy(pl, g.fac[i].d->name, nl + 1);
		put(pl + nl + 1, g.fac[i].d->checksum, 4);
		put(pl + nl + 5, g.fac[i].base, 4);
		write_event(tf_get("control/facilities"), g.start_cycles, 0, pl, (uint32_t)nl + 9);
		snprintf(rel, sizeof(rel), "eventdefs/%s.xml", g.fac[i].d->name);
		write_file(rel, g.fac[i].xml, g.fac[i].xml_len);
	}
	if (script) {
		FILE *in = strcmp(script, "-") ? fopen(script, "r") : stdin;

		if (!in)
			die("%s: %s", script, strerror(errno));
		run_script(in);
	}
	if (nsynth)
		synth(nsynth);
	for (unsigned i = 0; i < g.ntf; i++) {
		close_current(&g.tf[i]);
		tf_open_file(&g.tf[i]);
		if (fclose(g.tf[i].f))
			die("%s: write error", g.tf[i].name);
		free(g.tf[i].blk);
	}
	n = snprintf(sys, sizeof(sys),
		     "<system\nnode_name=\"mktrace\"\ndomainname=\"(none)\"\ncpu=\"%u\"\narch_size=\"%s\"\n"
		     "endian=\"%s\"\nkernel_name=\"Linux\"\nkernel_release=\"test\"\nkernel_version=\"test\"\n"
		     "machine=\"test\"\nprocessor=\"unknown\"\nhardware_platform=\"unknown\"\n"
		     "operating_system=\"GNU/Linux\"\nltt_major_version=\"2\"\nltt_minor_version=\"10\"\n"
		     "ltt_block_size=\"%u\"\nltt_writer=\"mktrace\"\nltt_clock=\"monotonic\"\n"
		     "ltt_cycles_per_second=\"%llu\"\nltt_start_cycles=\"%llu\"\n"
		     "ltt_start_time=\"%llu.%09llu\"\nltt_mode=\"discard\"\nltt_program=\"mktrace\"\n"
		     "ltt_pid=\"1\"\n>\nsynthetic trace\n</system>\n",
		     g.cpus, ltt_arch_size_name(g.arch), g.be ? "big" : "little", g.bs,
		     (unsigned long long)g.cps, (unsigned long long)g.start_cycles,
		     (unsigned long long)(g.start_ns / 1000000000ull),
		     (unsigned long long)(g.start_ns % 1000000000ull));
	write_file("info/system.xml", sys, (size_t)n);
	for (unsigned i = 0; i < g.nfac; i++) {
		free(g.fac[i].xml);
		ltt_eventdefs_free(g.fac[i].defs);
	}
	return 0;
}
