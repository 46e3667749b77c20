/* SPDX-License-Identifier: MIT */
/* newcomer_emit: emits rtest.ev events (thread 0, seq 0..N-1) with a pause between them, for the
 * newcomer tests (ltt record's streams and exit status, dump --follow):
 *   newcomer_emit N PAUSE_MS [binary BYTES] [exit CODE] [kill SIGNAL]
 * binary: writes BYTES bytes 0,1,...,255,0,... to stdout (binary data that ltt record must not touch);
 * exit: exits with CODE; kill: ends by raising SIGNAL (after the events, so the trace is complete
 * only in flight mode or as far as written). Recording is started by LTT_TRACE (or not at all). */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "rec_rtest.h"

int main(int argc, char **argv)
{
	unsigned long n, pause_ms, nbin = 0;
	int code = 0, sig = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: newcomer_emit N PAUSE_MS [binary BYTES] [exit CODE] [kill SIGNAL]\n");
		return 2;
	}
	n = strtoul(argv[1], NULL, 10);
	pause_ms = strtoul(argv[2], NULL, 10);
	for (int i = 3; i + 1 < argc; i += 2) {
		if (!strcmp(argv[i], "binary"))
			nbin = strtoul(argv[i + 1], NULL, 10);
		else if (!strcmp(argv[i], "exit"))
			code = atoi(argv[i + 1]);
		else if (!strcmp(argv[i], "kill"))
			sig = atoi(argv[i + 1]);
	}
	for (unsigned long i = 0; i < nbin; i++)
		putchar((int)(i & 0xff));
	fflush(stdout);
	for (unsigned long i = 0; i < n; i++) {
		struct timespec ts = { (time_t)(pause_ms / 1000), (long)(pause_ms % 1000) * 1000000L };

		rtest_ev(0, i, rtest_check(0, i));
		if (pause_ms && i + 1 < n)
			nanosleep(&ts, NULL);
	}
	if (sig)
		raise(sig);
	return code;
}
