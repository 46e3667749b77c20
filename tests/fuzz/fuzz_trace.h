/* SPDX-License-Identifier: MIT */
/* Helpers of the libFuzzer targets that fuzz one file of a trace directory (fuzz_system, fuzz_bookmarks,
 * fuzz_facilities, fuzz_merge, fuzz_tracefile): a small good trace under $TMPDIR (removed at exit),
 * written file by file, and a full read of it through the reader and the value API that aborts on any broken promise
 * (a problem without text, an event without a type or larger than its block, a string whose length
 * is wrong, an error return from ltt_reader_next). */
#ifndef LTT_FUZZ_TRACE_H
#define LTT_FUZZ_TRACE_H

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltt/eventdefs.h>
#include <ltt/reader.h>

#define FUZZ_BS 256	/* the block size of the trace */

/* A facility with every kind of type (tests/golden/reader's types.xml), at base 20. */
static const char fuzz_types_xml[] =
	"<facility name=\"types\">\n"
	"  <event name=\"empty\"/>\n"
	"  <event name=\"scalars\"><struct>\n"
	"    <field name=\"u8\"><uint size=\"1\"/></field><field name=\"i16\"><int size=\"2\"/></field>\n"
	"    <field name=\"u32\"><uint size=\"4\"/></field><field name=\"i64\"><int size=\"8\"/></field>\n"
	"  </struct></event>\n"
	"  <event name=\"text\"><struct><field name=\"s\"><string/></field>\n"
	"    <field name=\"e\"><enum size=\"2\"><label name=\"ZERO\"/><label name=\"TEN\" value=\"10\"/></enum>"
	"</field></struct></event>\n"
	"  <event name=\"nested\"><struct>\n"
	"    <field name=\"seq\"><sequence lengthsize=\"2\"><string/></sequence></field>\n"
	"    <field name=\"u\"><union typecodesize=\"1\"><field name=\"num\"><uint size=\"4\"/></field>\n"
	"      <field name=\"str\"><string/></field></union></field></struct></event>\n"
	"</facility>\n";

static char fuzz_dir[4096];
static uint32_t fuzz_types_checksum;

static int fuzz_rm(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void fuzz_trace_cleanup(void)
{
	if (fuzz_dir[0])
		nftw(fuzz_dir, fuzz_rm, 16, FTW_DEPTH | FTW_PHYS);
}

static void fuzz_trace_write(const char *rel, const void *buf, size_t len)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", fuzz_dir, rel);
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (len && fwrite(buf, 1, len, f) != len)
		abort();
	fclose(f);
}

static void fuzz_trace_remove(const char *rel)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/%s", fuzz_dir, rel);
	remove(path);
}

static void fuzz_put(unsigned char *p, uint64_t v, unsigned n, int be)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (be ? 8 * (n - 1 - i) : 8 * i));
}

/* info/system.xml of the trace: minor version 2 (2004 dialect), 5 or 10; arch_size LP32 ... ILP64. */
static void fuzz_trace_system_arch(int be, unsigned minor, unsigned cpus, const char *arch)
{
	char sys[512];
	int n = snprintf(sys, sizeof(sys), "<system cpu=\"%u\" arch_size=\"%s\" endian=\"%s\" "
			 "ltt_major_version=\"2\" ltt_minor_version=\"%u\" ltt_block_size=\"%d\" "
			 "ltt_cycles_per_second=\"1000000000\"/>\n", cpus, arch, be ? "big" : "little", minor,
			 FUZZ_BS);

	fuzz_trace_write("info/system.xml", sys, (size_t)n);
}

static void fuzz_trace_system(int be, unsigned minor, unsigned cpus)
{
	fuzz_trace_system_arch(be, minor, cpus, "LP64");
}

/* The trailer of a block whose block_end is at offset e, per dialect (doc/format.md sections 4, 10). */
static uint32_t fuzz_trailer(unsigned minor, uint32_t e)
{
	if (minor <= 2)
		return FUZZ_BS - e;
	if (minor <= 9)
		return FUZZ_BS - 4 - e - 26;
	return e;
}

/* control/facilities: one block with block_start, facility_load types (base 20), block_end. */
static void fuzz_trace_facilities(int be, unsigned minor)
{
	unsigned char b[FUZZ_BS] = { 0 };
	uint32_t p = 26;

	fuzz_put(b, 17, 2, be);
	memcpy(b + p, "\0\0\0\0\0\0types", 11);
	p += 12;
	fuzz_put(b + p, fuzz_types_checksum, 4, be);
	fuzz_put(b + p + 4, 20, 4, be);
	p += 8;
	fuzz_put(b + p, 18, 2, be);
	fuzz_put(b + FUZZ_BS - 4, fuzz_trailer(minor, p), 4, be);
	fuzz_trace_write("control/facilities", b, FUZZ_BS);
}

/* cpu/N: one block with block_start, a types.empty event and block_end. */
static void fuzz_trace_cpu(const char *rel, int be, unsigned minor)
{
	unsigned char b[FUZZ_BS] = { 0 };

	fuzz_put(b, 17, 2, be);
	fuzz_put(b + 26, 20, 2, be);
	fuzz_put(b + 32, 18, 2, be);
	fuzz_put(b + FUZZ_BS - 4, fuzz_trailer(minor, 32), 4, be);
	fuzz_trace_write(rel, b, FUZZ_BS);
}

/* Makes the directory tree once, with facility "types" from xml (base 20), then (every call) the good
 * trace: little endian, minor 10, 1 CPU, one types.empty event. */
static void fuzz_trace_reset_with(const char *name, const char *xml, size_t len)
{
	static const char *const sub[] = { "eventdefs", "info", "control", "cpu" };
	char path[4200];

	if (!fuzz_dir[0]) {
		const char *t = getenv("TMPDIR");
		struct ltt_eventdefs *d;
		char err[256];

		snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/ltt-fuzz-%s-%d", t && *t ? t : "/tmp", name, (int)getpid());
		if (mkdir(fuzz_dir, 0700))
			abort();
		atexit(fuzz_trace_cleanup);
		for (size_t i = 0; i < 4; i++) {
			snprintf(path, sizeof(path), "%s/%s", fuzz_dir, sub[i]);
			if (mkdir(path, 0700))
				abort();
		}
		if (ltt_eventdefs_parse_mem(xml, len, "types.xml", &d, err, sizeof(err)))
			abort();
		fuzz_types_checksum = d->facilities[0].checksum;
		ltt_eventdefs_free(d);
		fuzz_trace_write("eventdefs/types.xml", xml, len);
		fuzz_trace_write("control/processes", "", 0);
		fuzz_trace_write("control/interrupts", "", 0);
	}
	fuzz_trace_remove("info/bookmarks.xml");
	fuzz_trace_remove("cpu/1");
	fuzz_trace_remove("cpu/2");
	fuzz_trace_system(0, 10, 1);
	fuzz_trace_facilities(0, 10);
	fuzz_trace_cpu("cpu/0", 0, 10);
}

static void fuzz_trace_reset(const char *name)
{
	fuzz_trace_reset_with(name, fuzz_types_xml, sizeof(fuzz_types_xml) - 1);
}

static void fuzz_walk(const struct ltt_value *v, int depth)
{
	struct ltt_value c;
	size_t n;

	if (depth > 16)
		return;
	switch (v->type->kind) {
	case LTT_TYPE_STRING:
		if (strlen(ltt_value_string(v, &n)) != n)
			abort();
		break;
	case LTT_TYPE_ENUM:
		(void)ltt_value_enum_label(v);
		break;
	case LTT_TYPE_FLOAT:
		(void)ltt_value_float(v);
		break;
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
		(void)ltt_value_int(v);
		break;
	default:
		for (int r = ltt_value_first(v, &c); !r; r = ltt_value_next(v, &c))
			fuzz_walk(&c, depth + 1);
	}
}

static void fuzz_problem(void *arg, const struct ltt_problem *p)
{
	char buf[1024];

	(void)arg;
	if (!p->what || !*p->what || strchr(p->what, '\n'))
		abort();
	ltt_problem_format(p, buf, sizeof(buf));
}

/* Opens and reads the whole trace; returns the number of events, or -1 when it cannot be opened
 * (then err must say why). */
static long fuzz_trace_read(unsigned flags)
{
	struct ltt_reader_options opt = { .flags = flags, .problem = fuzz_problem };
	const char *paths[1] = { fuzz_dir };
	struct ltt_reader *r;
	struct ltt_event ev;
	char err[512] = "";
	long n = 0;
	int ret;

	if (ltt_reader_open(&r, paths, 1, &opt, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			abort();
		return -1;
	}
	while ((ret = ltt_reader_next(r, &ev)) == 1) {
		struct ltt_value body;

		if (!ev.type || ev.size > FUZZ_BS)
			abort();
		if (!ltt_event_body(&ev, &body))
			fuzz_walk(&body, 0);
		n++;
	}
	if (ret < 0)
		abort();
	ltt_reader_close(r);
	return n;
}

#endif
