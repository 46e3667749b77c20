/* SPDX-License-Identifier: MIT */
/* recorder/secure_env.c: libltt in a secure-execution process (doc/recorder.md "Setuid and
 * file-capability programs"). A program that runs setuid, setgid or with file capabilities (the kernel
 * sets AT_SECURE) was started by a user who must not choose what it does with its privilege: every
 * LTT_* variable names a file to create or append to, a directory, a signal or a size, so libltt reads
 * its environment with secure_getenv() (glibc: NULL in such a process, secure_getenv() elsewhere) and takes
 * its settings from the options the program passes to ltt_start() only. This file says so, once, when
 * the environment held LTT_* variables that were therefore ignored. */
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "recorder.h"

extern char **environ;

#define NAME_SHOWN 48	/* bytes of a variable's name the line shows */

void ltt_secure_env_note(void)
{
	char name[NAME_SHOWN + 1];
	unsigned n = 0;
	size_t k = 0;

	if (!getauxval(AT_SECURE))
		return;
	for (char **e = environ; e && *e; e++) {
		if (strncmp(*e, "LTT_", 4))
			continue;
		if (!n++) {	/* the name as written (the user's text: letters, digits and _ shown only) */
			for (k = 0; (*e)[k] && (*e)[k] != '=' && k < NAME_SHOWN; k++) {
				char c = (*e)[k];

				name[k] = (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ? c : '?';
			}
		}
	}
	if (!n)
		return;
	name[k] = 0;
	if (n == 1)
		ltt_warn("setuid, setgid or file-capability process: %s ignored (such a process takes no LTT_* "
			 "setting from its environment, only the program's own ltt_start() options; doc/recorder.md)",
			 name);
	else
		ltt_warn("setuid, setgid or file-capability process: %s and %u more LTT_* variables ignored (such a "
			 "process takes no LTT_* setting from its environment, only the program's own ltt_start() "
			 "options; doc/recorder.md)", name, n - 1);
}
