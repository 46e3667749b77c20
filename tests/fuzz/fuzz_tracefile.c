/* libFuzzer target: the tracefile decoder. The input's first byte picks the byte order (bit 0) and
 * arch_size (bits 1-2); the rest becomes cpu/0 of a trace whose facility is tests/golden/reader's
 * types.xml (every type of the format) and whose blocks are 256 bytes. Every event is read back
 * through the value API. The reader must never crash, hang or read outside the event, and every
 * problem must name a file. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <ltt/eventdefs.h>
#include <ltt/reader.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define BS 256

static const char types_xml[] =
	"<facility name=\"types\">\n"
	"  <event name=\"empty\"/>\n"
	"  <event name=\"scalars\"><struct>\n"
	"    <field name=\"u8\"><uint size=\"1\"/></field><field name=\"i16\"><int size=\"2\"/></field>\n"
	"    <field name=\"u32\"><uint size=\"4\"/></field><field name=\"i64\"><int size=\"8\"/></field>\n"
	"    <field name=\"l\"><int size=\"long\"/></field><field name=\"m\"><uint size=\"medium\"/></field>\n"
	"    <field name=\"f\"><float size=\"4\"/></field><field name=\"d\"><float size=\"8\"/></field>\n"
	"  </struct></event>\n"
	"  <event name=\"text\"><struct><field name=\"s\"><string/></field>\n"
	"    <field name=\"e\"><enum size=\"2\"><label name=\"ZERO\"/><label name=\"TEN\" value=\"10\"/></enum>"
	"</field></struct></event>\n"
	"  <event name=\"nested\"><struct>\n"
	"    <field name=\"arr\"><array size=\"3\"><typeref name=\"pair\"/></array></field>\n"
	"    <field name=\"seq\"><sequence lengthsize=\"2\"><string/></sequence></field>\n"
	"    <field name=\"u\"><union typecodesize=\"1\"><field name=\"num\"><uint size=\"4\"/></field>\n"
	"      <field name=\"str\"><string/></field></union></field>\n"
	"    <field name=\"inner\"><typeref name=\"pair\"/></field></struct></event>\n"
	"  <type name=\"pair\"><struct><field name=\"lo\"><uint size=\"2\"/></field>\n"
	"    <field name=\"hi\"><int size=\"2\"/></field></struct></type>\n"
	"</facility>\n";

static char dir[64];
static uint32_t checksum;

static void write_file(const char *rel, const void *buf, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	f = fopen(path, "wb");
	if (!f)
		abort();
	if (len && fwrite(buf, 1, len, f) != len)
		abort();
	fclose(f);
}

static void put(unsigned char *p, uint64_t v, unsigned n, int be)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (be ? 8 * (n - 1 - i) : 8 * i));
}

static void cleanup(void)
{
	static const char *const files[] = { "eventdefs/types.xml", "info/system.xml", "control/facilities",
					     "control/processes", "control/interrupts", "cpu/0", "eventdefs",
					     "info", "control", "cpu", "" };
	char path[256];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		remove(path);
	}
}

static void setup(void)
{
	static const char *const sub[] = { "eventdefs", "info", "control", "cpu" };
	struct ltt_eventdefs *d;
	char path[256], err[256];

	snprintf(dir, sizeof(dir), "/tmp/fuzz-tracefile-%d", (int)getpid());
	mkdir(dir, 0700);
	atexit(cleanup);
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, sub[i]);
		mkdir(path, 0700);
	}
	if (ltt_eventdefs_parse_mem(types_xml, sizeof(types_xml) - 1, "types.xml", &d, err, sizeof(err)))
		abort();
	checksum = d->facilities[0].checksum;
	ltt_eventdefs_free(d);
	write_file("eventdefs/types.xml", types_xml, sizeof(types_xml) - 1);
	write_file("control/processes", "", 0);
	write_file("control/interrupts", "", 0);
}

/* control/facilities: one block with block_start, facility_load types (base 20), block_end. */
static void write_facilities(int be)
{
	unsigned char b[BS] = { 0 };
	uint32_t p = 26;

	put(b, 17, 2, be);
	memcpy(b + p, "\0\0\0\0\0\0types", 11);
	put(b + p, 0, 2, be);
	p += 12;
	put(b + p, checksum, 4, be);
	put(b + p + 4, 20, 4, be);
	p += 8;
	put(b + p, 18, 2, be);
	put(b + BS - 4, p, 4, be);
	write_file("control/facilities", b, BS);
}

static void walk(const struct ltt_value *v, int depth)
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
			walk(&c, depth + 1);
	}
}

static void problem(void *arg, const struct ltt_problem *p)
{
	char buf[1024];

	(void)arg;
	if (!p->what || !*p->what)
		abort();
	ltt_problem_format(p, buf, sizeof(buf));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const arch[] = { "LP32", "ILP32", "LP64", "ILP64" };
	struct ltt_reader_options opt = { .flags = LTT_READ_BUILTIN | LTT_READ_CHECK, .problem = problem };
	struct ltt_reader *r;
	struct ltt_event ev;
	char sys[512], err[512];
	const char *paths[1] = { dir };
	int be, n, ret;

	if (!dir[0])
		setup();
	if (size < 1 || size > 64 * BS)
		return 0;
	be = data[0] & 1;
	n = snprintf(sys, sizeof(sys), "<system cpu=\"1\" arch_size=\"%s\" endian=\"%s\" ltt_major_version=\"2\" "
		     "ltt_minor_version=\"10\" ltt_block_size=\"%d\"/>\n", arch[(data[0] >> 1) & 3],
		     be ? "big" : "little", BS);
	write_file("info/system.xml", sys, (size_t)n);
	write_facilities(be);
	write_file("cpu/0", data + 1, size - 1);
	if (ltt_reader_open(&r, paths, 1, &opt, err, sizeof(err)))
		abort();	/* the directory itself is always good */
	while ((ret = ltt_reader_next(r, &ev)) == 1) {
		struct ltt_value body;

		if (!ev.type || ev.size > BS)
			abort();
		if (!ltt_event_body(&ev, &body))
			walk(&body, 0);
	}
	if (ret < 0)
		abort();
	ltt_reader_close(r);
	return 0;
}
