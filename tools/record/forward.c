/* SPDX-License-Identifier: MIT */
/* ltt record: forwarding of SIGINT, SIGTERM, SIGHUP and the snapshot signal to the program (a
 * snapshot asked of `ltt record` with `kill -USR2 PID` reaches the program; ^C, a service manager's
 * SIGTERM or a closed terminal's SIGHUP end the program, which writes its trace, and ltt record
 * reports it). A signal the terminal sent to the whole process group (si_code SI_KERNEL) already
 * reached the program: it is not sent twice.
 *
 * Never to another process that got the program's pid: the signal goes through a pidfd of the
 * program (pidfd_send_signal: ESRCH once it ended, whoever has its pid now), and the program is
 * waited for without being reaped (waitid WNOWAIT: its pid stays taken) until forwarding has stopped
 * with the signals blocked; only then is it reaped. Without pidfds (Linux before 5.3) kill() of the
 * unreaped pid is as safe. The snapshot signal goes to libltt's flight thread alone (tgkill to the
 * thread its registry entry names), so that no thread of the program is interrupted by it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/proc.h"
#include "common/snapshot_registry.h"
#include "forward.h"

#define NSIGS 4

static int sigs[NSIGS] = { SIGINT, SIGTERM, SIGHUP, 0 };
static struct sigaction old[NSIGS];
static volatile sig_atomic_t child, pidfd = -1, pending[NSIGS], snap_req;

static void send_to_child(int sig)
{
#ifdef SYS_pidfd_send_signal
	if (pidfd >= 0) {
		syscall(SYS_pidfd_send_signal, (int)pidfd, sig, NULL, 0);
		return;
	}
#endif
	kill(child, sig);
}

/* LTT_SNAPSHOT_SIGNAL as libltt reads it (a number, NAME, SIGNAME, RTMIN+N); 0: none or bad (libltt
 * then says why and does not trace). */
static int snapshot_signal(void)
{
	const char *v = getenv("LTT_SNAPSHOT_SIGNAL"), *name;
	char *end;
	long n;

	if (!v || !*v)
		return SIGUSR2;
	n = strtol(v, &end, 10);
	if (!*end && end != v)
		return n > 0 && n < NSIG ? (int)n : 0;
	name = !strncmp(v, "SIG", 3) ? v + 3 : v;
	for (int s = 1; s < NSIG; s++) {
		const char *ab = sigabbrev_np(s);

		if (ab && !strcmp(ab, name))
			return s;
	}
	if (!strncmp(name, "RTMIN+", 6)) {
		n = strtol(name + 6, &end, 10);
		if (!*end && n >= 0 && SIGRTMIN + n <= SIGRTMAX)
			return SIGRTMIN + (int)n;
	}
	return 0;
}

static void on_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (si && si->si_code == SI_KERNEL)
		return;	/* from the terminal, to the process group: the program has it */
	if (sig == sigs[3]) {
		snap_req = 1;	/* forward_wait() passes it on (snapshot_to_child()) */
		return;
	}
	for (int i = 0; i < NSIGS; i++)
		if (sigs[i] == sig) {
			if (child > 0)
				send_to_child(sig);
			else
				pending[i] = 1;
		}
}

void forward_install(void)
{
	struct sigaction sa;

	sigs[3] = snapshot_signal();
	for (int i = 0; i < 3; i++)
		if (sigs[3] == sigs[i])
			sigs[3] = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NSIGS; i++) {
		/* the snapshot signal interrupts forward_wait()'s waitid(), which passes it on */
		sa.sa_flags = SA_SIGINFO | (i == 3 ? 0 : SA_RESTART);
		if (sigs[i])
			sigaction(sigs[i], &sa, &old[i]);
	}
}

/* Whether thread tid of process pid is libltt's flight thread (its name, set by libltt). */
static int flight_thread(pid_t pid, int tid)
{
	char p[96], name[32] = "";
	int fd;
	ssize_t n;

	snprintf(p, sizeof(p), "/proc/%d/task/%d/comm", (int)pid, tid);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, name, sizeof(name) - 1);
	close(fd);
	return n == 11 && !memcmp(name, "ltt-flight\n", 11);
}

/* The snapshot signal to the program: to libltt's flight thread alone when its registry entry names
 * one (doc/flight-recorder.md "Taking a snapshot": no thread of the program is interrupted), else to
 * the process. The program is not reaped yet, so its pid and tids are its own. */
static void snapshot_to_child(pid_t pid)
{
	char dirs[2][PATH_MAX];
	struct ltt_snapreg_entry *e = calloc(1, sizeof(*e));
	struct ltt_proc_id id;
	int nd = ltt_snapreg_dirs(getuid(), dirs), tid = 0;

	for (int k = 0; e && k < nd && !tid; k++) {
		int dfd = ltt_snapreg_open_dir(dirs[k], getuid(), NULL, 0);

		if (dfd < 0)
			continue;
		if (!ltt_snapreg_read(dfd, (int)pid, getuid(), e, NULL, 0) && !ltt_proc_id((int)pid, &id) &&
		    id.start == e->start && e->sig == sigs[3] && e->thread > 0 && flight_thread(pid, e->thread))
			tid = e->thread;
		close(dfd);
	}
	free(e);
	if (tid)
		syscall(SYS_tgkill, (int)pid, tid, sigs[3]);
	else
		send_to_child(sigs[3]);
}

void forward_child(void)
{
	for (int i = 0; i < NSIGS; i++)
		if (sigs[i])
			sigaction(sigs[i], &old[i], NULL);
}

void forward_to(pid_t pid)
{
	sigset_t all, prev;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &prev);
#ifdef SYS_pidfd_open
	if (pid > 0) {
		int fd = (int)syscall(SYS_pidfd_open, pid, 0);

		if (fd >= 0)
			pidfd = fd;
	}
#endif
	child = pid;
	for (int i = 0; i < 3; i++)
		if (pending[i] && sigs[i] && pid > 0)
			send_to_child(sigs[i]);
	sigprocmask(SIG_SETMASK, &prev, NULL);
}

int forward_wait(pid_t pid, int *status)
{
	siginfo_t si;
	sigset_t all, prev;
	int rc;

	/* ended, not reaped: the pid cannot be given to another process while signals may go to it */
	memset(&si, 0, sizeof(si));
	if (sigs[3] && pidfd >= 0) {
		sigset_t snap, open_mask;
		struct pollfd pfd = { (int)pidfd, POLLIN, 0 };

		/* the snapshot signal is taken only inside ppoll (atomically), so none is missed
		 * between the look at snap_req and the wait; the pidfd is readable once it ended */
		sigemptyset(&snap);
		sigaddset(&snap, sigs[3]);
		sigprocmask(SIG_BLOCK, &snap, &open_mask);
		sigdelset(&open_mask, sigs[3]);
		for (;;) {
			if (snap_req) {
				snap_req = 0;
				snapshot_to_child(pid);
			}
			if (ppoll(&pfd, 1, NULL, &open_mask) > 0 || errno != EINTR)
				break;
		}
		sigprocmask(SIG_UNBLOCK, &snap, NULL);
	}
	for (;;) {
		if (snap_req && sigs[3]) {
			snap_req = 0;
			snapshot_to_child(pid);
		}
		if ((rc = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT)) >= 0 || errno != EINTR)
			break;
	}
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &prev);
	child = 0;	/* no handler runs between this and the reap: the signals are blocked */
	if (pidfd >= 0) {
		close(pidfd);
		pidfd = -1;
	}
	sigprocmask(SIG_SETMASK, &prev, NULL);
	while ((rc = waitpid(pid, status, 0)) < 0 && errno == EINTR)
		;
	return rc < 0 ? -errno : 0;
}

void forward_restore(void)
{
	child = 0;
	for (int i = 0; i < NSIGS; i++)
		if (sigs[i])
			sigaction(sigs[i], &old[i], NULL);
}
