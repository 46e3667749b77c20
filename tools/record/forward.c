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
 * unreaped pid is as safe. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "forward.h"

#define NSIGS 4

static int sigs[NSIGS] = { SIGINT, SIGTERM, SIGHUP, 0 };
static struct sigaction old[NSIGS];
static volatile sig_atomic_t child, pidfd = -1, pending[NSIGS];

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
	for (int i = 0; i < NSIGS; i++)
		if (sigs[i])
			sigaction(sigs[i], &sa, &old[i]);
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
	for (int i = 0; i < NSIGS; i++)
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
	while ((rc = waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT)) < 0 && errno == EINTR)
		;
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
