/* SPDX-License-Identifier: MIT */
/* What every subcommand uses to talk to its user: one-line errors and the --help test (toolkit/cmd.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/escape_term.h"
#include "toolkit/cmd.h"

void (*ltt_tool_error_sink)(const char *cmd, const char *msg);

void ltt_tool_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	if (ltt_tool_error_sink) {
		char msg[2048];

		va_start(ap, fmt);
		vsnprintf(msg, sizeof(msg), fmt, ap);
		va_end(ap);
		ltt_tool_error_sink(cmd, msg);
		return;
	}
	/* one line whatever the paths and names in it hold: the message as terminal text */
	char msg[2048], *m = msg;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(msg) && (m = malloc((size_t)n + 1))) {
		va_start(ap, fmt);
		vsnprintf(m, (size_t)n + 1, fmt, ap);
		va_end(ap);
	} else if (!m) {
		m = msg;
		n = sizeof(msg) - 1;
	}
	fprintf(stderr, "ltt %s: ", cmd);
	ltt_term_to_file(stderr, m, (size_t)n);
	fputc('\n', stderr);
	if (m != msg)
		free(m);
}

int ltt_tool_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return 0;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	}
	return 0;
}
