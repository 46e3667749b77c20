/* SPDX-License-Identifier: MIT */
/* The ltt command's subcommands and dump formats: each tools/COMMAND/cmd_NAME.c defines one
 * `const struct ltt_cmd ltt_cmd_NAME`, each tools/COMMAND/fmt_NAME.c one `const struct ltt_dump_format
 * ltt_fmt_NAME`; the Makefile generates the tables from file names (ltt-cmds.h, ltt-fmts.h), which
 * tools/main.c and tools/dump/cmd_dump.c include: the toolkit defines the contracts, never the list. */
#ifndef LTT_TOOLKIT_CMD_H
#define LTT_TOOLKIT_CMD_H

struct ltt_cmd {
	const char *name;
	const char *summary;	/* one line for `ltt help` */
	const char *usage;	/* full text for `ltt NAME --help` */
	int (*run)(int argc, char **argv);	/* argv[0] is the subcommand name; returns the exit status */
};

/* Prints "ltt NAME: message" on stderr, one line: the message as terminal text (common/escape_term.h:
 * a newline or an escape sequence in a path or a name is written \x0a, \x1b; '\' is written \\). */
void ltt_tool_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* When set, ltt_tool_error hands each message (the text after "ltt NAME: ", up to 2 KiB, no newline)
 * to it instead of printing it: a front end that is not a command (the Python module, python/) keeps
 * the toolkit's messages for its own errors. NULL by default. */
extern void (*ltt_tool_error_sink)(const char *cmd, const char *msg);

/* True when argv holds -h or --help before any "--". */
int ltt_tool_wants_help(int argc, char **argv);

#endif
