/* SPDX-License-Identifier: MIT */
/* recorder/fd_names.c: the fd facility (eventdefs/fd.xml, doc/format.md section 13 "File
 * descriptors"). kernel.syscall_entry and syscall_exit carry an fd as a number; what it refers to is
 * the link /proc/PID/fd/N, which the kernel names itself ("/path", "socket:[INODE]", "pipe:[INODE]").
 * As `perf trace` does, libltt reads that link while recording: for every fd at start (fd.state, from
 * /proc/self/fd), after each call that makes an fd (open, openat, creat, socket, accept: its return
 * value), and at the first call on an fd it has no name for (a pipe or socketpair, whose fds are in the
 * program's memory, or an fd the table missed). The reading is the drain thread's, a few milliseconds
 * after the call: an fd closed meanwhile has no link (no event), an fd closed and made again meanwhile
 * is named by what it held at the reading. The set of named fds is direct-mapped (a collision or a
 * close forgets a name, which is then read again): bounded memory, no allocation in the drain. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "common/grow.h"
#include "fd_names.h"
#include "kernel_int.h"
#include "recorder.h"

static const char fd_xml[] =
#include "ltt-fd-xml.h"
	;

enum { FD_STATE, FD_PATH, FD_OPEN, FD_NEVENTS };
enum { HOW_OPEN, HOW_USE };
static const char *const fd_names[FD_NEVENTS] = { "state", "path", "open" };
static uint8_t fd_enabled[FD_NEVENTS];

struct ltt_facility ltt_fd_facility = {
	.name = "fd",
	.xml = fd_xml,
	.n_events = FD_NEVENTS,
	.event_names = fd_names,
	.enabled = fd_enabled,
};

/* The strings eventdefs/fd.xml feeds the checksum (doc/format.md section 8), in order. */
static const char *const fd_strings[] = {
	"fd",
	"state", "struct", "tid", "uint32_t", "pid", "uint32_t", "fd", "uint32_t", "path", "string",
	"path", "struct", "tid", "uint32_t", "pid", "uint32_t", "fd", "uint32_t", "how", "enum uint8_t", "open",
	"use", "path", "string",
	"open", "struct", "tid", "uint32_t", "pid", "uint32_t", "dirfd", "int32_t", "path", "string",
};

__attribute__((constructor(101))) static void fd_checksum(void)
{
	ltt_fd_facility.checksum = ltt_checksum_strings(fd_strings, sizeof(fd_strings) / sizeof(fd_strings[0]));
	for (unsigned i = 0; i < FD_NEVENTS; i++)
		fd_enabled[i] = LTT_EVENT_ON;
}

#define FD_PATH_MAX 1023u
#define NAMED_SLOTS 16384u	/* power of 2 */
static uint64_t named[NAMED_SLOTS];	/* (pid << 32 | fd) + 1 of a named fd; 0 free (drain thread only) */
static int fd_on;
/* pipe, pipe2 and socketpair return their two fds in the program's memory: the address at the entry,
 * by thread (direct-mapped: a collision loses the reading, the fds are then named at their first use). */
#define PAIR_SLOTS 1024u
static struct {
	uint32_t tid, nr;
	uint64_t addr;
} pairs[PAIR_SLOTS];

static uint64_t *slot(uint32_t pid, uint32_t fd)
{
	uint64_t key = ((uint64_t)pid << 32 | fd) + 1;

	return &named[(key * 0x9e3779b97f4a7c15ull) >> 50 & (NAMED_SLOTS - 1)];
}

/* The link of pid's fd into out (cut): its length, or -1 (no such fd). */
static int link_of(uint32_t pid, uint32_t fd, char *out)
{
	char p[64];
	ssize_t n;

	if (pid == ltt_k.pid)
		snprintf(p, sizeof(p), "/proc/self/fd/%u", fd);
	else
		snprintf(p, sizeof(p), "/proc/%u/fd/%u", pid, fd);
	n = readlink(p, out, FD_PATH_MAX);
	if (n < 0)
		return -1;
	out[n] = 0;
	return (int)n;
}

struct pack {
	char buf[16 + FD_PATH_MAX + 1];
	size_t len;
};

static void pack(struct pack *k, const void *v, size_t n)
{
	memcpy(k->buf + k->len, v, n);
	k->len += n;
}

/* The fd table read at ltt_kernel_open, before the events are enabled (its reading is libltt's, not
 * the program's calls), written as fd.state at ltt_kernel_begin. */
static struct fd_entry {
	uint32_t fd;
	char *path;
} *table;
static unsigned ntable, captable;

static void table_free(void)
{
	for (unsigned i = 0; i < ntable; i++)
		free(table[i].path);
	free(table);
	table = NULL;
	ntable = captable = 0;
}

static void table_read(void)
{
	char path[FD_PATH_MAX + 1];
	struct dirent *e;
	DIR *d;

	if (ltt_k.system || !(d = opendir("/proc/self/fd")))
		return;
	while ((e = readdir(d))) {
		uint32_t fd;
		char *copy;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		fd = (uint32_t)strtoul(e->d_name, NULL, 10);
		if ((int)fd == dirfd(d) || link_of(ltt_k.pid, fd, path) < 0)
			continue;
		if (LTT_GROW(table, ntable + 1, captable) || !(copy = strdup(path)))
			break;
		table[ntable].fd = fd;
		table[ntable++].path = copy;
		/* named (before the drain thread starts: ltt_fd_open runs before it) */
		*slot(ltt_k.pid, fd) = ((uint64_t)ltt_k.pid << 32 | fd) + 1;
	}
	closedir(d);
}

void ltt_fd_open(void)
{
	fd_on = 0;
	table_free();
	if (!(ltt_k.groups & LTT_KGROUP_SYSCALLS))
		return;
	memset(named, 0, sizeof(named));
	memset(pairs, 0, sizeof(pairs));
	ltt_facility_register(&ltt_fd_facility);
	fd_on = 1;
	table_read();
}

void ltt_fd_state_dump(void)
{
	uint32_t zero = 0, pid = ltt_k.pid;

	for (unsigned i = 0; fd_on && i < ntable; i++) {
		struct pack k = { .len = 0 };
		struct ltt_slot s;

		pack(&k, &zero, 4);
		pack(&k, &pid, 4);
		pack(&k, &table[i].fd, 4);
		pack(&k, table[i].path, strlen(table[i].path) + 1);
		if (ltt_event_reserve(&s, &ltt_fd_facility, FD_STATE, k.len, LTT_EVENT_PERSISTENT)) {
			memcpy(s.payload, k.buf, k.len);
			ltt_event_commit(&s);
		}
	}
	table_free();
}

/* fd.path into kernel/c at the ring's last time (the call's). */
static void put_path(unsigned c, uint32_t pid, uint32_t tid, uint32_t fd, uint8_t how)
{
	struct ltt_kring *kr = &ltt_k.rings[c];
	struct ltt_ring *r = &ltt_k.rg->rings[ltt_region_kbase(ltt_k.rg) + c];
	char path[FD_PATH_MAX + 1];
	struct pack k = { .len = 0 };
	struct ltt_slot s;
	int n;

	if (!(ltt_event_enabled(ltt_fd_facility.enabled, FD_PATH) & LTT_EVENT_ON) ||
	    (n = link_of(pid, fd, path)) < 0)
		return;
	*slot(pid, fd) = ((uint64_t)pid << 32 | fd) + 1;
	ltt_kernel_pend_flush(c);	/* after the call's entry, were it held for a whole call */
	pack(&k, &tid, 4);
	pack(&k, &pid, 4);
	pack(&k, &fd, 4);
	pack(&k, &how, 1);
	pack(&k, path, (size_t)n + 1);
	if (ltt_ring_reserve_at(&s, r, (uint16_t)(ltt_fd_facility.base_code + FD_PATH), k.len, kr->floor)) {
		memcpy(s.payload, k.buf, k.len);
		ltt_event_commit(&s);
	}
}

/* fd.open: the file name an open call of pid was given, read from its memory (process_vm_readv: an
 * address not mapped is an error, not a fault), at the ring's last time (the call's entry). */
static void put_open(unsigned c, uint32_t pid, uint32_t tid, int32_t dirfd, uint64_t addr)
{
	struct ltt_kring *kr = &ltt_k.rings[c];
	struct ltt_ring *r = &ltt_k.rg->rings[ltt_region_kbase(ltt_k.rg) + c];
	char path[FD_PATH_MAX + 1];
	struct iovec local = { path, FD_PATH_MAX }, remote = { (void *)(uintptr_t)addr, FD_PATH_MAX };
	struct pack k = { .len = 0 };
	struct ltt_slot s;
	ssize_t n;

	if (!(ltt_event_enabled(ltt_fd_facility.enabled, FD_OPEN) & LTT_EVENT_ON))
		return;
	n = process_vm_readv((pid_t)pid, &local, 1, &remote, 1, 0);
	if (n < 0) {
		/* the page after the name may be unmapped: read up to the end of the name's page */
		remote.iov_len = local.iov_len = 4096 - (addr & 4095);
		if (local.iov_len > FD_PATH_MAX)
			local.iov_len = remote.iov_len = FD_PATH_MAX;
		n = process_vm_readv((pid_t)pid, &local, 1, &remote, 1, 0);
	}
	path[n > 0 ? n : 0] = 0;
	path[strnlen(path, FD_PATH_MAX)] = 0;
	ltt_kernel_pend_flush(c);	/* after the call's entry, were it held for a whole call */
	pack(&k, &tid, 4);
	pack(&k, &pid, 4);
	pack(&k, &dirfd, 4);
	pack(&k, path, strlen(path) + 1);
	if (ltt_ring_reserve_at(&s, r, (uint16_t)(ltt_fd_facility.base_code + FD_OPEN), k.len, kr->floor)) {
		memcpy(s.payload, k.buf, k.len);
		ltt_event_commit(&s);
	}
}

static void forget(uint32_t pid, uint64_t fd)
{
	uint64_t *sl;

	if (fd > INT32_MAX)
		return;
	sl = slot(pid, (uint32_t)fd);
	if (*sl == ((uint64_t)pid << 32 | fd) + 1)
		*sl = 0;
}

/* Calls whose return value is a new fd that is not a copy of another (dup's copies are followed by
 * the readers through the calls' arguments). */
static int makes_fd(uint32_t nr)
{
	switch (nr) {
#ifdef SYS_open
	case SYS_open:
#endif
#ifdef SYS_creat
	case SYS_creat:
#endif
	case SYS_openat:
#ifdef SYS_openat2
	case SYS_openat2:
#endif
	case SYS_socket:
	case SYS_accept:
	case SYS_accept4:
	case SYS_memfd_create:
	case SYS_eventfd2:
#ifdef SYS_eventfd
	case SYS_eventfd:
#endif
	case SYS_timerfd_create:
	case SYS_epoll_create1:
#ifdef SYS_epoll_create
	case SYS_epoll_create:
#endif
		return 1;
	default:
		return 0;
	}
}

/* Calls whose first argument is an fd read or written (the ones the readers count as I/O). */
static int uses_fd(uint32_t nr)
{
	switch (nr) {
	case SYS_read:
	case SYS_write:
	case SYS_pread64:
	case SYS_pwrite64:
	case SYS_readv:
	case SYS_writev:
	case SYS_preadv:
	case SYS_pwritev:
	case SYS_preadv2:
	case SYS_pwritev2:
	case SYS_sendto:
	case SYS_recvfrom:
	case SYS_sendmsg:
	case SYS_recvmsg:
	case SYS_sendmmsg:
	case SYS_recvmmsg:
	case SYS_sendfile:
		return 1;
	default:
		return 0;
	}
}


static int makes_pair(uint32_t nr)
{
	return
#ifdef SYS_pipe
		nr == SYS_pipe ||
#endif
		nr == SYS_pipe2 || nr == SYS_socketpair;
}

/* After a pipe, pipe2 or socketpair of tid returned 0: its two fds, read where the program asked. */
static void pair_exit(unsigned c, uint32_t pid, uint32_t tid, uint32_t nr)
{
	unsigned i = tid & (PAIR_SLOTS - 1);
	int32_t fds[2];
	struct iovec local = { fds, sizeof(fds) }, remote;

	if (pairs[i].tid != tid || pairs[i].nr != nr)
		return;
	pairs[i].tid = 0;
	remote.iov_base = (void *)(uintptr_t)pairs[i].addr;
	remote.iov_len = sizeof(fds);
	if (process_vm_readv((pid_t)pid, &local, 1, &remote, 1, 0) != (ssize_t)sizeof(fds))
		return;
	for (int k = 0; k < 2; k++)
		if (fds[k] >= 0)
			put_path(c, pid, tid, (uint32_t)fds[k], HOW_OPEN);
}

void ltt_fd_syscall(unsigned c, uint32_t pid, uint32_t tid, int exit, uint32_t nr, const uint64_t *args,
		    int64_t ret)
{
	if (!fd_on || !ltt_fd_facility.base_code)
		return;
	if (exit) {
		if (ret >= 0 && ret <= INT32_MAX && makes_fd(nr))
			put_path(c, pid, tid, (uint32_t)ret, HOW_OPEN);
		else if (ret == 0 && makes_pair(nr))
			pair_exit(c, pid, tid, nr);
		return;
	}
	if (makes_pair(nr)) {
		unsigned i = tid & (PAIR_SLOTS - 1);

		pairs[i].tid = tid;
		pairs[i].nr = nr;
		pairs[i].addr = nr == SYS_socketpair ? args[3] : args[0];
		return;
	}
	if (nr == SYS_openat
#ifdef SYS_openat2
	    || nr == SYS_openat2
#endif
	) {
		put_open(c, pid, tid, (int32_t)args[0], args[1]);
#ifdef SYS_open
	} else if (nr == SYS_open) {
		put_open(c, pid, tid, AT_FDCWD, args[0]);
#endif
#ifdef SYS_creat
	} else if (nr == SYS_creat) {
		put_open(c, pid, tid, AT_FDCWD, args[0]);
#endif
	} else if (nr == SYS_close) {
		forget(pid, args[0]);
	} else if (
#ifdef SYS_dup2
		   nr == SYS_dup2 ||
#endif
		   nr == SYS_dup3) {
		forget(pid, args[1]);	/* closed by the call; the copy is followed by the readers */
	} else if (uses_fd(nr) && args[0] <= INT32_MAX) {
		uint64_t *sl = slot(pid, (uint32_t)args[0]);

		if (*sl != ((uint64_t)pid << 32 | args[0]) + 1)
			put_path(c, pid, tid, (uint32_t)args[0], HOW_USE);
		if (nr == SYS_sendfile && args[1] <= INT32_MAX &&
		    *(sl = slot(pid, (uint32_t)args[1])) != ((uint64_t)pid << 32 | args[1]) + 1)
			put_path(c, pid, tid, (uint32_t)args[1], HOW_USE);
	}
}
