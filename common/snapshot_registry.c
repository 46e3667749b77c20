/* SPDX-License-Identifier: MIT */
/* common/snapshot_registry.c: the `ltt snapshot` registry's files (common/snapshot_registry.h). A file
 * flight-PID holds four lines: the trace directory, the snapshot signal, the start time, and the
 * device and inode of the program, then "thread TID" when libltt's own thread takes the snapshots
 * (the signal is sent to that thread alone), then "own-handler" when the program replaced ltt's handler
 * of the snapshot signal (doc/flight-recorder.md "Taking a snapshot"). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/snapshot_registry.h"

static void say(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	if (!why || !n)
		return;
	va_start(ap, fmt);
	vsnprintf(why, n, fmt, ap);
	va_end(ap);
}

int ltt_snapreg_signal_ok(int sig)
{
	if (sig == 0)
		return 1;
	if (sig < 1 || sig >= NSIG || sig == SIGKILL || sig == SIGSTOP)
		return 0;
	/* the fatal signals take their own snapshot (recorder/flight_signal.c refuses them) */
	return sig != SIGSEGV && sig != SIGBUS && sig != SIGILL && sig != SIGFPE && sig != SIGABRT;
}

int ltt_snapreg_format(char *buf, size_t n, const struct ltt_snapreg_entry *e)
{
	size_t k = 0;
	int m;

	for (const char *p = e->path; *p; p++) {
		if (k + 3 > n)
			return -ENAMETOOLONG;
		if (*p == '\\' || *p == '\n') {
			buf[k++] = '\\';
			buf[k++] = *p == '\n' ? 'n' : '\\';
		} else {
			buf[k++] = *p;
		}
	}
	m = snprintf(buf + k, n - k, "\n%d\n%llu\n%llu %llu\n", e->sig, e->start, e->exe_dev, e->exe_ino);
	if (m >= 0 && (size_t)m < n - k && e->thread > 0)
		m += snprintf(buf + k + m, n - k - (size_t)m, "thread %d\n", e->thread);
	if (m >= 0 && (size_t)m < n - k && e->own_handler)
		m += snprintf(buf + k + m, n - k - (size_t)m, "own-handler\n");
	if (m < 0 || (size_t)m >= n - k)
		return -ENAMETOOLONG;
	return (int)(k + (size_t)m);
}

/* A decimal number ending at the end character: 0 or -1. */
static int number(const char **p, const char *end, char stop, unsigned long long *v)
{
	const char *q = *p;
	unsigned long long x = 0;

	if (q >= end || *q < '0' || *q > '9')
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		if (x > (~0ull - 9) / 10)
			return -1;
		x = x * 10 + (unsigned long long)(*q - '0');
	}
	if (q >= end || *q != stop)
		return -1;
	*p = q + 1;
	*v = x;
	return 0;
}

int ltt_snapreg_parse(const char *buf, size_t len, struct ltt_snapreg_entry *e, char *why, size_t whylen)
{
	const char *p = buf, *end = buf + len;
	unsigned long long sig;
	size_t k = 0;

	memset(e, 0, sizeof(*e));
	for (; p < end && *p != '\n'; p++) {
		char c = *p;

		if (c == '\\') {
			if (++p >= end || (*p != '\\' && *p != 'n')) {
				say(why, whylen, "line 1: a backslash not followed by \\ or n");
				return -EINVAL;
			}
			c = *p == 'n' ? '\n' : '\\';
		} else if (c == 0) {
			say(why, whylen, "line 1: a NUL byte in the path");
			return -EINVAL;
		}
		if (k + 1 >= sizeof(e->path)) {
			say(why, whylen, "line 1: path too long");
			return -EINVAL;
		}
		e->path[k++] = c;
	}
	e->path[k] = 0;
	if (p >= end || e->path[0] != '/') {
		say(why, whylen, "line 1: not an absolute path");
		return -EINVAL;
	}
	p++;
	if (number(&p, end, '\n', &sig) || !ltt_snapreg_signal_ok(sig > 1000 ? -1 : (int)sig)) {
		say(why, whylen, "line 2: not a snapshot signal libltt can register");
		return -EINVAL;
	}
	e->sig = (int)sig;
	if (number(&p, end, '\n', &e->start) || !e->start) {
		say(why, whylen, "line 3: not a start time");
		return -EINVAL;
	}
	if (p < end && (number(&p, end, ' ', &e->exe_dev) || number(&p, end, '\n', &e->exe_ino))) {
		say(why, whylen, "line 4: not DEVICE INODE");
		return -EINVAL;
	}
	if (p < end && (size_t)(end - p) > 7 && !memcmp(p, "thread ", 7)) {
		unsigned long long tid;

		p += 7;
		if (number(&p, end, '\n', &tid) || !tid || tid > 0x3fffffff) {
			say(why, whylen, "line 5: not thread TID");
			return -EINVAL;
		}
		e->thread = (int)tid;
	}
	if (p < end && (size_t)(end - p) == 12 && !memcmp(p, "own-handler\n", 12)) {
		e->own_handler = 1;
		p = end;
	}
	if (p != end) {
		say(why, whylen, "text after line 4 (\"thread TID\" and \"own-handler\" only)");
		return -EINVAL;
	}
	return 0;
}

int ltt_snapreg_dirs(uid_t uid, char dirs[2][PATH_MAX])
{
	const char *x = secure_getenv("XDG_RUNTIME_DIR");
	int n = 0;

	if (uid == getuid() && x && x[0] == '/' && strlen(x) + 5 < PATH_MAX)
		snprintf(dirs[n++], PATH_MAX, "%s/ltt", x);
	snprintf(dirs[n++], PATH_MAX, "/tmp/ltt-%u", (unsigned)uid);
	return n;
}

int ltt_snapreg_open_dir(const char *dir, uid_t uid, char *why, size_t whylen)
{
	struct stat st;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0) {
		int e = errno;

		if (e == ENOTDIR || e == ELOOP)
			say(why, whylen, "%s: not a directory (a symlink?): not trusted", dir);
		else
			say(why, whylen, "%s: %s", dir, strerror(e));
		return -e;
	}
	if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		say(why, whylen, "%s: %s", dir, strerror(e));
		return -e;
	}
	if (st.st_uid != uid && st.st_uid != 0) {
		close(fd);
		say(why, whylen, "%s: owned by user %u, not by user %u: not trusted (remove it)", dir,
		    (unsigned)st.st_uid, (unsigned)uid);
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		close(fd);
		say(why, whylen, "%s: writable by other users: not trusted (chmod 700 it)", dir);
		return -EPERM;
	}
	return fd;
}

int ltt_snapreg_read(int dirfd, int pid, uid_t uid, struct ltt_snapreg_entry *e, char *why, size_t whylen)
{
	char name[32], buf[LTT_SNAPREG_MAX];
	struct stat st;
	ssize_t n;
	int fd, rc;

	snprintf(name, sizeof(name), "flight-%d", pid);
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		if (rc == -ELOOP)
			say(why, whylen, "%s: a symlink: not trusted", name);
		else
			say(why, whylen, "%s: %s", name, strerror(-rc));
		return rc;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		say(why, whylen, "%s: not a regular file: not trusted", name);
		return -EPERM;
	}
	if (st.st_uid != uid && st.st_uid != 0) {
		close(fd);
		say(why, whylen, "%s: owned by user %u, not by user %u: not trusted", name, (unsigned)st.st_uid,
		    (unsigned)uid);
		return -EPERM;
	}
	do
		n = pread(fd, buf, sizeof(buf), 0);
	while (n < 0 && errno == EINTR);
	rc = n < 0 ? -errno : 0;
	close(fd);
	if (rc) {
		say(why, whylen, "%s: %s", name, strerror(-rc));
		return rc;
	}
	if ((size_t)n >= sizeof(buf)) {
		say(why, whylen, "%s: larger than %d bytes: not a registry file", name, LTT_SNAPREG_MAX);
		return -EINVAL;
	}
	if (ltt_snapreg_parse(buf, (size_t)n, e, why, whylen)) {
		char tmp[256];

		snprintf(tmp, sizeof(tmp), "%s", why ? why : "");
		say(why, whylen, "%s: %s", name, tmp);
		return -EINVAL;
	}
	return 0;
}
