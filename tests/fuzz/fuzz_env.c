/* SPDX-License-Identifier: MIT */
/* libFuzzer target: libltt's LTT_* setting parsers (recorder/env_parse.c): sizes (LTT_BLOCK_SIZE,
 * LTT_ROTATE_SIZE, LTT_MAX_SIZE, k/M/G/T suffixes, then B or iB), numbers (milliseconds, seconds, counts, powers of two),
 * the boolean LTT_SNAPSHOT_AT_EXIT, signal names and the rule lists of LTT_EVENTS / LTT_SNAPSHOT_ON
 * (eventdefs/rules_match.h). The first byte picks the variable (one past the table: the signal parser,
 * two past: the rule lists), the rest up to a NUL or 80 bytes is the value. Checked against a reference
 * written apart (digits only, one suffix where a size is expected, exact arithmetic): the parser
 * accepts exactly what the reference accepts, with the same value, inside the variable's range; a
 * refusal is one line `NAME=VALUE: FORM` without control characters. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eventdefs/rules_match.h"
#include "recorder/env_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reference: 1 and *out when s is a value of var (unsigned __int128 arithmetic: no overflow
 * before the range check), else 0. */
static int reference(const struct ltt_env_var *var, const char *s, uint64_t *out)
{
	int sizes = var->kind == LTT_ENV_SIZE || var->kind == LTT_ENV_SIZE_POW2;
	int pow2 = var->kind == LTT_ENV_SIZE_POW2 || var->kind == LTT_ENV_POW2;
	unsigned __int128 v = 0, cap = (unsigned __int128)1 << 80;	/* stays below 2^121 shifted */
	size_t i = 0, len = strlen(s);

	if (var->kind == LTT_ENV_BOOL) {
		if (strcmp(s, "0") && strcmp(s, "1"))
			return 0;
		*out = (uint64_t)(s[0] - '0');
		return 1;
	}
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++)
		if (v < cap)
			v = v * 10 + (unsigned)(s[i] - '0');
	if (i == 0)
		return 0;
	if (i < len) {
		if (!sizes || !strchr("kKmMgGtT", s[i]) ||
		    (i + 1 != len && strcmp(s + i + 1, "B") && strcmp(s + i + 1, "iB")))
			return 0;
		v <<= s[i] == 'k' || s[i] == 'K' ? 10 : s[i] == 'm' || s[i] == 'M' ? 20 : s[i] == 'g' || s[i] == 'G' ? 30 : 40;
	}
	if (v > UINT64_MAX || v < var->min || v > var->max || (pow2 && (v & (v - 1))))
		return 0;
	*out = (uint64_t)v;
	return 1;
}

static void one_line(const char *why)
{
	for (const char *p = why; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			abort();	/* one line, nothing the terminal interprets */
}

static void check_why(const char *why, const struct ltt_env_var *var)
{
	size_t nl = strlen(var->name), nf = strlen(var->form), n = strlen(why);

	if (strncmp(why, var->name, nl) || why[nl] != '=')
		abort();	/* names the variable */
	if (n < nf || strcmp(why + n - nf, var->form))
		abort();	/* ends with the accepted form */
	one_line(why);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct ltt_env_var *var;
	char s[81], why[256], back[32];
	uint64_t v = 0, w = 0, ref = 0;
	unsigned which;
	size_t n;
	int rc, ok;

	if (size < 1)
		return 0;
	which = data[0] % (LTT_ENV_NVARS + 2);
	n = size - 1 > 80 ? 80 : size - 1;
	memcpy(s, data + 1, n);
	s[n] = 0;
	if (which == LTT_ENV_NVARS + 1) {
		why[0] = 0;
		if (ltt_rules_check(s, why, sizeof(why))) {
			if (!why[0])
				abort();
			one_line(why);
		} else {
			(void)ltt_rules_select(s, "fac", "ev");	/* a valid list matches without a fault */
		}
		return 0;
	}
	if (which == LTT_ENV_NVARS) {
		int sig = ltt_signal_number(s);

		if (sig != -1 && (sig <= 0 || sig >= NSIG || sig == SIGKILL || sig == SIGSTOP))
			abort();
		if (sig > 0) {	/* its number names it too */
			snprintf(back, sizeof(back), "%d", sig);
			if (ltt_signal_number(back) != sig)
				abort();
		}
		return 0;
	}
	var = &ltt_env_vars[which];

	why[0] = 0;
	rc = ltt_env_parse(var, s, &v, why, sizeof(why));
	ok = reference(var, s, &ref);
	if (rc != 0 && rc != -EINVAL)
		abort();
	if (ok != (rc == 0))
		abort();	/* accepts exactly what the reference does */
	if (rc == 0) {
		if (v != ref || why[0])
			abort();
		snprintf(back, sizeof(back), "%llu", (unsigned long long)v);
		if (ltt_env_parse(var, back, &w, why, sizeof(why)) || w != v)
			abort();	/* the plain number of what parsed parses to it */
	} else {
		check_why(why, var);
	}
	return 0;
}
