/* SPDX-License-Identifier: MIT */
/* recorder/exit.c: exit() called by several threads at once. The C library runs the exit handlers in
 * the first caller; a second caller finds the handler list empty (the first took libltt's) and ends
 * the process with _exit() while the first is still in ltt_stop(), writing the last blocks: most of
 * them were lost (six runs kept 41-91 % of 450,000 events), and the trace said nothing but an empty
 * info/write-losses. libltt defines exit() (as it does pthread_create, recorder/threads.c): the first
 * thread to call it goes on to the C library's exit(); a later one, from another thread, waits there
 * for good (the process ends with the first one's exit, as exit() does from glibc 2.41 on). A caller
 * that comes while a stop runs in another thread (main() returned: the C library called its exit()
 * without this one) waits for the stop to end before going on. */
#include <dlfcn.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "recorder.h"

typedef void (*exit_fn)(int) __attribute__((noreturn));

static int exit_tid;	/* the first thread that called exit() */

__attribute__((visibility("default"), noreturn))
void exit(int status)
{
	exit_fn real = (exit_fn)dlsym(RTLD_NEXT, "exit");
	int tid = (int)syscall(SYS_gettid), first = 0;

	/* Full barrier: one thread wins; it pairs with nothing else (the losers never go on). */
	if (!__atomic_compare_exchange_n(&exit_tid, &first, tid, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST) &&
	    first != tid)
		for (;;)
			pause();	/* the first caller ends the process */
	ltt_stop_wait();
	if (real)
		real(status);
	_exit(status);
}
