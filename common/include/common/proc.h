/* SPDX-License-Identifier: MIT */
/* Which process a pid names (common/proc.c). A pid is reused once its process is reaped, so ltt never
 * signals or trusts a pid alone: it keeps the pid with the process's start time (field 22 of
 * /proc/PID/stat, clock ticks since boot), which no later process of that pid can share, and checks
 * both. Async-signal-safe (open, read, close), no allocation. */
#ifndef LTT_COMMON_PROC_H
#define LTT_COMMON_PROC_H

#include <stdint.h>

struct ltt_proc_id {
	uint64_t start;	/* field 22: start time, clock ticks since boot */
	char state;	/* field 3: R, S, D, Z (zombie: exited, not reaped), X (dead), T, t, ... */
};

/* The identity of process pid (0: this process): 0, -ESRCH when there is no such process, or -errno /
 * -EINVAL when /proc cannot be read or parsed. */
int ltt_proc_id(int pid, struct ltt_proc_id *id);

/* 1 when pid still names the process that started at `start` and has not exited (a zombie or dead
 * one counts as gone), 0 when not, a negative errno when it cannot be told (no /proc). */
int ltt_proc_alive(int pid, uint64_t start);

#endif
