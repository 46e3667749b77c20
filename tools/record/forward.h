/* SPDX-License-Identifier: MIT */
/* ltt record: the signals it forwards to the program it runs (doc/recorder.md "ltt record"). */
#ifndef LTT_TOOLS_FORWARD_H
#define LTT_TOOLS_FORWARD_H

#include <sys/types.h>

/* Before fork: SIGINT, SIGTERM, SIGHUP and the snapshot signal (LTT_SNAPSHOT_SIGNAL, SIGUSR2 by
 * default; none with "none") are caught, to be sent on to the program once forward_to() names it. */
void forward_install(void);
/* In the child, before exec: the dispositions the program would have had. */
void forward_child(void);
/* In the parent: the program's pid (signals caught before are sent now). */
void forward_to(pid_t pid);
/* After the program ended. */
void forward_restore(void);

#endif
