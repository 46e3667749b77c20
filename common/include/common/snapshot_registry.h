/* SPDX-License-Identifier: MIT */
/* common/snapshot_registry.h: the `ltt snapshot` registry, one file per process recording a flight trace
 * (doc/flight-recorder.md "Taking a snapshot"). libltt writes it (recorder/flight_control.c), `ltt
 * snapshot` reads it and `ltt recover` removes a dead process's; nothing in it is trusted unless the
 * directory and the file belong to the user (or root) and were reached without a symlink. */
#ifndef LTT_COMMON_SNAPSHOT_REGISTRY_H
#define LTT_COMMON_SNAPSHOT_REGISTRY_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#define LTT_SNAPREG_MAX 8192	/* a registry file is never larger */

struct ltt_snapreg_entry {
	char path[PATH_MAX];		/* the flight trace directory (absolute) */
	int sig;			/* the snapshot signal, 0 for none */
	unsigned long long start;	/* the process's start time, field 22 of /proc/PID/stat */
	unsigned long long exe_dev, exe_ino;	/* the program it ran (/proc/PID/exe), 0 0: not known */
	int thread;			/* libltt's thread that takes the snapshots (signal it alone), 0: none */
	int own_handler;		/* the program installed its own handler for sig since */
};

/* Nonzero when libltt can have registered sig as the snapshot signal: 0 (none) or a signal
 * LTT_SNAPSHOT_SIGNAL accepts (not SIGKILL, SIGSTOP nor the fatal signals ltt handles itself). */
int ltt_snapreg_signal_ok(int sig);

/* The text of a registry file for e into buf: its length, or -ENAMETOOLONG. The path is one line;
 * a backslash and a newline in it are written \\ and \n. */
int ltt_snapreg_format(char *buf, size_t n, const struct ltt_snapreg_entry *e);

/* Parses the text of a registry file (len bytes, no terminator needed): 0, or -EINVAL with why. */
int ltt_snapreg_parse(const char *buf, size_t len, struct ltt_snapreg_entry *e, char *why, size_t whylen);

/* The directories where user uid's registry may be, in the order to look: $XDG_RUNTIME_DIR/ltt
 * when uid is the caller's and $XDG_RUNTIME_DIR is an absolute path, then /tmp/ltt-UID. Returns how
 * many (1 or 2). */
int ltt_snapreg_dirs(uid_t uid, char dirs[2][PATH_MAX]);

/* Opens registry directory dir of user uid: a directory (not a symlink) owned by uid or root,
 * writable by nobody else. Returns its descriptor, -ENOENT when it does not exist, or another
 * negative errno with why ("DIR: owned by user N, not by you"). */
int ltt_snapreg_open_dir(const char *dir, uid_t uid, char *why, size_t whylen);

/* Reads flight-PID in the registry directory dirfd (of user uid): a regular file (not a symlink nor
 * a FIFO) owned by uid or root, parsed. 0, -ENOENT, or another negative errno with why. */
int ltt_snapreg_read(int dirfd, int pid, uid_t uid, struct ltt_snapreg_entry *e, char *why, size_t whylen);

#endif
