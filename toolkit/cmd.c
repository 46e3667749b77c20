/* SPDX-License-Identifier: MIT */
/* What every subcommand uses to talk to its user: one-line errors and the --help test (toolkit/cmd.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
	fprintf(stderr, "ltt %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
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
