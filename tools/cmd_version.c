/* ltt version: prints the version of the tool. */
#include <stdio.h>

#include "cmd.h"

static int run(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("ltt %s\n", LTT_VERSION);
	return 0;
}

const struct ltt_cmd ltt_cmd_version = {
	.name = "version",
	.summary = "print the version of ltt",
	.usage = "usage: ltt version\n\nPrints the version of ltt.\n",
	.run = run,
};
