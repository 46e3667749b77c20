/* SPDX-License-Identifier: MIT */
/* toolkit/cli_hint.c: one line for a command line that does not parse, naming the option or command at
 * fault and the fix: the nearest name that exists, the value an option needs (doc/cli.md). */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"

/* Edit distance (insertions, deletions, substitutions, transpositions of neighbours), at most 64
 * characters compared. */
static unsigned distance(const char *a, const char *b)
{
	unsigned d[65][65];
	size_t n = strnlen(a, 64), m = strnlen(b, 64);

	for (size_t i = 0; i <= n; i++)
		d[i][0] = (unsigned)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++) {
		for (size_t j = 1; j <= m; j++) {
			unsigned v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[n][m];
}

const char *ltt_cli_nearest(const char *word, const char *const *cands, size_t n)
{
	size_t len = strlen(word);
	unsigned limit = len < 6 ? 1 : len < 12 ? 2 : 3;	/* beyond that, a guess would mislead */
	unsigned best = limit + 1, ties = 0;
	const char *found = NULL;

	for (size_t i = 0; i < n; i++) {
		unsigned d = cands[i] ? distance(word, cands[i]) : best + 1;

		if (d < best) {
			best = d;
			found = cands[i];
			ties = 0;
		} else if (d == best) {
			ties++;
		}
	}
	return best <= limit && !ties ? found : NULL;	/* two as near: no guess */
}

/* The name of the value option `opt` ("--limit", "-o") takes, from the command's usage text
 * ("--limit N", "--format=F", "[-o DIR]"), into out; 0 when the usage does not say. */
static int metavar(const char *usage, const char *opt, char *out, size_t outlen)
{
	size_t n = strlen(opt);

	for (const char *p = strstr(usage, opt); p; p = strstr(p + 1, opt)) {
		const char *v = p + n, *e;

		if ((p > usage && (isalnum((unsigned char)p[-1]) || p[-1] == '-')) || (*v != ' ' && *v != '='))
			continue;
		v++;
		for (e = v; isupper((unsigned char)*e) || isdigit((unsigned char)*e) || *e == '_' || *e == '.' ||
			    *e == '|' || (*e == '-' && isupper((unsigned char)e[1]));
		     e++)
			;
		if (e - v >= 1 && isupper((unsigned char)*v) && (size_t)(e - v) < outlen) {
			snprintf(out, outlen, "%c%.*s", v[-1], (int)(e - v), v);
			return 1;
		}
	}
	return 0;
}

int ltt_cli_option_error(const char *cmd, const char *usage, int c, int argc, char **argv,
			 const struct option *lo)
{
	const char *arg = optind > 0 && optind - 1 < argc ? argv[optind - 1] : "";
	const char *names[128];
	char opt[128], mv[64], alts[512];
	size_t n = 0, len, nalt = 0, altlen = 0;
	const char *near;

	if (!strncmp(arg, "--", 2) && arg[2]) {
		len = strcspn(arg, "=");
		snprintf(opt, sizeof(opt), "%.*s", (int)len, arg);
	} else if (optopt > 0 && optopt < 128 && isgraph(optopt)) {
		snprintf(opt, sizeof(opt), "-%c", optopt);
	} else {
		snprintf(opt, sizeof(opt), "%s", arg);
	}
	if (c == ':') {
		if (metavar(usage, opt, mv, sizeof(mv)))
			ltt_tool_error(cmd, "%s needs a value: %s%s (see ltt %s --help)", opt, opt, mv, cmd);
		else
			ltt_tool_error(cmd, "%s needs a value (see ltt %s --help)", opt, cmd);
		return 2;
	}
	alts[0] = 0;
	for (const struct option *o = lo; o && o->name && n < sizeof(names) / sizeof(names[0]); o++) {
		names[n++] = o->name;
		/* a prefix of two or more options: getopt_long calls it ambiguous */
		if (opt[0] == '-' && opt[1] == '-' && opt[2] && !strncmp(o->name, opt + 2, strlen(opt + 2)) &&
		    altlen + strlen(o->name) + 5 < sizeof(alts)) {
			altlen += (size_t)snprintf(alts + altlen, sizeof(alts) - altlen, "%s--%s", nalt ? ", " : "",
						   o->name);
			nalt++;
		}
	}
	if (nalt > 1) {
		ltt_tool_error(cmd, "option '%s' is ambiguous: %s (see ltt %s --help)", opt, alts, cmd);
		return 2;
	}
	near = opt[0] == '-' && opt[1] == '-' ? ltt_cli_nearest(opt + 2, names, n) : NULL;
	if (near)
		ltt_tool_error(cmd, "unknown option '%s'; did you mean --%s? (see ltt %s --help)", opt, near, cmd);
	else
		ltt_tool_error(cmd, "unknown option '%s' (see ltt %s --help)", opt, cmd);
	return 2;
}
