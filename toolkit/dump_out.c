/* SPDX-License-Identifier: MIT */
/* Buffered output of `ltt dump` (toolkit/dump_format.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "toolkit/dump_format.h"

int dump_out_flush(struct dump_out *o)
{
	size_t done = 0;

	while (done < o->len && !o->error) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			o->error = n < 0 ? -errno : -EIO;
		else
			done += (size_t)n;
	}
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

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

void dump_out_json_string(struct dump_out *o, const char *str, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, run = 0;

	dump_out_char(o, '"');
	while (i < n) {
		unsigned char c = s[i];
		size_t l;

		if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
			i++;
			run++;
			continue;
		}
		if (c >= 0x80 && (l = utf8_len(s + i, n - i))) {
			i += l;
			run += l;
			continue;
		}
		dump_out_mem(o, (const char *)s + i - run, run);
		run = 0;
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };

			dump_out_mem(o, e, 2);
		} else if (c == '\n') {
			dump_out_mem(o, "\\n", 2);
		} else if (c == '\t') {
			dump_out_mem(o, "\\t", 2);
		} else {
			char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

			dump_out_mem(o, e, 6);
		}
		i++;
	}
	dump_out_mem(o, (const char *)s + i - run, run);
	dump_out_char(o, '"');
}

void dump_out_c_string(struct dump_out *o, const char *str, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t run = 0;

	dump_out_char(o, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
			run++;
			continue;
		}
		dump_out_mem(o, (const char *)s + i - run, run);
		run = 0;
		if (c == '"' || c == '\\') {
			char e[2] = { '\\', (char)c };

			dump_out_mem(o, e, 2);
		} else if (c == '\n') {
			dump_out_mem(o, "\\n", 2);
		} else if (c == '\t') {
			dump_out_mem(o, "\\t", 2);
		} else {
			char e[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

			dump_out_mem(o, e, 4);
		}
	}
	dump_out_mem(o, (const char *)s + n - run, run);
	dump_out_char(o, '"');
}
