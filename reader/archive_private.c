/* SPDX-License-Identifier: MIT */
/* Private temporary directories of archives being read: removed by ltt_archive_remove_private(), and
 * also when the process ends without closing its reader: at exit(), and on SIGINT, SIGTERM, SIGHUP
 * and SIGPIPE while their action is the default one (`ltt dump x.tar.gz | head` ends with SIGPIPE).
 * The signal path removes the registered trees with async-signal-safe calls only (openat,
 * getdents64, unlinkat, close), then lets the signal kill the process as it would have. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "archive_int.h"

#define MAX_PRIVATE 64

struct slot {
	int used;		/* 1 once path is complete; read by signal handlers */
	pid_t owner;		/* a forked child's exit must not remove its parent's directories */
	char path[PATH_MAX];
};

static struct slot slots[MAX_PRIVATE];
static int hooks_installed;
static const int signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Empties the directory dfd (depth levels of subdirectories at most) with async-signal-safe calls. */
static void empty_dir(int dfd, int depth)
{
	char buf[4096] __attribute__((aligned(8)));

	for (;;) {
		long n;
		int removed = 0;

		lseek(dfd, 0, SEEK_SET);
		n = syscall(SYS_getdents64, dfd, buf, sizeof(buf));
		if (n <= 0)
			return;
		for (long off = 0; off < n; ) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			const char *name = d->d_name;

			off += d->d_reclen;
			if (!strcmp(name, ".") || !strcmp(name, ".."))
				continue;
			if (unlinkat(dfd, name, 0) == 0) {
				removed = 1;
			} else if ((errno == EISDIR || errno == EPERM) && depth > 0) {
				int sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

				if (sub >= 0) {
					empty_dir(sub, depth - 1);
					close(sub);
				}
				removed |= unlinkat(dfd, name, AT_REMOVEDIR) == 0;
			}
		}
		if (!removed)
			return;	/* only what cannot be removed is left */
	}
}

/* base/NAME/{info,...}/files: three levels below base. */
static void remove_base(const char *base)
{
	int fd = open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return;
	empty_dir(fd, 3);
	close(fd);
	rmdir(base);
}

static void remove_all(void)
{
	pid_t self = getpid();

	for (int i = 0; i < MAX_PRIVATE; i++) {
		/* Pairs with the release store in ltt_archive_private_register_(): path is complete. */
		if (__atomic_load_n(&slots[i].used, __ATOMIC_ACQUIRE) && slots[i].owner == self) {
			remove_base(slots[i].path);
			__atomic_store_n(&slots[i].used, 0, __ATOMIC_RELAXED);
		}
	}
}

static void on_signal(int sig)
{
	struct sigaction dfl;
	int saved = errno;

	remove_all();
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	sigaction(sig, &dfl, NULL);
	errno = saved;
	raise(sig);	/* delivered on return: the process ends as it would have */
}

/* Once: the exit hook, and the signal hooks where the program left the default action. */
static void install_hooks(void)
{
	if (hooks_installed)
		return;
	hooks_installed = 1;
	atexit(remove_all);
	for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++) {
		struct sigaction old, sa;

		if (sigaction(signals[i], NULL, &old) < 0 || old.sa_handler != SIG_DFL ||
		    (old.sa_flags & SA_SIGINFO))
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		for (size_t k = 0; k < sizeof(signals) / sizeof(signals[0]); k++)
			sigaddset(&sa.sa_mask, signals[k]);	/* one cleanup at a time */
		sigaction(signals[i], &sa, NULL);
	}
}

void ltt_archive_private_register_(const char *base)
{
	install_hooks();
	for (int i = 0; i < MAX_PRIVATE; i++) {
		if (__atomic_load_n(&slots[i].used, __ATOMIC_RELAXED))
			continue;
		if (strlen(base) >= sizeof(slots[i].path))
			return;
		strcpy(slots[i].path, base);
		slots[i].owner = getpid();
		/* Pairs with the acquire load in remove_all(): a handler sees the whole path. */
		__atomic_store_n(&slots[i].used, 1, __ATOMIC_RELEASE);
		return;
	}
	/* More than MAX_PRIVATE archives open at once: the extra ones rely on ltt_reader_close. */
}

void ltt_archive_private_unregister_(const char *base)
{
	for (int i = 0; i < MAX_PRIVATE; i++)
		if (__atomic_load_n(&slots[i].used, __ATOMIC_RELAXED) && !strcmp(slots[i].path, base))
			__atomic_store_n(&slots[i].used, 0, __ATOMIC_RELAXED);
}
