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
/* Waits for the program to end and reaps it (its wait status in *status), forwarding stopped first:
 * no signal ever reaches a later process with its pid (0, or a negative errno). */
int forward_wait(pid_t pid, int *status);
/* After the program ended. */
void forward_restore(void);

#endif
