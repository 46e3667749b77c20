/* SPDX-License-Identifier: MIT */
/* Output formats of `ltt dump`: each fmt_NAME.c under tools/ defines one
 *
 *     const struct ltt_dump_format ltt_fmt_NAME = { .name = "NAME", ... };
 *
 * and the Makefile lists it in ltt-fmts.h, so `ltt dump --format=NAME` finds it. cmd_dump.c opens the
 * trace set, applies the filters and calls begin once, event once per event shown (in merge order),
 * and end once. A format writes with the dump_out_* helpers (toolkit/dump_out.h: buffered, no stdio
 * per event).
 * Callbacks return 0 or a negative errno (a write error stops the dump). */
#ifndef LTT_TOOLKIT_DUMP_FORMAT_H
#define LTT_TOOLKIT_DUMP_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ltt/reader.h>

#include "toolkit/dump_out.h"

/* ---- formats --------------------------------------------------------------------------------------- */

struct ltt_dump_ctx {
	struct dump_out *out;
	struct ltt_reader *reader;
	unsigned ntraces;	/* > 1: say which trace each event belongs to */
	unsigned all;		/* --all: builtin events are shown */
	unsigned brief;		/* --brief: formats leave out times, files and lines (stable output) */
	unsigned time_mode;	/* --time: DUMP_TIME_ABS, _REL (since time_base), _DELTA (since the
				 * previous event shown) */
	uint64_t time_base;	/* the earliest block_start of the trace set */
	uint64_t time_prev;	/* the previous event shown (DUMP_TIME_DELTA) */
	void *priv;		/* the format's own state, set in begin */
	/* dump_put_shown_time's cache (zero at the start, as cmd_dump.c's memset leaves it): the
	 * seconds it wrote last, in digits (consecutive events mostly share them) */
	uint64_t sec_cached;
	uint32_t sec_len;	/* 0: nothing cached */
	char sec_digits[32];
};

struct ltt_dump_format {
	const char *name;
	const char *summary;	/* one line for `ltt dump --help` */
	int (*begin)(struct ltt_dump_ctx *ctx);		/* may be NULL */
	int (*event)(struct ltt_dump_ctx *ctx, const struct ltt_event *ev);
	int (*end)(struct ltt_dump_ctx *ctx);		/* may be NULL; also frees priv */
	/* 1: an event's output depends on that event only (no state from earlier events, no priv):
	 * `ltt dump --threads` may format events in parallel processes (toolkit/par.h). */
	unsigned per_event;
	/* 1: the format is also given the loss records (events_lost, blocks_lost: toolkit/losses.h), of
	 * every thread, not counted by --limit (ltt dump --format=calls cuts calls across a loss). */
	unsigned losses;
};

enum { DUMP_TIME_ABS, DUMP_TIME_REL, DUMP_TIME_DELTA };

/* The time --time shows of ns, in pieces: its seconds in ctx->sec_digits (ctx->sec_len digits,
 * 16 bytes readable) and its nanoseconds, returned. Called once per event shown, in order (DELTA
 * keeps the previous time). */
DUMP_INLINE uint32_t dump_shown_time(struct ltt_dump_ctx *ctx, uint64_t ns)
{
	uint64_t t = ns, sec;
	uint32_t frac;

	if (ctx->time_mode == DUMP_TIME_REL)
		t = ns > ctx->time_base ? ns - ctx->time_base : 0;
	else if (ctx->time_mode == DUMP_TIME_DELTA) {
		t = ctx->time_prev && ns > ctx->time_prev ? ns - ctx->time_prev : 0;
		ctx->time_prev = ns;
	}
	sec = t / 1000000000ull;
	frac = (uint32_t)(t - sec * 1000000000ull);
	if (__builtin_expect(sec != ctx->sec_cached || !ctx->sec_len, 0)) {
		ctx->sec_len = (uint32_t)(dump_put_u64(ctx->sec_digits, sec) - ctx->sec_digits);
		ctx->sec_cached = sec;
	}
	return frac;
}

/* ".NNNNNNNNN" of the nanoseconds frac < 10^9. */
DUMP_INLINE char *dump_put_frac(char *p, uint32_t frac)
{
	p[0] = '.';
	p[1] = (char)('0' + frac / 100000000u);
	return dump_put_8(p + 2, frac % 100000000u);
}

/* The time of an event as --time shows it: seconds since the Epoch, since the trace start, or since
 * the previous event shown (0 for the first), 9 decimals (at most 30 bytes). Called once per event
 * shown, in order (DELTA keeps the previous time). */
DUMP_INLINE char *dump_put_shown_time(struct ltt_dump_ctx *ctx, char *p, uint64_t ns)
{
	uint32_t frac = dump_shown_time(ctx, ns);

	memcpy(p, ctx->sec_digits, 16);	/* at most 11 digits (2^64 ns) */
	return dump_put_frac(p + ctx->sec_len, frac);
}

/* The shown time, the n bytes of mid (a literal with DUMP_PAD readable bytes after it, n <= DUMP_PAD),
 * then ns in decimal (the columns time and ts_ns of json and csv; at most 62 + DUMP_PAD bytes). With
 * --time=abs the digits of ns are those of the time without its point, written from the same
 * registers. */
DUMP_INLINE char *dump_put_time_ns(struct ltt_dump_ctx *ctx, char *w, uint64_t ns, const char *mid, size_t n)
{
	uint32_t frac = dump_shown_time(ctx, ns);

	memcpy(w, ctx->sec_digits, 16);
	w += ctx->sec_len;
	if (ctx->time_mode == DUMP_TIME_ABS && ctx->sec_cached) {
		uint64_t d = dump_digits8(frac % 100000000u);
		char f0 = (char)('0' + frac / 100000000u);

		w[0] = '.';
		w[1] = f0;
		memcpy(w + 2, &d, 8);
		w = dump_put_padded(w + 10, mid, n);
		memcpy(w, ctx->sec_digits, 16);
		w += ctx->sec_len;
		w[0] = f0;
		memcpy(w + 1, &d, 8);
		return w + 9;
	}
	w = dump_put_frac(w, frac);
	w = dump_put_padded(w, mid, n);
	return dump_put_u64(w, ns);
}

#endif
