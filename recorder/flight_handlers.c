/* SPDX-License-Identifier: MIT */
/* recorder/flight_handlers.c: the program's own signal handlers. A program that installs a handler of
 * the snapshot signal or of SIGSEGV (zstd does) after the flight trace started replaces ltt's: its
 * snapshots by signal and its crash snapshot were lost without a word. libltt defines sigaction() and
 * signal() (as it does pthread_create, recorder/threads.c), which tell flight_signal.c before calling
 * the C library's; libltt's own installs go to the C library's directly (ltt_real_sigaction()).
 * While libltt's fatal-signal handlers are installed, the program's action for a fatal signal is kept
 * by libltt, which calls it after the crash snapshot (recorder/flight_signal.c), instead of replacing
 * libltt's handler. Not seen: bsd_signal(), sysv_signal(), sigset() and the raw system call. */
#include <dlfcn.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "flight.h"
#include "func_internal.h"

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

int ltt_real_sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	static sigaction_fn real;
	/* Relaxed: any thread may store the same pointer (dlsym's answer never changes). */
	sigaction_fn f = __atomic_load_n(&real, __ATOMIC_RELAXED);

	if (!f) {
		f = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
		if (!f)
			return -1;
		__atomic_store_n(&real, f, __ATOMIC_RELAXED);
	}
	return f(sig, act, old);
}

__attribute__((visibility("default")))
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (ltt_flight_chain(sig, act, old))
		return 0;	/* a fatal signal: libltt's handler stays first and calls the program's */
	ltt_flight_handler_check(sig, act);
	return ltt_func_sigaction(sig, act, old);	/* held while a function hook runs */
}

/* _exit() and _Exit() end the process without atexit handlers: the `ltt snapshot` entry goes first
 * (a crash handler of the program's commonly ends with _exit()). */
typedef void (*exit_fn)(int);

static __attribute__((noreturn)) void real_exit(const char *name, int status)
{
	exit_fn f = (exit_fn)dlsym(RTLD_NEXT, name);

	ltt_exec_exit_stop(); /* the trace complete (recorder/exec.c) */
	ltt_flight_registry_remove_keep();
	if (f)
		f(status);
	syscall(SYS_exit_group, status);
	__builtin_unreachable();
}

__attribute__((visibility("default"), noreturn))
void _exit(int status)
{
	real_exit("_exit", status);
}

__attribute__((visibility("default"), noreturn))
void _Exit(int status)
{
	real_exit("_Exit", status);
}

/* glibc's signal(): BSD semantics (SA_RESTART, the handler stays installed). */
__attribute__((visibility("default")))
sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, sig);
	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}
