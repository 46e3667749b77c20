/* SPDX-License-Identifier: MIT */
/* Parent and child processes traced together (tests/e2e/app_children.sh): run as `app_child`, it
 * starts itself twice as `app_child child N`, one after the other, recording child_start and
 * child_exit around each; each child records its own trace when LTT_TRACE names a directory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ltt/app.h>

static int child_main(const char *n)
{
	ltt_cmd_name("child");
	ltt_region_enter("child", "work");
	ltt_data_string("child", "n", n);
	ltt_region_leave("child", "work");
	return atoi(n);
}

int main(int argc, char **argv)
{
	ltt_cmd_start(argc, argv);
	if (argc == 3 && !strcmp(argv[1], "child"))
		return child_main(argv[2]);
	ltt_cmd_name("parent");
	for (int i = 0; i < 2; i++) {
		char n[16];
		const char *args[] = { argv[0], "child", n, NULL };
		struct ltt_child c;
		int status = 0;
		pid_t pid;

		snprintf(n, sizeof(n), "%d", i);
		ltt_child_start(&c, "self", 0, args);
		fflush(NULL);
		pid = fork();
		if (pid == 0) {
			execv("/proc/self/exe", (char *const *)args);
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			return 1;
		ltt_child_exit(&c, (int)pid, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	}
	return 0;
}
