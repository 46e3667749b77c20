/* SPDX-License-Identifier: MIT */
/* ltt: the command-line tool; dispatches to the subcommands (tools/COMMAND/cmd_NAME.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"

#define LTT_CMD(n) extern const struct ltt_cmd ltt_cmd_##n;
#include "ltt-cmds.h"
#undef LTT_CMD

static const struct ltt_cmd *const cmds[] = {
#define LTT_CMD(n) &ltt_cmd_##n,
#include "ltt-cmds.h"
#undef LTT_CMD
	NULL
};

static void usage(FILE *out)
{
	fprintf(out, "usage: ltt COMMAND [ARGS...]   (ltt COMMAND --help for details)\n\ncommands:\n");
	for (size_t i = 0; cmds[i]; i++)
		fprintf(out, "  %-12s %s\n", cmds[i]->name, cmds[i]->summary);
}

/* Exit status after printing to stdout: 1 with a message when it could not be written. */
static int stdout_status(const char *cmd)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "ltt %s: standard output: %s\n", cmd, strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}

static const struct ltt_cmd *find(const char *name)
{
	for (size_t i = 0; cmds[i]; i++)
		if (!strcmp(cmds[i]->name, name))
			return cmds[i];
	return NULL;
}

/* "ltt[ help]: unknown command 'NAME'[; did you mean 'NEAR'?] (see ltt help)" */
static void unknown_command(const char *who, const char *name)
{
	const char *names[sizeof(cmds) / sizeof(cmds[0])];
	const char *near;
	size_t n = 0;

	for (; cmds[n]; n++)
		names[n] = cmds[n]->name;
	near = ltt_cli_nearest(name, names, n);
	if (near)
		fprintf(stderr, "%s: unknown command '%s'; did you mean '%s'? (see ltt help)\n", who, name, near);
	else
		fprintf(stderr, "%s: unknown command '%s' (see ltt help)\n", who, name);
}

int main(int argc, char **argv)
{
	const struct ltt_cmd *c;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		if (argc > 3) {
			fprintf(stderr, "ltt help: %s: one command at most (see ltt help)\n", argv[3]);
			return 2;
		}
		if (argc > 2 && !(c = find(argv[2]))) {
			unknown_command("ltt help", argv[2]);
			return 2;
		}
		if (argc > 2)
			fputs(c->usage, stdout);
		else
			usage(stdout);
		return stdout_status("help");
	}
	if (!strcmp(argv[1], "--version")) {
		if (argc > 2) {
			fprintf(stderr, "ltt: --version takes no argument ('%s')\n", argv[2]);
			return 2;
		}
		printf("ltt %s\n", LTT_VERSION);
		return stdout_status("version");
	}
	c = find(argv[1]);
	if (!c) {
		unknown_command("ltt", argv[1]);
		return 2;
	}
	if (ltt_tool_wants_help(argc - 1, argv + 1)) {
		fputs(c->usage, stdout);
		return stdout_status(c->name);
	}
	return c->run(argc - 1, argv + 1);
}
