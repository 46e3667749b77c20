/* SPDX-License-Identifier: MIT */
/* The five escapers of common/ (JSON, XML, CSV, C string, terminal text) at their limits: every control character
 * 0x00-0x1f and DEL, quotes and each language's special characters, invalid and overlong UTF-8, encoded
 * surrogates, sequences cut short at the end of the input, each with the exact expected output; every
 * sink (a buffer of room, struct ltt_buf, FILE) writes the same bytes; XML output is parsed back by
 * libxml2 and C output read back by a C-literal decoder that follows C's rules. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "common/buf.h"
#include "common/escape_c.h"
#include "common/escape_csv.h"
#include "common/escape_json.h"
#include "common/escape_term.h"
#include "common/escape_xml.h"

enum lang { JSON, XML, CSV, CSTR, TERM };

/* s (n bytes) escaped by every sink of lang: they must agree; the result (malloc'ed). Quoted forms
 * (JSON, C) lose their quotes here, so that the expectations read as the body. CSV: the field as
 * written (quoted when needed). */
static char *esc(enum lang lang, const char *s, size_t n)
{
	char *room = malloc(6 * n + 3), *mem = NULL;
	struct ltt_buf b = LTT_BUF_INIT;
	size_t len = 0, mlen = 0;
	FILE *f = open_memstream(&mem, &mlen);

	ck_assert_ptr_nonnull(room);
	ck_assert_ptr_nonnull(f);
	switch (lang) {
	case JSON:
		len = ltt_json_escape(room, s, n);
		ltt_json_to_buf(&b, s, n);
		ck_assert_int_eq(ltt_json_to_file(f, s, n), 0);
		break;
	case XML:
		len = ltt_xml_escape(room, s, n);
		ltt_xml_to_buf(&b, s, n);
		ck_assert_int_eq(ltt_xml_to_file(f, s, n), 0);
		break;
	case CSV:
		ltt_csv_to_buf(&b, s, n, 0);
		ck_assert_int_eq(ltt_csv_to_file(f, s, n, 0), 0);
		if (ltt_csv_needs_quotes(s, n)) {
			room[0] = '"';
			len = ltt_csv_escape(room + 1, s, n) + 1;
			room[len++] = '"';
		} else {
			memcpy(room, s, n);
			len = n;
		}
		break;
	case CSTR:
		len = ltt_c_escape(room, s, n);
		ltt_c_to_buf(&b, s, n);
		ck_assert_int_eq(ltt_c_to_file(f, s, n), 0);
		break;
	case TERM:
		len = ltt_term_escape(room, s, n);
		ltt_term_to_buf(&b, s, n);
		ck_assert_int_eq(ltt_term_to_file(f, s, n), 0);
		break;
	}
	fclose(f);
	room[len] = 0;
	ck_assert(!b.nomem);
	if (lang == JSON || lang == CSTR) {
		/* the buffer and file forms carry the quotes */
		ck_assert_uint_eq(b.len, len + 2);
		ck_assert_uint_eq(mlen, len + 2);
		ck_assert(b.buf[0] == '"' && b.buf[len + 1] == '"' && !memcmp(b.buf + 1, room, len));
		ck_assert(mem[0] == '"' && mem[len + 1] == '"' && !memcmp(mem + 1, room, len));
	} else {
		ck_assert_uint_eq(b.len, len);
		ck_assert_uint_eq(mlen, len);
		ck_assert(!len || !memcmp(b.buf, room, len));
		ck_assert(!len || !memcmp(mem, room, len));
	}
	ltt_buf_free(&b);
	free(mem);
	return room;
}

#define EXPECT(lang, in, want)                                                                      \
	do {                                                                                        \
		char *got_ = esc(lang, in, sizeof(in) - 1);                                         \
		ck_assert_msg(!strcmp(got_, want), "%s: got [%s], want [%s]", #lang " " #in, got_, want); \
		free(got_);                                                                         \
	} while (0)

/* ---- JSON -------------------------------------------------------------------------------------- */

START_TEST(json_controls)
{
	for (unsigned c = 0; c < 0x20; c++) {
		char in = (char)c, want[8], *got;

		if (c == '\n')
			strcpy(want, "\\n");
		else if (c == '\t')
			strcpy(want, "\\t");
		else
			snprintf(want, sizeof(want), "\\u%04x", c);
		got = esc(JSON, &in, 1);
		ck_assert_msg(!strcmp(got, want), "0x%02x: got [%s], want [%s]", c, got, want);
		free(got);
	}
	EXPECT(JSON, "\x7f", "\x7f");
	EXPECT(JSON, "a\rb\fc\bd", "a\\u000db\\u000cc\\u0008d");
}
END_TEST

START_TEST(json_specials)
{
	EXPECT(JSON, "", "");
	EXPECT(JSON, "plain text", "plain text");
	EXPECT(JSON, "q\"uote b\\ackslash /slash 'single'", "q\\\"uote b\\\\ackslash /slash 'single'");
	EXPECT(JSON, "\"\\", "\\\"\\\\");
	EXPECT(JSON, "nul\0inside", "nul\\u0000inside");
}
END_TEST

START_TEST(json_utf8)
{
	/* valid: 2, 3 and 4 bytes, the highest code point, U+FFFD and U+FFFF themselves */
	EXPECT(JSON, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	EXPECT(JSON, "\xf4\x8f\xbf\xbf \xef\xbf\xbd \xef\xbf\xbf", "\xf4\x8f\xbf\xbf \xef\xbf\xbd \xef\xbf\xbf");
	/* overlong forms */
	EXPECT(JSON, "\xc0\x80", "\\u00c0\\u0080");
	EXPECT(JSON, "\xc1\xbf", "\\u00c1\\u00bf");
	EXPECT(JSON, "\xe0\x80\x80", "\\u00e0\\u0080\\u0080");
	EXPECT(JSON, "\xf0\x80\x80\x80", "\\u00f0\\u0080\\u0080\\u0080");
	/* encoded surrogates */
	EXPECT(JSON, "\xed\xa0\x80", "\\u00ed\\u00a0\\u0080");
	EXPECT(JSON, "\xed\xbf\xbf", "\\u00ed\\u00bf\\u00bf");
	/* past U+10FFFF, bytes that never start a sequence, stray continuation bytes */
	EXPECT(JSON, "\xf4\x90\x80\x80", "\\u00f4\\u0090\\u0080\\u0080");
	EXPECT(JSON, "\xf5\xf8\xfe\xff", "\\u00f5\\u00f8\\u00fe\\u00ff");
	EXPECT(JSON, "a\x80z", "a\\u0080z");
	/* cut short at the end of the input, and in the middle (the next byte is read again) */
	EXPECT(JSON, "end \xc3", "end \\u00c3");
	EXPECT(JSON, "end \xe2\x82", "end \\u00e2\\u0082");
	EXPECT(JSON, "end \xf0\x9f\x98", "end \\u00f0\\u009f\\u0098");
	EXPECT(JSON, "\xe2\x82" "A\xc3\xa9", "\\u00e2\\u0082A\xc3\xa9");
	/* tests/golden/reader/kinds.json's string, as ltt dump has always written it */
	EXPECT(JSON, "bad \xff \xc0\x80 \xed\xa0\x80 \xc3", "bad \\u00ff \\u00c0\\u0080 \\u00ed\\u00a0\\u0080 \\u00c3");
}
END_TEST

/* The output of any input is valid JSON string content: valid UTF-8, no control character, every
 * backslash starting one of the escapes JSON has. */
START_TEST(json_any_bytes_valid)
{
	unsigned x = 12345;

	for (int round = 0; round < 20000; round++) {
		unsigned char in[16];
		size_t n = (size_t)(round % 16);
		char *got;
		size_t len;

		for (size_t i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			in[i] = (unsigned char)(x >> 16);
		}
		got = esc(JSON, (const char *)in, n);
		len = strlen(got);
		for (size_t i = 0; i < len; ) {
			size_t l = ltt_utf8_len((const unsigned char *)got + i, len - i);

			ck_assert_msg(l > 0, "invalid UTF-8 in output at %zu", i);
			ck_assert((unsigned char)got[i] >= 0x20);
			ck_assert(got[i] != '"');
			if (got[i] == '\\') {
				ck_assert(strchr("\"\\nt", got[i + 1]) || !strncmp(got + i + 1, "u00", 3));
				i += got[i + 1] == 'u' ? 6 : 2;
				continue;
			}
			i += l;
		}
		free(got);
	}
}
END_TEST

/* ---- XML --------------------------------------------------------------------------------------- */

#define FFFD "\xef\xbf\xbd"

START_TEST(xml_controls)
{
	for (unsigned c = 0; c < 0x20; c++) {
		char in[3] = { 'a', (char)c, 'b' }, *got;
		const char *want = c == '\t' ? "a&#9;b" : c == '\n' ? "a&#10;b" : c == '\r' ? "a&#13;b" : "ab";

		got = esc(XML, in, 3);
		ck_assert_msg(!strcmp(got, want), "0x%02x: got [%s], want [%s]", c, got, want);
		free(got);
	}
	EXPECT(XML, "\x7f", "\x7f");
}
END_TEST

START_TEST(xml_specials)
{
	EXPECT(XML, "", "");
	EXPECT(XML, "a & b < c > d \"e\" 'f'", "a &amp; b &lt; c &gt; d &quot;e&quot; 'f'");
	EXPECT(XML, "&amp;", "&amp;amp;");
	EXPECT(XML, "]]>", "]]&gt;");
}
END_TEST

START_TEST(xml_utf8)
{
	EXPECT(XML, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf", "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf");
	EXPECT(XML, FFFD, FFFD);
	/* U+FFFE and U+FFFF are not XML characters: one U+FFFD each */
	EXPECT(XML, "<\xef\xbf\xbe>\xef\xbf\xbf", "&lt;" FFFD "&gt;" FFFD);
	EXPECT(XML, "\xc0\x80", FFFD FFFD);
	EXPECT(XML, "\xe0\x80\x80", FFFD FFFD FFFD);
	EXPECT(XML, "\xf0\x80\x80\x80", FFFD FFFD FFFD FFFD);
	EXPECT(XML, "\xed\xa0\x80", FFFD FFFD FFFD);
	EXPECT(XML, "\xed\xbf\xbf", FFFD FFFD FFFD);
	EXPECT(XML, "\xff" "a\x80", FFFD "a" FFFD);
	EXPECT(XML, "end \xc3", "end " FFFD);
	EXPECT(XML, "end \xf0\x9f\x98", "end " FFFD FFFD FFFD);
}
END_TEST

/* libxml2, the consumer: every byte value alone and random strings, written as an attribute value and
 * as element content, parse; the values read back are what the rule says (here: the input with its
 * left-out and replaced bytes applied is what esc wrote, so comparing libxml2's value with the
 * expected decoding of esc's output). */
static void xml_parses(const char *in, size_t n)
{
	char *got = esc(XML, in, n), *doc;
	size_t len = strlen(got);
	xmlDocPtr d;
	xmlChar *a, *t;
	struct ltt_buf want = LTT_BUF_INIT;

	/* what the references stand for */
	for (size_t i = 0; i < len; i++) {
		static const char *const ref[][2] = { { "&amp;", "&" }, { "&lt;", "<" }, { "&gt;", ">" },
						     { "&quot;", "\"" }, { "&#9;", "\t" }, { "&#10;", "\n" },
						     { "&#13;", "\r" } };
		size_t k;

		for (k = 0; k < 7; k++)
			if (!strncmp(got + i, ref[k][0], strlen(ref[k][0])))
				break;
		if (k < 7) {
			ltt_buf_puts(&want, ref[k][1]);
			i += strlen(ref[k][0]) - 1;
		} else {
			ltt_buf_putc(&want, got[i]);
		}
	}
	ltt_buf_putc(&want, 0);
	ck_assert(asprintf(&doc, "<r a=\"%s\">%s</r>", got, got) > 0);
	d = xmlReadMemory(doc, (int)strlen(doc), "t.xml", "UTF-8", XML_PARSE_NONET | XML_PARSE_NOERROR |
			  XML_PARSE_NOWARNING);
	ck_assert_msg(d != NULL, "libxml2 refused %s", doc);
	a = xmlGetProp(xmlDocGetRootElement(d), (const xmlChar *)"a");
	t = xmlNodeGetContent(xmlDocGetRootElement(d));
	ck_assert_str_eq((const char *)a, want.buf);
	/* element content: a CR written &#13; comes back as CR as well */
	ck_assert_str_eq((const char *)t, want.buf);
	xmlFree(a);
	xmlFree(t);
	xmlFreeDoc(d);
	free(doc);
	free(got);
	ltt_buf_free(&want);
}

START_TEST(xml_libxml2_reads_it)
{
	unsigned x = 777;

	for (unsigned c = 0; c < 256; c++) {
		char in[3] = { 'x', (char)c, 'y' };

		xml_parses(in, 3);
	}
	for (int round = 0; round < 3000; round++) {
		char in[12];
		size_t n = (size_t)(round % 12);

		for (size_t i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			in[i] = (char)(x >> 16);
		}
		xml_parses(in, n);
	}
}
END_TEST

/* ---- CSV --------------------------------------------------------------------------------------- */

START_TEST(csv_fields)
{
	EXPECT(CSV, "", "");
	EXPECT(CSV, "plain", "plain");
	EXPECT(CSV, "a,b", "\"a,b\"");
	EXPECT(CSV, "say \"hi\"", "\"say \"\"hi\"\"\"");
	EXPECT(CSV, "\"", "\"\"\"\"");
	EXPECT(CSV, "two\nlines", "\"two\nlines\"");
	EXPECT(CSV, "cr\r", "\"cr\r\"");
	/* no escapes in CSV: other controls, DEL and bytes that are not UTF-8 stay as they are */
	EXPECT(CSV, "t\tab\x01\x1f\x7f \xff\xc0\x80", "t\tab\x01\x1f\x7f \xff\xc0\x80");
	EXPECT(CSV, "'single' ;semi", "'single' ;semi");
}
END_TEST

START_TEST(csv_controls)
{
	for (unsigned c = 0; c < 0x20; c++) {
		char in = (char)c, *got = esc(CSV, &in, 1);

		if (c == '\n' || c == '\r')
			ck_assert(got[0] == '"' && got[1] == (char)c && got[2] == '"' && !got[3]);
		else
			ck_assert(got[0] == (char)c && (c == 0 || !got[1]));
		free(got);
	}
}
END_TEST

START_TEST(csv_forced)
{
	struct ltt_buf b = LTT_BUF_INIT;

	ltt_csv_to_buf(&b, "", 0, 1);
	ltt_buf_putc(&b, ',');
	ltt_csv_to_buf(&b, "x", 1, 1);
	ltt_buf_putc(&b, ',');
	ltt_csv_to_buf(&b, "a\"b", 3, 1);
	ck_assert_str_eq(b.buf, "\"\",\"x\",\"a\"\"b\"");
	ltt_buf_free(&b);
}
END_TEST

/* ---- C strings --------------------------------------------------------------------------------- */

START_TEST(c_controls)
{
	for (unsigned c = 0; c < 0x20; c++) {
		char in[2] = { (char)c, 'z' }, want[8], *got;

		if (c == '\n')
			strcpy(want, "\\nz");
		else if (c == '\t')
			strcpy(want, "\\tz");
		else
			snprintf(want, sizeof(want), "\\x%02xz", c);
		got = esc(CSTR, in, 2);
		ck_assert_msg(!strcmp(got, want), "0x%02x: got [%s], want [%s]", c, got, want);
		free(got);
	}
	EXPECT(CSTR, "del\x7f!", "del\\x7f!");
}
END_TEST

START_TEST(c_specials)
{
	EXPECT(CSTR, "", "");
	EXPECT(CSTR, "q\"uote b\\ackslash 'single'", "q\\\"uote b\\\\ackslash 'single'");
	/* tests/golden/reader/kinds.txt's strings, as ltt dump has always written them */
	EXPECT(CSTR, "ctl\x01\x1f del\x7f end", "ctl\\x01\\x1f del\\x7f end");
	EXPECT(CSTR, "utf-8 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "utf-8 \\xc3\\xa9\\xe2\\x82\\xac\\xf0\\x9f\\x98\\x80");
	EXPECT(CSTR, "bad \xff \xc0\x80 \xed\xa0\x80 \xc3", "bad \\xff \\xc0\\x80 \\xed\\xa0\\x80 \\xc3");
	EXPECT(CSTR, "\xe0\x80\x80\xf0\x80\x80\x80\xed\xbf\xbf", "\\xe0\\x80\\x80\\xf0\\x80\\x80\\x80\\xed\\xbf\\xbf");
	/* trigraphs: no "??" in the output */
	EXPECT(CSTR, "what?" "?=", "what?\\?=");
	EXPECT(CSTR, "???", "?\\?\\?");
	EXPECT(CSTR, "?a?", "?a?");
	/* a hex digit right after \xHH would join the escape: written \xHH too, the whole run */
	EXPECT(CSTR, "\xff" "abcg", "\\xff\\x61\\x62\\x63g");
	EXPECT(CSTR, "\x01" "09F", "\\x01\\x30\\x39\\x46");
	EXPECT(CSTR, "\x01g\x02 1", "\\x01g\\x02 1");
	EXPECT(CSTR, "\nab\tcd", "\\nab\\tcd");
}
END_TEST

/* C's reading of a literal body: \xH... takes every hex digit (its value modulo 256 for char), \ooo up
 * to three octal digits, the named escapes; trigraphs are replaced first. Returns the bytes. */
static size_t c_read(const char *s, char *out)
{
	size_t n = 0;

	ck_assert_ptr_null(strstr(s, "??"));	/* no trigraph can form */
	for (size_t i = 0; s[i]; ) {
		ck_assert(s[i] != '"' && s[i] != '\n');
		if (s[i] != '\\') {
			out[n++] = s[i++];
			continue;
		}
		i++;
		switch (s[i]) {
		case 'n': out[n++] = '\n'; i++; break;
		case 't': out[n++] = '\t'; i++; break;
		case '\\': case '"': case '?': case '\'': out[n++] = s[i++]; break;
		case 'x': {
			unsigned v = 0, digits = 0;

			for (i++; ltt_c_is_hex_digit((unsigned char)s[i]); i++, digits++)
				v = v * 16 + (unsigned)(s[i] <= '9' ? s[i] - '0' : (s[i] | 0x20) - 'a' + 10);
			ck_assert_msg(digits == 2, "an \\x escape of %u digits: C would read another value", digits);
			out[n++] = (char)v;
			break;
		}
		default:
			ck_abort_msg("unknown escape \\%c", s[i]);
		}
	}
	return n;
}

START_TEST(c_reads_back)
{
	unsigned x = 4242;
	const char alphabet[] = "\x01?a9F\"\\\n\t\xff\x80g ";

	for (int round = 0; round < 50000; round++) {
		char in[14], back[14 * 4];
		size_t n = (size_t)(round % 14);
		char *got;

		for (size_t i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			in[i] = round & 1 ? (char)(x >> 16) : alphabet[(x >> 16) % (sizeof(alphabet) - 1)];
		}
		got = esc(CSTR, in, n);
		ck_assert_uint_eq(c_read(got, back), n);
		ck_assert(!memcmp(back, in, n));
		free(got);
	}
}
END_TEST

/* ---- terminal text ----------------------------------------------------------------------------- */

START_TEST(term_controls)
{
	for (unsigned c = 0; c < 0x20; c++) {
		char in = (char)c, want[8], *got;

		snprintf(want, sizeof(want), "\\x%02x", c);
		got = esc(TERM, &in, 1);
		ck_assert_msg(!strcmp(got, want), "0x%02x: got [%s], want [%s]", c, got, want);
		free(got);
	}
	EXPECT(TERM, "\x7f", "\\x7f");
	EXPECT(TERM, "", "");
	EXPECT(TERM, "plain \"text\" 'q' ~", "plain \"text\" 'q' ~");
	EXPECT(TERM, "back\\slash", "back\\\\slash");
	/* a colour change and a window title: nothing of either reaches the terminal as a control */
	EXPECT(TERM, "\x1b[31mred\x1b]0;title\x07", "\\x1b[31mred\\x1b]0;title\\x07");
	EXPECT(TERM, "two\nlines\r", "two\\x0alines\\x0d");
	EXPECT(TERM, "nul\0inside", "nul\\x00inside");
}
END_TEST

START_TEST(term_utf8)
{
	/* valid text as it is: 2, 3 and 4 bytes, U+00A0 (the first past C1), U+FFFD */
	EXPECT(TERM, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \xc2\xa0\xef\xbf\xbd",
	       "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80 \xc2\xa0\xef\xbf\xbd");
	/* C1 controls, raw (invalid UTF-8) and encoded: CSI, the first and the last */
	EXPECT(TERM, "\x9b" "31m", "\\x9b" "31m");
	EXPECT(TERM, "\xc2\x9b" "31m\xc2\x80\xc2\x9f", "\\xc2\\x9b" "31m\\xc2\\x80\\xc2\\x9f");
	/* bidirectional formatting: RLO, LRM, RLM, LRE, PDI; their neighbours U+202F, U+2065 as they are */
	EXPECT(TERM, "a\xe2\x80\xae" "b", "a\\xe2\\x80\\xaeb");
	EXPECT(TERM, "\xe2\x80\x8e\xe2\x80\x8f\xe2\x80\xaa\xe2\x81\xa9",
	       "\\xe2\\x80\\x8e\\xe2\\x80\\x8f\\xe2\\x80\\xaa\\xe2\\x81\\xa9");
	EXPECT(TERM, "\xe2\x80\xaf\xe2\x81\xa5", "\xe2\x80\xaf\xe2\x81\xa5");
	/* overlong, surrogate, past U+10FFFF, cut short */
	EXPECT(TERM, "\xc0\x80\xed\xa0\x80", "\\xc0\\x80\\xed\\xa0\\x80");
	EXPECT(TERM, "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80");
	EXPECT(TERM, "\xe2\x82", "\\xe2\\x82");
	EXPECT(TERM, "\xe2\x82z", "\\xe2\\x82z");
}
END_TEST

/* The bytes a terminal-text escape stands for (\\ and \xHH are its only escapes). */
static size_t term_read(const char *s, char *out)
{
	size_t n = 0;

	for (size_t i = 0; s[i]; ) {
		ck_assert_msg((unsigned char)s[i] >= 0x20 && s[i] != 0x7f, "control 0x%02x in the output", s[i]);
		if (s[i] != '\\') {
			out[n++] = s[i++];
		} else if (s[i + 1] == '\\') {
			out[n++] = '\\';
			i += 2;
		} else {
			unsigned v;

			ck_assert(s[i + 1] == 'x' && sscanf(s + i + 2, "%2x", &v) == 1);
			out[n++] = (char)v;
			i += 4;
		}
	}
	return n;
}

START_TEST(term_reads_back)
{
	unsigned x = 2828;
	const char alphabet[] = "\x1b\\a\n\xc2\x9b\xe2\x80\xae\xff\x80z ";

	for (int round = 0; round < 50000; round++) {
		char in[14], back[14], cut[9];
		size_t n = (size_t)(round % 14);
		char *got, *dup;
		size_t m;

		for (size_t i = 0; i < n; i++) {
			x = x * 1103515245u + 12345u;
			in[i] = round & 1 ? (char)((x >> 16) | 1) : alphabet[(x >> 16) % (sizeof(alphabet) - 1)];
		}
		got = esc(TERM, in, n);
		ck_assert_uint_eq(term_read(got, back), n);
		ck_assert(!memcmp(back, in, n));
		/* the NUL-terminated forms: whole, and cut to a prefix of whole escapes and sequences */
		in[n] = 0;
		if (!memchr(in, 0, n)) {
			dup = ltt_term_dup(in);
			ck_assert_str_eq(dup, got);
			ltt_term_str(cut, sizeof(cut), in);
			ck_assert(!strncmp(cut, got, strlen(cut)));
			ck_assert(strlen(cut) == strlen(got) || strlen(cut) + 12 > sizeof(cut) - 1);
			m = term_read(cut, back);
			ck_assert(m <= n && !memcmp(back, in, m));
			free(dup);
		}
		free(got);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("common_escape");
	TCase *tc = tcase_create("escape");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, json_controls);
	tcase_add_test(tc, json_specials);
	tcase_add_test(tc, json_utf8);
	tcase_add_test(tc, json_any_bytes_valid);
	tcase_add_test(tc, xml_controls);
	tcase_add_test(tc, xml_specials);
	tcase_add_test(tc, xml_utf8);
	tcase_add_test(tc, xml_libxml2_reads_it);
	tcase_add_test(tc, csv_fields);
	tcase_add_test(tc, csv_controls);
	tcase_add_test(tc, csv_forced);
	tcase_add_test(tc, c_controls);
	tcase_add_test(tc, c_specials);
	tcase_add_test(tc, c_reads_back);
	tcase_add_test(tc, term_controls);
	tcase_add_test(tc, term_utf8);
	tcase_add_test(tc, term_reads_back);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
