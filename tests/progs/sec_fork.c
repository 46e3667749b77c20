/* SPDX-License-Identifier: MIT */
/* The program of tests/e2e/sec_fork.sh: records its own kernel events (sched) to argv[1], then forks
 * twice without exec. Prints, one line each, the perf descriptors (/proc/self/fd links to
 * anon_inode:[perf_event]) and perf ring mappings (/proc/self/maps) of:
 *   parent N M            before forking;
 *   child N M             a child that does not exec and records nothing;
 *   child-stopped N M     the same child after its own ltt_stop();
 *   own-before N M        a second child before it starts recording to argv[2];
 *   own N M               that child while it records its own kernel events;
 *   own-after N M         that child after its ltt_stop();
 *   parent-after N M      the parent once both children ended (its recording untouched).
 * CHILD-TRACE "-": no second child (ThreadSanitizer cannot follow threads a forked child starts). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ltt/ltt.h>

static unsigned perf_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	unsigned n = 0;
	char p[300], l[128];

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		ssize_t k;

		snprintf(p, sizeof(p), "/proc/self/fd/%s", e->d_name);
		k = readlink(p, l, sizeof(l) - 1);
		if (k > 0 && (l[k] = 0, strstr(l, "perf_event")))
			n++;
	}
	closedir(d);
	return n;
}

static unsigned perf_maps(void)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	unsigned n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "perf_event"))
			n++;
	fclose(f);
	return n;
}

static void say(const char *who)
{
	printf("%s %u %u\n", who, perf_fds(), perf_maps());
	fflush(stdout);
}

static int start(const char *path)
{
	struct ltt_options o = { 0 };

	o.path = path;
	o.kernel = "sched";
	return ltt_start(&o);
}

int main(int argc, char **argv)
{
	pid_t pid;
	int st;

	if (argc < 3 || start(argv[1])) {
		fprintf(stderr, "usage: sec_fork PARENT-TRACE CHILD-TRACE (as root: kernel events)\n");
		return 2;
	}
	usleep(20000);
	say("parent");
	pid = fork();
	if (pid == 0) {
		say("child");
		ltt_stop();
		say("child-stopped");
		_exit(0);
	}
	waitpid(pid, &st, 0);
	if (!strcmp(argv[2], "-")) {
		say("parent-after");
		return ltt_stop() || !WIFEXITED(st) || WEXITSTATUS(st);
	}
	pid = fork();
	if (pid == 0) {
		say("own-before");
		if (start(argv[2]))
			_exit(1);
		usleep(20000);
		say("own");
		ltt_stop();
		say("own-after");
		_exit(0);
	}
	waitpid(pid, &st, 0);
	say("parent-after");
	return ltt_stop() || !WIFEXITED(st) || WEXITSTATUS(st);
}
