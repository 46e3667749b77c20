/* SPDX-License-Identifier: MIT */
/* Text helpers of the Trace2 dump formats (trace2_text.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/escape_term.h"
#include "toolkit/trace2_text.h"

void t2_term(struct t2_line *l, const char *s, size_t n)
{
	char e[3 * LTT_TERM_ESC_MAX];
	size_t i = 0, elen;

	while (i < n) {
		size_t run = ltt_term_plain(s + i, n - i);

		dump_out_mem(l->o, s + i, run);
		l->col += run;
		i += run;
		if (i < n) {
			i += ltt_term_escape_unit(s + i, n - i, e, &elen);
			dump_out_mem(l->o, e, elen);
			l->col += elen;
		}
	}
}

void t2_pad(struct t2_line *l, size_t col)
{
	static const char spaces[] = "                                ";

	while (l->col < col) {
		size_t n = col - l->col;

		t2_mem(l, spaces, n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1);
	}
}

void t2_printf(struct t2_line *l, const char *fmt, ...)
{
	char buf[256], *big;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n <= 0)
		return;
	if ((size_t)n < sizeof(buf)) {
		t2_mem(l, buf, (size_t)n);
		return;
	}
	big = malloc((size_t)n + 1);	/* long strings from the trace */
	if (!big) {
		t2_mem(l, buf, sizeof(buf) - 1);
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(big, (size_t)n + 1, fmt, ap);
	va_end(ap);
	if (n > 0)
		t2_mem(l, big, (size_t)n);
	free(big);
}

void t2_seconds(struct t2_line *l, uint64_t ns, int width)
{
	/* Exact decimal rounding to microseconds, like printf("%.6f") of the double Trace2 computes
	 * from whole microseconds. */
	uint64_t us = ns / 1000u;

	t2_printf(l, "%*llu.%06llu", width > 7 ? width - 7 : 0, (unsigned long long)(us / 1000000u),
		  (unsigned long long)(us % 1000000u));
}

void t2_local_time(struct t2_line *l, uint64_t ns)
{
	time_t sec = (time_t)(ns / 1000000000u);
	struct tm tm;

	localtime_r(&sec, &tm);
	t2_printf(l, "%02d:%02d:%02d.%06lu", tm.tm_hour, tm.tm_min, tm.tm_sec,
		  (unsigned long)(ns % 1000000000u / 1000u));
}

void t2_utc_time(struct t2_line *l, uint64_t ns)
{
	time_t sec = (time_t)(ns / 1000000000u);
	struct tm tm;

	gmtime_r(&sec, &tm);
	t2_printf(l, "%4d-%02d-%02dT%02d:%02d:%02d.%06luZ", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
		  tm.tm_hour, tm.tm_min, tm.tm_sec, (unsigned long)(ns % 1000000000u / 1000u));
}

/* Git's sq_quote_buf_pretty: bare when every byte is safe, else single-quoted with ' and ! escaped. */
static void t2_sq_pretty(struct t2_line *l, const char *s, size_t n)
{
	static const char ok_punct[] = "+,-./:=@_^";
	size_t i;

	if (!n) {
		t2_mem(l, "''", 2);
		return;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      (c && strchr(ok_punct, c))))
			break;
	}
	if (i == n) {
		t2_mem(l, s, n);
		return;
	}
	t2_char(l, '\'');
	for (i = 0; i < n; ) {	/* runs through t2_mem: escaped in a text format */
		size_t j = i;

		while (j < n && s[j] != '\'' && s[j] != '!')
			j++;
		t2_mem(l, s + i, j - i);
		if (j < n) {
			t2_char(l, '\'');
			t2_char(l, '\\');
			t2_char(l, s[j]);
			t2_char(l, '\'');
			j++;
		}
		i = j;
	}
	t2_char(l, '\'');
}

static void t2_argv_pretty_one(void *arg, uint64_t i, const char *s, size_t len)
{
	struct t2_line *l = arg;

	if (i)
		t2_char(l, ' ');
	t2_sq_pretty(l, s, len);
}

void t2_argv_pretty(struct t2_line *l, const struct t2_event *e, const char *field)
{
	t2_argv_each(e, field, t2_argv_pretty_one, l);
}

static void t2_argv_json_one(void *arg, uint64_t i, const char *s, size_t len)
{
	struct t2_line *l = arg;

	if (i)
		t2_char(l, ',');
	dump_out_json_string(l->o, s, len);
}

void t2_argv_json(struct t2_line *l, const struct t2_event *e, const char *field)
{
	t2_char(l, '[');
	t2_argv_each(e, field, t2_argv_json_one, l);
	t2_char(l, ']');
}

void t2_json_string(struct t2_line *l, const char *s)
{
	dump_out_json_string(l->o, s, strlen(s));
}

/* ---- JSON syntax check (RFC 8259), iterative, bounded depth ------------------------------------- */

#define T2_JSON_DEPTH 64

static const char *t2_json_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

static const char *t2_json_string_end(const char *p, const char *end)
{
	for (p++; p < end; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '"')
			return p + 1;
		if (c < 0x20)
			return NULL;
		if (c == '\\') {
			if (++p >= end)
				return NULL;
			if (*p == 'u') {
				for (int k = 0; k < 4; k++)
					if (++p >= end || !strchr("0123456789abcdefABCDEF", *p) || !*p)
						return NULL;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return NULL;
			}
		}
	}
	return NULL;
}

static const char *t2_json_number_end(const char *p, const char *end)
{
	const char *d;

	if (p < end && *p == '-')
		p++;
	if (p < end && *p == '0') {
		p++;
	} else {
		for (d = p; p < end && *p >= '0' && *p <= '9'; p++)
			;
		if (p == d)
			return NULL;
	}
	if (p < end && *p == '.') {
		for (d = ++p; p < end && *p >= '0' && *p <= '9'; p++)
			;
		if (p == d)
			return NULL;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		for (d = p; p < end && *p >= '0' && *p <= '9'; p++)
			;
		if (p == d)
			return NULL;
	}
	return p;
}

/* One scalar at p: its end, or NULL. */
static const char *t2_json_scalar(const char *p, const char *end)
{
	static const char *const words[] = { "true", "false", "null" };

	if (*p == '"')
		return t2_json_string_end(p, end);
	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(words[i]);

		if ((size_t)(end - p) >= n && !memcmp(p, words[i], n))
			return p + n;
	}
	return t2_json_number_end(p, end);
}

int t2_json_valid(const char *s, size_t n)
{
	char stack[T2_JSON_DEPTH];	/* '{' or '[' per open container */
	const char *p = s, *end = s + n;
	int depth = 0;

	for (;;) {
		/* expecting a value */
		p = t2_json_ws(p, end);
		if (p >= end)
			return 0;
		if (*p == '{' || *p == '[') {
			if (depth == T2_JSON_DEPTH)
				return 0;
			stack[depth++] = *p++;
			p = t2_json_ws(p, end);
			if (p < end && *p == (stack[depth - 1] == '{' ? '}' : ']')) {
				p++;
				depth--;
				goto after_value;
			}
			if (stack[depth - 1] == '{')
				goto key;
			continue;
		}
		p = t2_json_scalar(p, end);
		if (!p)
			return 0;
after_value:
		for (;;) {
			p = t2_json_ws(p, end);
			if (!depth)
				return p == end;
			if (p >= end)
				return 0;
			if (*p == ',') {
				p++;
				if (stack[depth - 1] == '{')
					goto key;
				break;
			}
			if (*p != (stack[depth - 1] == '{' ? '}' : ']'))
				return 0;
			p++;
			depth--;
		}
		continue;
key:
		p = t2_json_ws(p, end);
		if (p >= end || *p != '"' || !(p = t2_json_string_end(p, end)))
			return 0;
		p = t2_json_ws(p, end);
		if (p >= end || *p != ':')
			return 0;
		p++;
	}
}
