/* SPDX-License-Identifier: MIT */
/* The facility model: the checksum (test vector, what changes it and what does not), the dialect,
 * enum rules, canonical XML, and the layout under every arch_size and both byte orders. Error
 * messages: tests/e2e/eventdefs_errors.sh (the golden corpus) and test_eventdefs_errors.c. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/eventdefs.h>

/* The test vector of doc/format.md section 8, quoted XML. */
static const char vector[] =
	"<facility name=\"test\">\n"
	"  <description>the test vector</description>\n"
	"  <event name=\"ev_noargs\"/>\n"
	"  <event name=\"ev_one\">\n"
	"    <struct>\n"
	"      <field name=\"a\"><uint size=\"4\"/></field>\n"
	"      <field name=\"b\"><int size=\"long\" format=\"%ld\"/></field>\n"
	"      <field name=\"s\"><string/></field>\n"
	"      <field name=\"e\"><enum size=\"1\"><label name=\"X\" value=\"1\"/><label name=\"Y\"/></enum></field>\n"
	"      <field name=\"q\"><sequence lengthsize=\"4\"><uint size=\"1\"/></sequence></field>\n"
	"      <field name=\"r\"><array size=\"3\"><typeref name=\"pair\"/></array></field>\n"
	"    </struct>\n"
	"  </event>\n"
	"  <type name=\"pair\"><struct>\n"
	"    <field name=\"lo\"><uint size=\"2\"/></field>\n"
	"    <field name=\"hi\"><uint size=\"2\"/></field>\n"
	"  </struct></type>\n"
	"</facility>\n";

#define VECTOR_SUM 0xd93ff1ceu

static struct ltt_eventdefs *parse(const char *xml)
{
	struct ltt_eventdefs *d = NULL;
	char err[512];
	int r = ltt_eventdefs_parse_mem(xml, strlen(xml), "t.xml", &d, err, sizeof(err));

	ck_assert_msg(r == 0, "parse failed: %s", err);
	return d;
}

static uint32_t sum_of(const char *xml)
{
	struct ltt_eventdefs *d = parse(xml);
	uint32_t sum = d->facilities[0].checksum;

	ck_assert_uint_eq(sum, ltt_facility_checksum(&d->facilities[0]));
	ltt_eventdefs_free(d);
	return sum;
}

/* xml with the first occurrence of `from` replaced by `to` (in one of two static buffers, so that
 * edits can be chained). */
static const char *edit(const char *xml, const char *from, const char *to)
{
	static char bufs[2][8192];
	static int which;
	char *buf = bufs[which ^= 1];
	const char *p = strstr(xml, from);

	ck_assert_msg(p != NULL, "'%s' not in the text", from);
	snprintf(buf, sizeof(bufs[0]), "%.*s%s%s", (int)(p - xml), xml, to, p + strlen(from));
	return buf;
}

START_TEST(test_vector)
{
	ck_assert_uint_eq(sum_of(vector), VECTOR_SUM);
}
END_TEST

START_TEST(test_vector_original_dialect)
{
	static const char dialect[] =
		"/* the test vector, as the 2004 tools wrote facilities */\n"
		"<facility name=test>\n"
		"  // an event without arguments\n"
		"  <event name=ev_noargs>\n"
		"    <description>no body</description>\n"
		"  </event>\n"
		"  <event name=ev_one persistent=yes><struct>\n"
		"    <field name=a><uint size=4/></field>\n"
		"    <field name=b><description>a long</description><int size=long format=\"%ld\"/></field>\n"
		"    <field name=s><string/></field>\n"
		"    <field name=e><enum size=1>X=1 Y</enum></field>\n"
		"    <field name=q><sequence lengthsize=4><uint size=1/></sequence></field>\n"
		"    <field name=r><array size=3><struct>\n"
		"      <field name=lo><uint size=2/></field> <field name=hi><uint size=2/></field>\n"
		"    </struct></array></field>\n"
		"  </struct></event>\n"
		"</facility>\n";

	/* bare values, C comments, text labels, descriptions, persistent, and a typeref written
	 * inline: none of them is hashed */
	ck_assert_uint_eq(sum_of(dialect), VECTOR_SUM);
}
END_TEST

START_TEST(checksum_ignores)
{
	ck_assert_uint_eq(sum_of(edit(vector, "the test vector", "another text entirely")), VECTOR_SUM);
	ck_assert_uint_eq(sum_of(edit(vector, "<field name=\"a\">", "<field name='a'>")), VECTOR_SUM);
	ck_assert_uint_eq(sum_of(edit(vector, "<field name=\"a\">", "<field\n  name = a >")), VECTOR_SUM);
	ck_assert_uint_eq(sum_of(edit(vector, "<event name=\"ev_one\">",
				      "<!-- c --><event name=\"ev_one\" persistent=\"yes\">/* c */")), VECTOR_SUM);
}
END_TEST

START_TEST(checksum_changes)
{
	static const char *const edits[][2] = {
		{ "name=\"test\"", "name=\"tesT\"" },			/* facility name */
		{ "name=\"ev_noargs\"", "name=\"ev_noarg\"" },		/* event name */
		{ "name=\"a\"", "name=\"A\"" },				/* field name */
		{ "<uint size=\"4\"/>", "<int size=\"4\"/>" },		/* type */
		{ "<uint size=\"4\"/>", "<uint size=\"8\"/>" },		/* size */
		{ "<uint size=\"4\"/>", "<uint size=\"medium\"/>" },	/* size keyword vs number */
		{ "format=\"%ld\"", "format=\"%lx\"" },			/* format */
		{ "<string/>", "<string format=\"%s\"/>" },		/* format added */
		{ "name=\"X\"", "name=\"Z\"" },				/* label */
		{ "value=\"1\"", "value=\"2\"" },			/* value */
		{ "value=\"1\"", "value=\"0x1\"" },			/* value as written */
		{ "<label name=\"Y\"/>", "<label name=\"Y\" value=\"2\"/>" },	/* explicit = implicit */
		{ "<enum size=\"1\">", "<enum size=\"2\">" },		/* enum size */
		{ "lengthsize=\"4\"", "lengthsize=\"2\"" },		/* sequence lengthsize */
		{ "<array size=\"3\">", "<array size=\"4\">" },		/* array length */
		{ "<field name=\"lo\"><uint size=\"2\"/>", "<field name=\"lo\"><uint size=\"1\"/>" },
		{ "<event name=\"ev_noargs\"/>", "" },			/* event removed */
	};

	for (size_t i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
		uint32_t s = sum_of(edit(vector, edits[i][0], edits[i][1]));

		ck_assert_msg(s != VECTOR_SUM, "edit %zu (%s -> %s) kept the checksum", i, edits[i][0],
			      edits[i][1]);
	}
}
END_TEST

START_TEST(union_typecodesize_not_hashed)
{
	const char *a = "<facility name=\"u\"><event name=\"e\"><struct><field name=\"v\">"
			"<union typecodesize=\"1\"><field name=\"x\"><uint size=\"1\"/></field></union>"
			"</field></struct></event></facility>";
	uint32_t s1 = sum_of(a), s2 = sum_of(edit(a, "typecodesize=\"1\"", "typecodesize=\"4\""));

	ck_assert_uint_eq(s1, s2);
	ck_assert_uint_ne(s1, sum_of(edit(edit(a, "<union typecodesize=\"1\">", "<struct>"), "</union>",
					  "</struct>")));
}
END_TEST

START_TEST(model_of_vector)
{
	struct ltt_eventdefs *d = parse(vector);
	const struct ltt_facility_desc *f = ltt_eventdefs_find(d, "test");
	const struct ltt_event_desc *ev;
	const struct ltt_type_desc *t, *e;

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_null(ltt_eventdefs_find(d, "nope"));
	ck_assert_str_eq(f->description, "the test vector");
	ck_assert_uint_eq(f->n_events, 2);
	ck_assert_uint_eq(f->n_types, 1);
	ck_assert_str_eq(f->types[0].name, "pair");
	ck_assert_uint_eq(f->line, 1);
	ck_assert_str_eq(f->file, "t.xml");
	ck_assert_ptr_null(f->events[0].body);
	ev = ltt_facility_find_event(f, "ev_one");
	ck_assert_ptr_nonnull(ev);
	ck_assert_uint_eq(ev->index, 1);
	ck_assert_uint_eq(ev->line, 4);
	ck_assert_int_eq(ev->persistent, 0);
	t = ev->body;
	ck_assert_int_eq(t->kind, LTT_TYPE_STRUCT);
	ck_assert_uint_eq(t->n_fields, 6);
	ck_assert_int_eq(t->fields[1].type->kind, LTT_TYPE_INT);
	ck_assert_uint_eq(t->fields[1].type->size, LTT_SIZE_LONG);
	ck_assert_str_eq(t->fields[1].type->format, "%ld");
	e = t->fields[3].type;
	ck_assert_int_eq(e->kind, LTT_TYPE_ENUM);
	ck_assert_uint_eq(e->n_labels, 2);
	ck_assert_str_eq(e->labels[0].name, "X");
	ck_assert_uint_eq(e->labels[0].value, 1);
	ck_assert_int_eq(e->labels[0].explicit_value, 1);
	ck_assert_str_eq(e->labels[0].value_text, "1");
	ck_assert_uint_eq(e->labels[1].value, 2);
	ck_assert_int_eq(e->labels[1].explicit_value, 0);
	ck_assert_int_eq(t->fields[4].type->kind, LTT_TYPE_SEQUENCE);
	ck_assert_uint_eq(t->fields[4].type->size, LTT_SIZE_4);
	ck_assert_int_eq(t->fields[5].type->kind, LTT_TYPE_ARRAY);
	ck_assert_uint_eq(t->fields[5].type->array_len, 3);
	/* the typeref is resolved to the named type itself */
	ck_assert_ptr_eq(t->fields[5].type->element, f->types[0].type);
	ck_assert_str_eq(t->fields[5].type->element->name, "pair");
	ltt_eventdefs_free(d);
}
END_TEST

START_TEST(enum_rules)
{
	struct ltt_eventdefs *d = parse(
		"<facility name=\"e\"><event name=\"x\"><struct><field name=\"f\"><enum size=\"2\">"
		"A <label name=\"B\" value=\"10\"/> C D=0x20 E <label name=\"F\" value=\"010\"/> G"
		"</enum></field></struct></event></facility>");
	const struct ltt_type_desc *e = d->facilities[0].events[0].body->fields[0].type;
	static const char *const names[] = { "A", "B", "C", "D", "E", "F", "G" };
	static const uint64_t values[] = { 0, 10, 11, 0x20, 0x21, 8, 9 };

	ck_assert_uint_eq(e->n_labels, 7);
	for (int i = 0; i < 7; i++) {
		ck_assert_str_eq(e->labels[i].name, names[i]);
		ck_assert_uint_eq(e->labels[i].value, values[i]);
	}
	ltt_eventdefs_free(d);
}
END_TEST

START_TEST(several_facilities)
{
	struct ltt_eventdefs *d = parse(
		"<facility name=a><event name=x/></facility>\n"
		"<facility name=b><event name=x/><event name=y/></facility>\n"
		"<facility name=a><event name=z/></facility>\n");

	ck_assert_uint_eq(d->n_facilities, 3);
	ck_assert_str_eq(d->facilities[1].name, "b");
	ck_assert_uint_eq(d->facilities[1].n_events, 2);
	ck_assert_uint_eq(d->facilities[2].line, 3);
	ck_assert_uint_ne(d->facilities[0].checksum, d->facilities[2].checksum);
	ltt_eventdefs_free(d);
}
END_TEST

START_TEST(canonical_xml_round_trip)
{
	static const char *const files[] = { "tests/eventdefs/gentypes.xml", "eventdefs/core.xml" };
	const char *src = getenv("SRCDIR");

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct ltt_eventdefs *d, *back;
		char path[4096], err[512], *xml, *again;

		snprintf(path, sizeof(path), "%s/%s", src ? src : ".", files[i]);
		ck_assert_msg(ltt_eventdefs_parse_file(path, &d, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(ltt_facility_to_xml(&d->facilities[0], &xml), 0);
		back = parse(xml);
		ck_assert_uint_eq(back->facilities[0].checksum, d->facilities[0].checksum);
		ck_assert_uint_eq(back->facilities[0].n_events, d->facilities[0].n_events);
		ck_assert_uint_eq(back->facilities[0].n_types, d->facilities[0].n_types);
		for (uint32_t k = 0; k < d->facilities[0].n_events; k++)
			ck_assert_int_eq(back->facilities[0].events[k].persistent,
					 d->facilities[0].events[k].persistent);
		/* canonical: writing it again gives the same text */
		ck_assert_int_eq(ltt_facility_to_xml(&back->facilities[0], &again), 0);
		ck_assert_str_eq(xml, again);
		free(xml);
		free(again);
		ltt_eventdefs_free(back);
		ltt_eventdefs_free(d);
	}
}
END_TEST

START_TEST(spans_model)
{
	/* a span declaration: its events and key resolved, kept through to_xml, outside the checksum */
	static const char *const evs =
		"<event name=start><struct><field name=id><uint size=4/></field><field name=w><string/></field></struct></event>"
		"<event name=stop context=tid><struct><field name=id><uint size=4/></field></struct></event>";
	char plain[1024], with[1024], *xml, *again;
	struct ltt_eventdefs *a, *b, *back;
	const struct ltt_span_desc *sp;

	snprintf(plain, sizeof(plain), "<facility name=f>%s</facility>", evs);
	snprintf(with, sizeof(with), "<facility name=f>%s<span name=job begin=start end=stop key=id>"
		 "<description>a job</description></span><span name=w2 begin=x end=y key=w/></facility>", evs);
	{	/* an unknown event is refused, naming its line */
		char err[512];
		struct ltt_eventdefs *bad = NULL;

		ck_assert_int_eq(ltt_eventdefs_parse_mem(with, strlen(with), "t.xml", &bad, err, sizeof(err)), -EINVAL);
		ck_assert_str_eq(err, "t.xml:1: span begin 'x' is not an event of facility 'f'");
		ck_assert_ptr_null(bad);
	}
	snprintf(with, sizeof(with), "<facility name=f>%s<span name=job begin=start end=stop key=id>"
		 "<description>a job</description></span></facility>", evs);
	a = parse(plain);
	b = parse(with);
	ck_assert_uint_eq(a->facilities[0].n_spans, 0);
	ck_assert_ptr_null(a->facilities[0].spans);
	ck_assert_uint_eq(b->facilities[0].n_spans, 1);
	sp = &b->facilities[0].spans[0];
	ck_assert_str_eq(sp->name, "job");
	ck_assert_str_eq(sp->key, "id");
	ck_assert_str_eq(sp->description, "a job");
	ck_assert_ptr_eq(sp->begin, &b->facilities[0].events[0]);
	ck_assert_ptr_eq(sp->end, &b->facilities[0].events[1]);
	ck_assert_uint_eq(sp->line, 1);
	ck_assert_uint_eq(a->facilities[0].checksum, b->facilities[0].checksum);
	ck_assert_int_eq(ltt_facility_to_xml(&b->facilities[0], &xml), 0);
	back = parse(xml);
	ck_assert_uint_eq(back->facilities[0].n_spans, 1);
	ck_assert_str_eq(back->facilities[0].spans[0].begin->name, "start");
	ck_assert_str_eq(back->facilities[0].spans[0].end->name, "stop");
	ck_assert_str_eq(back->facilities[0].spans[0].key, "id");
	ck_assert_int_eq(ltt_facility_to_xml(&back->facilities[0], &again), 0);
	ck_assert_str_eq(xml, again);
	free(xml);
	free(again);
	ltt_eventdefs_free(back);
	ltt_eventdefs_free(a);
	ltt_eventdefs_free(b);
}
END_TEST

START_TEST(canonical_xml_escapes)
{
	/* names holding characters XML normalizes or reserves keep their checksum through to_xml */
	struct ltt_eventdefs *d = parse("<facility name=\"a&#10;b&#9;c&#13;\"><event name=\"&lt;&amp;&quot;'\">"
					"<struct><field name=\"x\"><uint size=\"1\" format=\"%d&gt;\"/></field>"
					"</struct></event></facility>");
	struct ltt_eventdefs *back;
	char *xml;

	ck_assert_str_eq(d->facilities[0].name, "a\nb\tc\r");
	ck_assert_str_eq(d->facilities[0].events[0].name, "<&\"'");
	ck_assert_int_eq(ltt_facility_to_xml(&d->facilities[0], &xml), 0);
	back = parse(xml);
	ck_assert_str_eq(back->facilities[0].name, "a\nb\tc\r");
	ck_assert_str_eq(back->facilities[0].events[0].name, "<&\"'");
	ck_assert_uint_eq(back->facilities[0].checksum, d->facilities[0].checksum);
	free(xml);
	ltt_eventdefs_free(back);
	ltt_eventdefs_free(d);
}
END_TEST

START_TEST(original_core_2004)
{
	const char *shared = getenv("LTT_SHARED");
	struct ltt_eventdefs *d;
	char path[4096], err[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/reference/lttv-smp-example/eventdefs/core.xml",
		 shared ? shared : "../shared");
	f = fopen(path, "r");
	if (!f) {	/* the e2e script eventdefs_2004.sh reports the skip (tests/e2e/lib/reference.sh) */
		const char *req = getenv("LTT_REQUIRE_REFERENCE");

		ck_assert_msg(!req || strcmp(req, "1"), "reference data not found: %s (LTT_REQUIRE_REFERENCE=1)", path);
		return;
	}
	fclose(f);
	ck_assert_msg(ltt_eventdefs_parse_file(path, &d, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(d->n_facilities, 1);
	ck_assert_str_eq(d->facilities[0].name, "core");
	ck_assert_uint_eq(d->facilities[0].n_events, 22);
	ck_assert_str_eq(d->facilities[0].events[17].name, "block_start");
	ck_assert_uint_eq(d->facilities[0].events[17].body->fixed_size[LTT_ARCH_ILP32], 20);
	ck_assert_uint_eq(d->facilities[0].events[19].body->fixed_size[LTT_ARCH_ILP32], 16);
	ck_assert_uint_eq(d->facilities[0].checksum, 0x06588858u);
	ltt_eventdefs_free(d);
}
END_TEST

/* ---- layout ---- */

START_TEST(size_keywords)
{
	static const unsigned want[LTT_SIZE_COUNT][LTT_ARCH_COUNT] = {
		{ 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 4, 4, 4, 4 }, { 8, 8, 8, 8 },
		{ 2, 2, 2, 2 }, { 2, 4, 4, 8 }, { 4, 4, 8, 8 },
	};
	static const char *const names[] = { "1", "2", "4", "8", "short", "medium", "long" };
	enum ltt_arch_size a;
	unsigned s;

	for (unsigned i = 0; i < LTT_SIZE_COUNT; i++) {
		ck_assert_int_eq(ltt_size_parse(names[i], &s), 0);
		ck_assert_uint_eq(s, i);
		ck_assert_str_eq(ltt_size_name(i), names[i]);
		for (unsigned k = 0; k < LTT_ARCH_COUNT; k++)
			ck_assert_uint_eq(ltt_size_bytes(i, (enum ltt_arch_size)k), want[i][k]);
	}
	ck_assert_int_eq(ltt_size_parse("3", &s), -EINVAL);
	ck_assert_int_eq(ltt_size_parse("Long", &s), -EINVAL);
	ck_assert_uint_eq(ltt_size_bytes(7, LTT_ARCH_LP64), 0);
	ck_assert_uint_eq(ltt_float_bytes(LTT_SIZE_MEDIUM), 4);
	ck_assert_uint_eq(ltt_float_bytes(LTT_SIZE_LONG), 8);
	ck_assert_uint_eq(ltt_float_bytes(LTT_SIZE_SHORT), 0);
	ck_assert_uint_eq(ltt_float_bytes(LTT_SIZE_2), 0);
	ck_assert_int_eq(ltt_arch_size_parse("ILP64", &a), 0);
	ck_assert_int_eq(a, LTT_ARCH_ILP64);
	ck_assert_int_eq(ltt_arch_size_parse("lp64", &a), -EINVAL);
	ck_assert_str_eq(ltt_arch_size_name(LTT_ARCH_LP32), "LP32");
	ck_assert_int_eq(ltt_arch_size_host(), sizeof(long) == 8 ? LTT_ARCH_LP64 : LTT_ARCH_ILP32);
}
END_TEST

START_TEST(fixed_sizes)
{
	struct ltt_eventdefs *d = parse(
		"<facility name=\"l\"><event name=\"x\"><struct>"
		"<field name=\"a\"><int size=\"medium\"/></field>"		/* 2 4 4 8 */
		"<field name=\"b\"><uint size=\"long\"/></field>"		/* 4 4 8 8 */
		"<field name=\"c\"><float size=\"medium\"/></field>"		/* 4 */
		"<field name=\"d\"><float size=\"long\"/></field>"		/* 8 */
		"<field name=\"e\"><enum size=\"short\">A B</enum></field>"	/* 2 */
		"<field name=\"f\"><array size=\"3\"><uint size=\"medium\"/></array></field>"
		"<field name=\"g\"><union typecodesize=\"long\"><field name=\"p\"><uint size=\"4\"/></field>"
		"<field name=\"q\"><int size=\"4\"/></field></union></field>"
		"</struct></event></facility>");
	const struct ltt_type_desc *t = d->facilities[0].events[0].body;
	static const uint32_t want[LTT_ARCH_COUNT] = {
		2 + 4 + 4 + 8 + 2 + 6 + 4 + 4,
		4 + 4 + 4 + 8 + 2 + 12 + 4 + 4,
		4 + 8 + 4 + 8 + 2 + 12 + 8 + 4,
		8 + 8 + 4 + 8 + 2 + 24 + 8 + 4,
	};

	ck_assert_int_eq(t->variable, 0);
	for (unsigned a = 0; a < LTT_ARCH_COUNT; a++)
		ck_assert_uint_eq(t->fixed_size[a], want[a]);
	ck_assert_uint_eq(t->fields[5].type->fixed_size[LTT_ARCH_ILP64], 24);
	ltt_eventdefs_free(d);
}
END_TEST

START_TEST(variable_sizes)
{
	struct ltt_eventdefs *d = parse(vector);
	const struct ltt_type_desc *t = d->facilities[0].events[1].body;
	/* a=7, b=-1 (long), s="hi", e=2, q={9, 8, 7} (length in the trace's byte order), r=3 pairs */
	unsigned char le[64], be[64];
	size_t n, pos;

	ck_assert_int_eq(t->variable, 1);
	/* smallest sizes: 4 + long + 1 + 1 + 4 + 12 */
	ck_assert_uint_eq(t->fixed_size[LTT_ARCH_ILP32], 4 + 4 + 1 + 1 + 4 + 12);
	ck_assert_uint_eq(t->fixed_size[LTT_ARCH_LP64], 4 + 8 + 1 + 1 + 4 + 12);
	ck_assert_int_eq(t->fields[5].type->variable, 0);
	ck_assert_uint_eq(t->fields[5].type->fixed_size[LTT_ARCH_LP32], 12);

	for (int big = 0; big < 2; big++) {
		unsigned char *b = big ? be : le;

		memset(b, 0, 64);
		pos = 4 + 8;			/* a, b under LP64 */
		memcpy(b + pos, "hi", 3);
		pos += 3;
		b[pos++] = 2;			/* e */
		b[pos + (big ? 3 : 0)] = 3;	/* q's count */
		pos += 4;
		b[pos++] = 9, b[pos++] = 8, b[pos++] = 7;
		pos += 12;			/* r */
		ck_assert_int_eq(ltt_type_encoded_size(t, LTT_ARCH_LP64, big, b, sizeof(le), &n), 0);
		ck_assert_uint_eq(n, pos);
		ck_assert_uint_eq(n, 4 + 8 + 3 + 1 + 4 + 3 + 12);
		/* the same bytes under ILP32: b is 4 bytes, so s is the empty string at offset 8, e is at
		 * 9 and q's count at 10..13 holds "\0\0hi": far more elements than there are bytes */
		ck_assert_int_eq(ltt_type_encoded_size(t, LTT_ARCH_ILP32, big, b, sizeof(le), &n), -EOVERFLOW);
		/* cut short anywhere: -EOVERFLOW, never a read past the data */
		for (size_t cut = 0; cut < pos; cut++)
			ck_assert_int_eq(ltt_type_encoded_size(t, LTT_ARCH_LP64, big, b, cut, &n), -EOVERFLOW);
	}
	/* the count read in the wrong byte order is 3 << 24: runs past the data */
	ck_assert_int_eq(ltt_type_encoded_size(t, LTT_ARCH_LP64, 1, le, sizeof(le), &n), -EOVERFLOW);
	ck_assert_int_eq(ltt_type_encoded_size(t, (enum ltt_arch_size)9, 0, le, sizeof(le), &n), -EINVAL);
	ck_assert_uint_eq(ltt_read_uint("\x01\x02\x03\x04", 4, 0), 0x04030201u);
	ck_assert_uint_eq(ltt_read_uint("\x01\x02\x03\x04", 4, 1), 0x01020304u);
	ck_assert_uint_eq(ltt_read_uint("\x01\x02", 2, 1), 0x0102u);
	ltt_eventdefs_free(d);
}
END_TEST

START_TEST(union_sizes)
{
	struct ltt_eventdefs *d = parse(
		"<facility name=\"u\"><event name=\"x\"><struct><field name=\"v\">"
		"<union typecodesize=\"2\">"
		"<field name=\"a\"><uint size=\"1\"/></field>"
		"<field name=\"b\"><uint size=\"8\"/></field>"
		"<field name=\"c\"><string/></field>"
		"</union></field></struct></event></facility>");
	const struct ltt_type_desc *u = d->facilities[0].events[0].body->fields[0].type;
	static const unsigned char a[] = { 0, 0, 0x11 };
	static const unsigned char b[] = { 0, 1, 1, 2, 3, 4, 5, 6, 7, 8 };
	static const unsigned char c[] = { 2, 0, 'o', 'k', 0 };
	static const unsigned char bad[] = { 3, 0, 0, 0 };
	size_t n;

	ck_assert_int_eq(u->variable, 1);
	ck_assert_uint_eq(u->fixed_size[LTT_ARCH_LP64], 3);	/* code + the smallest alternative */
	ck_assert_int_eq(ltt_type_encoded_size(u, LTT_ARCH_LP64, 1, a, sizeof(a), &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(ltt_type_encoded_size(u, LTT_ARCH_LP64, 1, b, sizeof(b), &n), 0);
	ck_assert_uint_eq(n, 10);
	ck_assert_int_eq(ltt_type_encoded_size(u, LTT_ARCH_LP64, 0, c, sizeof(c), &n), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_int_eq(ltt_type_encoded_size(u, LTT_ARCH_LP64, 0, bad, sizeof(bad), &n), -ERANGE);
	ltt_eventdefs_free(d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("eventdefs");
	TCase *tc = tcase_create("model");
	TCase *tl = tcase_create("layout");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_vector);
	tcase_add_test(tc, test_vector_original_dialect);
	tcase_add_test(tc, checksum_ignores);
	tcase_add_test(tc, checksum_changes);
	tcase_add_test(tc, union_typecodesize_not_hashed);
	tcase_add_test(tc, model_of_vector);
	tcase_add_test(tc, enum_rules);
	tcase_add_test(tc, several_facilities);
	tcase_add_test(tc, canonical_xml_round_trip);
	tcase_add_test(tc, canonical_xml_escapes);
	tcase_add_test(tc, original_core_2004);
	tcase_add_test(tc, spans_model);
	tcase_add_test(tl, size_keywords);
	tcase_add_test(tl, fixed_sizes);
	tcase_add_test(tl, variable_sizes);
	tcase_add_test(tl, union_sizes);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tl);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
