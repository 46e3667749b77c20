/* SPDX-License-Identifier: MIT */
/* reliab_maxrss: runs a command and prints its peak resident set size, for the tests that bound the
 * reader's memory (tests/e2e/reader_memory_bounded.sh).
 *
 *   reliab_maxrss CMD [ARGS...]
 *
 * Runs CMD with its standard streams, then writes "maxrss_kib=N" (getrusage RUSAGE_CHILDREN, the peak
 * of the one child) on file descriptor 3 if it is open, else on stderr. Exits with CMD's status, or
 * 128 + the signal that ended it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct rusage ru;
	pid_t pid;
	int st, out;

	if (argc < 2) {
		fprintf(stderr, "usage: reliab_maxrss CMD [ARGS...]\n");
		return 2;
	}
	out = fcntl(3, F_GETFD) >= 0 ? 3 : 2;
	pid = fork();
	if (pid < 0) {
		perror("reliab_maxrss: fork");
		return 2;
	}
	if (pid == 0) {
		if (out == 3)
			close(3);
		execvp(argv[1], argv + 1);
		fprintf(stderr, "reliab_maxrss: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			perror("reliab_maxrss: waitpid");
			return 2;
		}
	if (getrusage(RUSAGE_CHILDREN, &ru) < 0) {
		perror("reliab_maxrss: getrusage");
		return 2;
	}
	dprintf(out, "maxrss_kib=%ld\n", ru.ru_maxrss);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
