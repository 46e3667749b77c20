/* SPDX-License-Identifier: MIT */
/* flight_chain: helper of tests/e2e/flight_chain.sh. A program with its own SIGSEGV handler, installed
 * after the flight trace started (LTT_TRACE / LTT_MODE=flight start it before main), as servers do:
 *   flight_chain reraise N   N ticks, then a fault; the handler prints "handler: SIGSEGV si_code=C
 *                            addr_ok=1", restores SIG_DFL and re-raises (redis, most servers)
 *   flight_chain exit N      ... the handler prints and calls _exit(3)
 *   flight_chain abort N     ... the handler prints and calls abort()
 *   flight_chain usr2        installs its own SIGUSR2 handler (it counts them), prints "ready", then
 *                            sleeps until SIGTERM, and prints "usr2=N"
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ltt/ltt.h>

#include "flighttest.h"

static const char *how;
static volatile char *page;
static volatile sig_atomic_t usr2, term;

static void say(const char *s)
{
	if (write(2, s, strlen(s)) < 0) {
		/* nothing to do */
	}
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	say(sig == SIGSEGV && si->si_code == SEGV_ACCERR && si->si_addr == (void *)page
		    ? "handler: SIGSEGV si_code=SEGV_ACCERR addr_ok=1\n" : "handler: wrong siginfo\n");
	if (!strcmp(how, "exit"))
		_exit(3);
	if (!strcmp(how, "abort"))
		abort();
	signal(SIGSEGV, SIG_DFL);
	raise(SIGSEGV);
}

static void on_usr2(int sig)
{
	(void)sig;
	usr2++;
}

static void on_term(int sig)
{
	(void)sig;
	term = 1;
}

int main(int argc, char **argv)
{
	struct sigaction sa;

	if (argc == 2 && !strcmp(argv[1], "usr2")) {
		signal(SIGUSR2, on_usr2);
		signal(SIGTERM, on_term);
		printf("ready\n");
		fflush(stdout);
		while (!term)
			pause();
		printf("usr2=%d\n", (int)usr2);
		return 0;
	}
	if (argc != 3)
		return 2;
	how = argv[1];
	page = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED)
		return 2;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	for (uint64_t i = 0, n = strtoull(argv[2], NULL, 10); i < n; i++)
		trace_flighttest_tick(0, i);
	page[0] = 1;	/* SIGSEGV */
	return 0;
}
