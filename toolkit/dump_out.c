/* SPDX-License-Identifier: MIT */
/* Buffered output of `ltt dump` (toolkit/dump_format.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/escape_c.h"
#include "common/escape_csv.h"
#include "common/escape_json.h"
#include "common/escape_term.h"
#include "common/escape_xml.h"
#include "common/io.h"
#include "toolkit/dump_out.h"

int dump_out_flush(struct dump_out *o)
{
	if (o->len && !o->error)
		o->error = ltt_write_all(o->fd, o->buf, o->len);
	o->len = 0;
	return o->error;
}

const char dump_digit_pairs[201] =
	"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
	"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
	"8081828384858687888990919293949596979899";

/* Writes v in decimal ending at end; returns the first digit. */
static inline char *utoa_rev(char *end, uint64_t v)
{
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		end -= 2;
		memcpy(end, dump_digit_pairs + 2 * r, 2);
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, dump_digit_pairs + 2 * v, 2);
	} else {
		*--end = (char)('0' + v);
	}
	return end;
}

void dump_out_u64(struct dump_out *o, uint64_t v)
{
	dump_out_commit(o, dump_put_u64(dump_out_reserve(o, 20), v));
}

void dump_out_i64(struct dump_out *o, int64_t v)
{
	if (v < 0) {
		dump_out_char(o, '-');
		dump_out_u64(o, (uint64_t)0 - (uint64_t)v);
	} else {
		dump_out_u64(o, (uint64_t)v);
	}
}

void dump_out_time(struct dump_out *o, uint64_t ns)
{
	/* consecutive events mostly share their seconds: keep the last one formatted */
	static uint64_t last_sec = UINT64_MAX;
	static char sec_str[24];
	static size_t sec_len;
	uint64_t sec = ns / 1000000000ull;
	uint32_t frac = (uint32_t)(ns % 1000000000ull);
	char *p;

	if (sec != last_sec) {
		char tmp[24], *s = utoa_rev(tmp + sizeof(tmp), sec);

		sec_len = (size_t)(tmp + sizeof(tmp) - s);
		memcpy(sec_str, s, sec_len);
		last_sec = sec;
	}
	p = dump_out_reserve(o, sec_len + 10);
	memcpy(p, sec_str, sec_len);
	p += sec_len;
	*p = '.';
	for (int i = 8; i >= 2; i -= 2) {
		memcpy(p + i, dump_digit_pairs + 2 * (frac % 100), 2);
		frac /= 100;
	}
	p[1] = (char)('0' + frac);
	o->len += sec_len + 10;
}

void dump_out_double(struct dump_out *o, double d)
{
	char tmp[40];

	if (isnan(d) || isinf(d)) {
		dump_out_str(o, isnan(d) ? "nan" : d < 0 ? "-inf" : "inf");
		return;
	}
	snprintf(tmp, sizeof(tmp), "%.15g", d);
	if (strtod(tmp, NULL) != d)
		snprintf(tmp, sizeof(tmp), "%.17g", d);
	dump_out_str(o, tmp);
}

/* The escapers' inline cores (common/escape_*.h) with dump_out as the sink: runs copied whole, one
 * escape at a time. */
void dump_out_json_body(struct dump_out *o, const char *s, size_t n)
{
	char e[LTT_JSON_ESC_MAX];
	size_t i = 0;

	while (i < n) {
		size_t run = ltt_json_plain(s + i, n - i);

		dump_out_mem(o, s + i, run);
		i += run;
		if (i < n)
			dump_out_mem(o, e, ltt_json_escape_byte((unsigned char)s[i++], e));
	}
}

void dump_out_json_string(struct dump_out *o, const char *s, size_t n)
{
	dump_out_char(o, '"');
	dump_out_json_body(o, s, n);
	dump_out_char(o, '"');
}

void dump_out_c_string(struct dump_out *o, const char *s, size_t n)
{
	char e[LTT_C_ESC_MAX];
	int hex = 0;

	dump_out_char(o, '"');
	for (size_t i = 0; i < n; ) {
		size_t j = ltt_c_plain(s, i, n, hex), k;

		dump_out_mem(o, s + i, j - i);
		i = j;
		hex = 0;
		if (i < n) {
			k = ltt_c_escape_byte((unsigned char)s[i++], e);
			dump_out_mem(o, e, k);
			hex = k == 4;
		}
	}
	dump_out_char(o, '"');
}

void dump_out_xml_text(struct dump_out *o, const char *s, size_t n)
{
	char e[LTT_XML_ESC_MAX];
	size_t i = 0, elen;

	while (i < n) {
		size_t run = ltt_xml_plain(s + i, n - i);

		dump_out_mem(o, s + i, run);
		i += run;
		if (i < n) {
			i += ltt_xml_escape_unit(s + i, n - i, e, &elen);
			dump_out_mem(o, e, elen);
		}
	}
}

void dump_out_term(struct dump_out *o, const char *s, size_t n)
{
	char e[3 * LTT_TERM_ESC_MAX];
	size_t i = 0, elen;

	while (i < n) {
		size_t run = ltt_term_plain(s + i, n - i);

		dump_out_mem(o, s + i, run);
		i += run;
		if (i < n) {
			i += ltt_term_escape_unit(s + i, n - i, e, &elen);
			dump_out_mem(o, e, elen);
		}
	}
}

void dump_out_csv_body(struct dump_out *o, const char *s, size_t n)
{
	for (const char *e = s + n, *p; s < e; s = p + 1) {
		p = memchr(s, '"', (size_t)(e - s));
		if (!p) {
			dump_out_mem(o, s, (size_t)(e - s));
			break;
		}
		dump_out_mem(o, s, (size_t)(p - s + 1));
		dump_out_char(o, '"');
	}
}

void dump_out_csv_field(struct dump_out *o, const char *s, size_t n, int quote)
{
	if (!quote && !ltt_csv_needs_quotes(s, n)) {
		dump_out_mem(o, s, n);
		return;
	}
	dump_out_char(o, '"');
	dump_out_csv_body(o, s, n);
	dump_out_char(o, '"');
}

void dump_out_printf(struct dump_out *o, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		dump_out_mem(o, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}
