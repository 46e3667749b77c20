/* SPDX-License-Identifier: MIT */
/* Text helpers of the Trace2 dump formats (normal, perf, event): a line writer that knows its
 * column, Trace2's time stamps, its shell-style quoting of argv, and a JSON syntax check. */
#ifndef LTT_TOOLKIT_TRACE2_TEXT_H
#define LTT_TOOLKIT_TRACE2_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "toolkit/dump_out.h"
#include "toolkit/trace2_model.h"

/* Writes one line into a dump_out, counting its bytes (Trace2 pads by byte count). */
struct t2_line {
	struct dump_out *o;
	size_t col;
	int term;	/* a text format (normal, perf): what t2_mem writes is terminal text */
};

/* s as terminal text (common/escape_term.h), counted as written. */
void t2_term(struct t2_line *l, const char *s, size_t n);

static inline void t2_mem(struct t2_line *l, const char *s, size_t n)
{
	if (__builtin_expect(l->term, 0)) {
		t2_term(l, s, n);
		return;
	}
	dump_out_mem(l->o, s, n);
	l->col += n;
}

static inline void t2_str_out(struct t2_line *l, const char *s)
{
	t2_mem(l, s, strlen(s));
}

static inline void t2_char(struct t2_line *l, char c)
{
	dump_out_char(l->o, c);
	l->col++;
}

/* Spaces up to column col. */
void t2_pad(struct t2_line *l, size_t col);
void t2_printf(struct t2_line *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Seconds with 6 decimals from nanoseconds, printed with printf's `%*.6f` (width 0: none). */
void t2_seconds(struct t2_line *l, uint64_t ns, int width);
/* "HH:MM:SS.uuuuuu" in local time (Trace2's normal and perf targets). */
void t2_local_time(struct t2_line *l, uint64_t ns);
/* "YYYY-MM-DDTHH:MM:SS.uuuuuuZ" (the event target). */
void t2_utc_time(struct t2_line *l, uint64_t ns);
/* The argv field shell-quoted where needed, separated by spaces (Git's sq_quote_argv_pretty). */
void t2_argv_pretty(struct t2_line *l, const struct t2_event *e, const char *field);
/* The argv field as a JSON array of strings. */
void t2_argv_json(struct t2_line *l, const struct t2_event *e, const char *field);
/* A JSON string literal. */
void t2_json_string(struct t2_line *l, const char *s);
/* Nonzero when s[0..n) is exactly one JSON value (with optional white space around). */
int t2_json_valid(const char *s, size_t n);

#endif
