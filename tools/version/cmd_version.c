/* SPDX-License-Identifier: MIT */
/* ltt version: prints the version of the tool. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "toolkit/cmd.h"

static int run(int argc, char **argv)
{
	if (argc > 1) {
		ltt_tool_error("version", "unexpected argument '%s' (see ltt version --help)", argv[1]);
		return 2;
	}
	printf("ltt %s\n", LTT_VERSION);
	if (fflush(stdout) || ferror(stdout)) {
		ltt_tool_error("version", "standard output: %s", strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}

const struct ltt_cmd ltt_cmd_version = {
	.name = "version",
	.summary = "print the version of ltt",
	.usage = "usage: ltt version\n\nPrints the version of ltt.\n",
	.run = run,
};
