/* SPDX-License-Identifier: MIT */
/* eventdefs/rules_match.h: event rules (LTT_EVENTS, ltt_events_set(), `ltt record --events`,
 * LTT_SNAPSHOT_ON; doc/recorder.md "Choosing events"), checked and matched straight from their text.
 * Header-only and dependency-free: the recorder (recorder/rules.c) and the tools (`ltt stats`) include
 * it, and libltt links neither the model nor the reader library.
 *
 * Syntax: a comma-separated list of globs on FACILITY.EVENT (`*` any characters, `?` one), each
 * optionally preceded by `-` (exclude); blanks around items are ignored. The last rule that matches
 * an event decides; an event no rule matches is selected when the first rule excludes (the list
 * starts from everything: "-jobs.submit"), not selected when it includes (it starts from nothing:
 * "jobs.*"). An empty list selects everything.
 */
#ifndef LTT_EVENTDEFS_RULES_MATCH_H
#define LTT_EVENTDEFS_RULES_MATCH_H

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define LTT_RULES_MAX 3800	/* bytes of a rule list: it is recorded in one event (core.event_rules) */

static inline int ltt_rule_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n';
}

/* The next item of a rule list from *p: [*b, *e) trimmed; advances *p past its comma. 0 at the end. */
static inline int ltt_rules_item(const char **p, const char **b, const char **e)
{
	const char *s = *p, *end;

	if (!s)
		return 0;
	while (ltt_rule_blank(*s))
		s++;
	if (!*s)
		return 0;
	end = s + strcspn(s, ",");
	*p = *end ? end + 1 : end;
	*b = s;
	while (end > s && ltt_rule_blank(end[-1]))
		end--;
	*e = end;
	return 1;
}

/* [b, e) into out (size n > 4) for a message: at most 64 bytes, control characters as '?', "..." when
 * cut. */
static inline void ltt_rules_shown(char *out, size_t n, const char *b, const char *e)
{
	size_t k = 0;

	for (; b < e && k < 64 && k + 4 < n; b++)
		out[k++] = (unsigned char)*b < 0x20 || *b == 0x7f ? '?' : *b;
	if (b < e && k + 3 < n)
		out[k++] = '.', out[k++] = '.', out[k++] = '.';
	out[k] = 0;
}

/* 0 when text is a valid rule list (NULL, "" and blanks are: everything), else -EINVAL with why
 * filled in (one line: control characters of the text are shown as '?'). */
static inline int ltt_rules_check(const char *text, char *why, size_t whylen)
{
	const char *s = text;

	if (!text)
		return 0;
	if (strlen(text) > LTT_RULES_MAX) {
		snprintf(why, whylen, "longer than %u bytes", LTT_RULES_MAX);
		return -EINVAL;
	}
	while (ltt_rule_blank(*s))
		s++;
	if (!*s)
		return 0;
	for (s = text;; s++) {
		const char *b = s, *e = s + strcspn(s, ","), *q;

		while (b < e && ltt_rule_blank(*b))
			b++;
		q = e;
		while (q > b && ltt_rule_blank(q[-1]))
			q--;
		if (b < q && *b == '-')
			b++;
		if (b == q) {
			snprintf(why, whylen, "an empty rule at byte %zu (two commas, a comma at an end, or '-' alone)",
				 (size_t)(s - text));
			return -EINVAL;
		}
		for (const char *c = b; c < q; c++) {
			if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
			      *c == '_' || *c == '.' || *c == '*' || *c == '?')) {
				char shown[72];

				ltt_rules_shown(shown, sizeof(shown), b, q);
				if ((unsigned char)*c < 0x20 || *c == 0x7f)
					snprintf(why, whylen, "rule '%s': byte 0x%02x is not a letter, digit, '_', '.', "
						 "'*' or '?'", shown, (unsigned char)*c);
				else
					snprintf(why, whylen, "rule '%s': '%c' is not a letter, digit, '_', '.', '*' or "
						 "'?'", shown, *c);
				return -EINVAL;
			}
		}
		s = e;
		if (!*s)
			return 0;
	}
}

/* Whether glob [p, pe) matches the whole of s (`*` any run, `?` one character). */
static inline int ltt_rule_glob(const char *p, const char *pe, const char *s)
{
	const char *star = NULL, *resume = NULL;

	while (*s) {
		if (p < pe && (*p == '?' || *p == *s)) {
			p++;
			s++;
		} else if (p < pe && *p == '*') {
			star = ++p;
			resume = s;
		} else if (star) {
			p = star;
			s = ++resume;
		} else {
			return 0;
		}
	}
	while (p < pe && *p == '*')
		p++;
	return p == pe;
}

/* Whether rule [b, e) (with its '-') matches FACILITY.EVENT. */
static inline int ltt_rule_matches(const char *b, const char *e, const char *fac, const char *ev)
{
	char name[512];

	if (b < e && *b == '-')
		b++;
	if ((size_t)snprintf(name, sizeof(name), "%s.%s", fac, ev) >= sizeof(name))
		return 0;
	return ltt_rule_glob(b, e, name);
}

/* 1 when the (valid) rule list selects fac.ev, else 0. */
static inline int ltt_rules_select(const char *text, const char *fac, const char *ev)
{
	const char *p = text, *b, *e;
	int first = 1, sel = 1;

	while (ltt_rules_item(&p, &b, &e)) {
		if (first)
			sel = *b == '-';	/* no rule matches: the opposite of the first rule */
		first = 0;
		if (ltt_rule_matches(b, e, fac, ev))
			sel = *b != '-';
	}
	return sel;
}

#endif
