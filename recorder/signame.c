/* recorder/signame.c: signals named in the environment (LTT_SNAPSHOT_SIGNAL, LTT_STACK_SIGNAL,
 * LTT_PAUSE_SIGNAL): a number, a name with or without SIG (USR2, SIGUSR2), or RTMIN+K. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

int ltt_signal_number(const char *v)
{
	const char *name;
	char *end;
	long n;

	if (!v || !*v)
		return -1;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || end == v) {
		name = !strncmp(v, "SIG", 3) ? v + 3 : v;
		n = -1;
		for (int s = 1; s < NSIG; s++) {
			const char *abbrev = sigabbrev_np(s);

			if (abbrev && !strcmp(abbrev, name)) {
				n = s;
				break;
			}
		}
		if (n < 0 && !strncmp(name, "RTMIN+", 6)) {
			long k = strtol(name + 6, &end, 10);

			if (!*end && k >= 0 && SIGRTMIN + k <= SIGRTMAX)
				n = SIGRTMIN + k;
		}
	}
	if (n <= 0 || n >= NSIG || n == SIGKILL || n == SIGSTOP)
		return -1;
	return (int)n;
}
