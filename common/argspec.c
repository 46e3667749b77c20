// SPDX-License-Identifier: MIT
/* common/argspec.c: function tracing's argument and return value specs (common/argspec.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/argspec.h"

#define FORM_A \
	"FUNC@argN[/FMT],fpargN[/f32|/f64]... (N 1-16, fparg 1-8; FMT i, u, x with 8, 16, 32, 64, or s, c, f), several joined by ';'"
#define FORM_R "FUNC@retval[/FMT] (FMT i, u, x with 8, 16, 32, 64, or s, c, f, f32), several joined by ';'"

static int refuse(char *why, size_t wn, int retval, const char *b, size_t len, const char *what)
{
	char shown[72];
	size_t k = 0;

	for (; k < len && k < 64; k++)
		shown[k] = (unsigned char)b[k] < 0x20 || b[k] == 0x7f ? '?' : b[k];
	shown[k] = 0;
	snprintf(why, wn, "'%s%s': %s (%s)", shown, len > 64 ? "..." : "", what, retval ? FORM_R : FORM_A);
	return -EINVAL;
}

/* A number in [lo, hi] spelled by [b, e) whole, or -1. */
static int number(const char *b, const char *e, int lo, int hi)
{
	int v = 0;

	if (b == e || e - b > 3)
		return -1;
	for (; b < e; b++) {
		if (*b < '0' || *b > '9')
			return -1;
		v = v * 10 + (*b - '0');
	}
	return v >= lo && v <= hi ? v : -1;
}

/* FMT spelled by [b, e) into it (fmt, size_log2): 0, or -1. */
static int format(const char *b, const char *e, struct ltt_arg_item *it)
{
	static const char fmts[] = "?iuxscf";
	const char *f = b < e ? strchr(fmts + 1, *b) : NULL;
	int bits;

	if (!f || !*b)
		return -1;
	it->fmt = (uint8_t)(f - fmts);
	it->size_log2 = 3;
	if (b + 1 == e)
		return it->fmt == LTT_ARG_C ? (it->size_log2 = 0, 0) : 0;
	if (it->fmt == LTT_ARG_S || it->fmt == LTT_ARG_C)
		return -1;
	bits = number(b + 1, e, 8, 64);
	if (it->fmt == LTT_ARG_F)
		return bits == 32 ? (it->size_log2 = 2, 0) : bits == 64 ? 0 : -1;
	switch (bits) {
	case 8:
		it->size_log2 = 0;
		return 0;
	case 16:
		it->size_log2 = 1;
		return 0;
	case 32:
		it->size_log2 = 2;
		return 0;
	case 64:
		return 0;
	default:
		return -1;
	}
}

/* One item [b, e) into it. */
static int item(const char *b, const char *e, int retval, struct ltt_arg_item *it)
{
	const char *slash = memchr(b, '/', (size_t)(e - b)), *name_end = slash ? slash : e;
	size_t nl = (size_t)(name_end - b);
	int n;

	memset(it, 0, sizeof(*it));
	it->size_log2 = 3;
	if (retval) {
		if (nl != 6 || memcmp(b, "retval", 6))
			return -1;
		it->src = LTT_ARG_SRC_RET;
	} else if (nl > 5 && !memcmp(b, "fparg", 5)) {
		if ((n = number(b + 5, name_end, 1, 8)) < 0)
			return -1;
		it->src = LTT_ARG_SRC_FP;
		it->idx = (uint8_t)n;
		it->fmt = LTT_ARG_F;
		if (slash)
			return (format(slash + 1, e, it) || it->fmt != LTT_ARG_F) ? -1 : 0;
		return 0;
	} else if (nl > 3 && !memcmp(b, "arg", 3)) {
		if ((n = number(b + 3, name_end, 1, 16)) < 0)
			return -1;
		it->src = LTT_ARG_SRC_INT;
		it->idx = (uint8_t)n;
	} else {
		return -1;
	}
	if (!slash)
		return 0;
	if (format(slash + 1, e, it))
		return -1;
	/* f on an integer argument: its register is not the double's (fpargN is) */
	if (it->fmt == LTT_ARG_F && it->src == LTT_ARG_SRC_INT)
		return -1;
	return 0;
}

int ltt_argspec_parse(const char *text, int retval, struct ltt_arg_spec *out, unsigned *n, char *why,
		      size_t wn)
{
	const char *p = text ? text : "";
	unsigned k = 0;

	if (n)
		*n = 0;
	if (strlen(p) > LTT_ARG_LIST_MAX)
		return refuse(why, wn, retval, p, strlen(p), "longer than 4096 bytes");
	while (*p) {
		const char *b = p, *e = p + strcspn(p, ";"), *at, *q;
		struct ltt_arg_spec s;

		p = *e ? e + 1 : e;
		while (b < e && (*b == ' ' || *b == '\t'))
			b++;
		if (b == e)
			continue;
		at = memchr(b, '@', (size_t)(e - b));
		if (!at || at == b)
			return refuse(why, wn, retval, b, (size_t)(e - b), "not FUNC@ITEMS");
		if ((size_t)(at - b) >= sizeof(s.func))
			return refuse(why, wn, retval, b, (size_t)(at - b),
				      "a function glob longer than 127 bytes");
		if (k == LTT_ARG_SPECS)
			return refuse(why, wn, retval, b, (size_t)(e - b), "more than 32 specs");
		memset(&s, 0, sizeof(s));
		memcpy(s.func, b, (size_t)(at - b));
		for (q = at + 1; q <= e;) {
			const char *ie = q + strcspn(q, ",;");

			if (ie > e)
				ie = e;
			if (s.n == LTT_ARG_ITEMS)
				return refuse(why, wn, retval, b, (size_t)(e - b),
					      "more than 8 items for one function");
			if (item(q, ie, retval, &s.it[s.n]))
				return refuse(why, wn, retval, q, (size_t)(ie - q),
					      retval ? "not a return value spec" : "not an argument spec");
			s.n++;
			q = ie + 1;
		}
		if (out)
			out[k] = s;
		k++;
	}
	if (n)
		*n = k;
	return 0;
}

/* out += what was written, within n. */
#define PUT(...)                                                            \
	do {                                                                \
		int w_ = snprintf(out + k, k < n ? n - k : 0, __VA_ARGS__); \
		if (w_ > 0)                                                 \
			k += (size_t)w_;                                    \
	} while (0)

size_t ltt_arg_print(char *out, size_t n, uint8_t type, uint64_t value, const char *str)
{
	unsigned bytes = LTT_ARG_T_SIZE(type), fmt = LTT_ARG_T_FMT(type);
	uint64_t u = bytes == 8 ? value : value & ((1ull << (bytes * 8)) - 1);
	int64_t i = bytes == 8 ? (int64_t)value : (int64_t)(u << (64 - bytes * 8)) >> (64 - bytes * 8);
	size_t k = 0;

	if (n)
		out[0] = 0;
	switch (fmt) {
	case LTT_ARG_I:
		PUT("%" PRId64, i);
		break;
	case LTT_ARG_U:
		if (u > 100000)
			PUT("%#" PRIx64, u);
		else
			PUT("%" PRIu64, u);
		break;
	case LTT_ARG_X:
		PUT("%#" PRIx64, u);
		break;
	case LTT_ARG_C:
		if (u >= 0x20 && u < 0x7f && u != '\'' && u != '\\')
			PUT("'%c'", (char)u);
		else
			PUT("'\\x%02" PRIx64 "'", u);
		break;
	case LTT_ARG_F:
		if (bytes == 4) {
			float f;
			uint32_t b32 = (uint32_t)u;

			memcpy(&f, &b32, 4);
			PUT("%f", (double)f);
		} else {
			double d;

			memcpy(&d, &value, 8);
			PUT("%f", d);
		}
		break;
	case LTT_ARG_S:
		if (!value) {
			PUT("\"NULL\"");
			break;
		}
		if (type & LTT_ARG_T_BAD) {
			PUT("%#" PRIx64 " (not readable)", value);
			break;
		}
		PUT("\"");
		for (const char *c = str ? str : ""; *c; c++) {
			unsigned char ch = (unsigned char)*c;

			if (ch == '\n')
				PUT("\\n");
			else if (ch == '\t')
				PUT("\\t");
			else if (ch == '\r')
				PUT("\\r");
			else if (ch < 0x20 || ch == 0x7f)
				PUT("\\x%02x", ch);
			else
				PUT("%c", (char)ch);
		}
		PUT((type & LTT_ARG_T_CUT) ? "\"..." : "\"");
		break;
	default: /* auto: a long, hex when large (uftrace's) */
		if (i > 100000 || i < -100000)
			PUT("%#" PRIx64, u);
		else
			PUT("%" PRId64, i);
		break;
	}
	return k < n ? k : n ? n - 1 : 0;
}
