/* SPDX-License-Identifier: MIT */
/* flight_guard: a program that handles SIGSEGV itself (a guard page it unprotects on the fault), with
 * its handler installed before a flight-mode trace starts (ltt_start() from code):
 *   flight_guard TRACE siginfo|plain|ignored
 * siginfo: an SA_SIGINFO handler that checks si_addr and the ucontext; plain: a handler without
 * SA_SIGINFO; ignored: SIG_IGN (with the SA_SIGINFO flag), and raise(SIGSEGV) instead of faults. The fault must reach the program's handler with the real siginfo, take no snapshot, and
 * the program goes on; prints "survived faults=N" and exits 0 (ltt_stop() takes the exit snapshot). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ltt/ltt.h>

#include "flighttest.h"

static char *volatile page;
static volatile sig_atomic_t faults;

static void bad(const char *m)
{
	if (write(2, m, strlen(m)) < 0) {
		/* nothing to do */
	}
	_exit(99);
}

static void on_segv_info(int sig, siginfo_t *si, void *uc)
{
	if (sig != SIGSEGV)
		bad("handler: wrong signal number\n");
	if (!si || si->si_addr != page)
		bad("handler: si_addr is not the guard page\n");
	if (si->si_code != SEGV_ACCERR)
		bad("handler: si_code is not SEGV_ACCERR\n");
	if (!uc)
		bad("handler: no ucontext\n");
	faults++;
	mprotect(page, 4096, PROT_READ | PROT_WRITE);
}

static void on_segv_plain(int sig)
{
	if (sig != SIGSEGV)
		bad("handler: wrong signal number\n");
	faults++;
	mprotect(page, 4096, PROT_READ | PROT_WRITE);
}

int main(int argc, char **argv)
{
	struct ltt_options o;
	struct sigaction sa;
	int rc;

	if (argc != 3)
		return 2;
	page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return 2;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	if (!strcmp(argv[2], "siginfo")) {
		sa.sa_sigaction = on_segv_info;
		sa.sa_flags = SA_SIGINFO;
	} else if (!strcmp(argv[2], "ignored")) {
		sa.sa_handler = SIG_IGN;	/* with SA_SIGINFO set: sa_sigaction reads as SIG_IGN */
		sa.sa_flags = SA_SIGINFO;
	} else {
		sa.sa_handler = on_segv_plain;
	}
	sigaction(SIGSEGV, &sa, NULL);
	memset(&o, 0, sizeof(o));
	o.path = argv[1];
	o.mode = LTT_MODE_FLIGHT;
	o.block_size = 4096;
	o.blocks = 4;
	rc = ltt_start(&o);
	if (rc) {
		fprintf(stderr, "ltt_start: %d\n", rc);
		return 2;
	}
	for (int i = 0; i < 3; i++) {
		trace_flighttest_tick(0, (uint64_t)i);
		if (!strcmp(argv[2], "ignored")) {
			raise(SIGSEGV);		/* sent, ignored: nothing happens */
			continue;
		}
		page[0] = (char)(i + 1);	/* faults once: the handler unprotects the page */
		mprotect(page, 4096, PROT_NONE);
	}
	printf("survived faults=%d\n", (int)faults);
	return 0;
}
