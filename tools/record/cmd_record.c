/* SPDX-License-Identifier: MIT */
/* ltt record: runs a program linked with libltt with LTT_TRACE and friends set, and prints where its
 * trace (and those of processes it started) went (doc/recorder.md). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <ltt/reader.h>

#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"
#include "eventdefs/rules_match.h"
#include "forward.h"
#include "preload.h"

extern const struct ltt_cmd ltt_cmd_record;	/* at the end of this file */

static int pow2_in(const char *s, unsigned long long lo, unsigned long long hi)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return 0;
	if (*end == 'k' || *end == 'K')
		v <<= 10, end++;
	else if (*end == 'm' || *end == 'M')
		v <<= 20, end++;
	return !*end && v >= lo && v <= hi && !(v & (v - 1));
}

static int number_in(const char *s, unsigned long lo, unsigned long hi)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	return !errno && end != s && !*end && s[0] != '-' && v >= lo && v <= hi;
}

/* A flight-recorder trace (ltt_mode="flight" in its info/system.xml): its data is in snapshot-NNNN/. */
static int is_flight(const char *dir)
{
	struct ltt_system *sys;
	const char *mode;
	int flight;

	if (ltt_system_read(dir, &sys, NULL, 0))
		return 0;
	mode = ltt_system_attr(sys, "ltt_mode");
	flight = mode && !strcmp(mode, "flight");
	ltt_system_free(sys);
	return flight;
}

static int snap_filter(const struct dirent *d)
{
	return !strncmp(d->d_name, "snapshot-", 9) && d->d_name[9] >= '0' && d->d_name[9] <= '9';
}

/* Prints each snapshot of the flight trace dir (each a trace), in the order taken. */
static void print_snapshots(const char *dir)
{
	struct dirent **e = NULL;
	int n = scandir(dir, &e, snap_filter, versionsort), shown = 0;

	for (int i = 0; i < n; i++) {
		if (strstr(e[i]->d_name, ".part"))
			fprintf(stderr, "ltt record: incomplete snapshot (cut short) %s/%s\n", dir, e[i]->d_name);
		else
			fprintf(stderr, "ltt record: snapshot written to %s/%s\n", dir, e[i]->d_name);
		shown++;
		free(e[i]);
	}
	free(e);
	if (!shown)
		fprintf(stderr, "ltt record: flight trace %s: no snapshot taken (none at exit with "
		       "LTT_SNAPSHOT_AT_EXIT=0, or the program was killed)\n", dir);
}

static int run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "mode", required_argument, NULL, 'm' },
		{ "block-size", required_argument, NULL, 'b' },
		{ "blocks", required_argument, NULL, 'n' },
		{ "cpu-sample", required_argument, NULL, 'C' },
		{ "stack-sample", required_argument, NULL, 'S' },
		{ "rotate-size", required_argument, NULL, 'R' },
		{ "rotate-seconds", required_argument, NULL, 'T' },
		{ "max-size", required_argument, NULL, 'M' },
		{ "flush-ms", required_argument, NULL, 'F' },
		{ "events", required_argument, NULL, 'e' },
		{ "waits", no_argument, NULL, 'W' },
		{ "functions", optional_argument, NULL, 'f' },
		{ "functions-depth", required_argument, NULL, 'D' },
		{ "functions-min-ns", required_argument, NULL, 'N' },
		{ "kernel", optional_argument, NULL, 'K' },
		{ "system", no_argument, NULL, 'Y' },
		{ "kernel-buffer", required_argument, NULL, 'B' },
		{ "any-binary", no_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	/* options passed on as environment variables, checked here (number, k/M/G suffix) and by libltt */
	static const struct { int opt; const char *name, *env; } pass[] = {
		{ 'R', "--rotate-size", "LTT_ROTATE_SIZE" }, { 'T', "--rotate-seconds", "LTT_ROTATE_SECONDS" },
		{ 'M', "--max-size", "LTT_MAX_SIZE" }, { 'F', "--flush-ms", "LTT_FLUSH_MS" },
	};
	const char *passv[4] = { NULL, NULL, NULL, NULL };
	const char *out = "ltt-traces/", *mode = NULL, *bs = NULL, *blocks = NULL, *events = NULL;
	const char *cpu_ms = NULL, *stack_hz = NULL, *funcs = NULL, *fdepth = NULL, *fmin = NULL;
	char lib[PATH_MAX];
	int waits = 0;
	const char *kernel = NULL, *kbuf = NULL;
	int system_scope = 0;
	char report[] = "/tmp/ltt-record-XXXXXX", line[4096], why[256];
	int any = 0, linked;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_quit;
	unsigned found = 0;
	int c, fd, status, rc;
	pid_t pid;
	FILE *f;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:m:b:n:e:", longopts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'm': mode = optarg; break;
		case 'b': bs = optarg; break;
		case 'n': blocks = optarg; break;
		case 'C': cpu_ms = optarg; break;
		case 'S': stack_hz = optarg; break;
		case 'e': events = optarg; break;
		case 'W': waits = 1; break;
		case 'f': funcs = optarg ? optarg : "1"; break;
		case 'D': fdepth = optarg; break;
		case 'N': fmin = optarg; break;
		case 'K': kernel = optarg ? optarg : "sched,syscalls"; break;
		case 'Y': system_scope = 1; break;
		case 'B': kbuf = optarg; break;
		case 'A': any = 1; break;
		case 'R': case 'T': case 'M': case 'F':
			for (unsigned i = 0; i < 4; i++)
				if (pass[i].opt == c)
					passv[i] = optarg;
			break;
		default:
			return ltt_cli_option_error("record", ltt_cmd_record.usage, c, argc, argv, longopts);
		}
	}
	for (unsigned i = 0; i < 4; i++) {
		const char *v = passv[i];
		size_t d = v ? strspn(v, "0123456789") : 1;

		if (v && (!d || (v[d] && (strchr("kKmMgG", v[d]) == NULL || v[d + 1] || pass[i].opt == 'T' ||
						pass[i].opt == 'F')))) {
			ltt_tool_error("record", "%s %s: not a number%s", pass[i].name, v,
				       pass[i].opt == 'T' || pass[i].opt == 'F' ? "" : " (k, M, G suffixes)");
			return 2;
		}
	}
	if ((passv[0] || passv[1]) && mode && !strcmp(mode, "flight")) {
		ltt_tool_error("record", "--rotate-size and --rotate-seconds are for discard mode");
		return 2;
	}
	if (passv[2] && !passv[0] && !passv[1]) {
		ltt_tool_error("record", "--max-size needs --rotate-size or --rotate-seconds (it removes whole chunks)");
		return 2;
	}
	if (optind >= argc) {
		ltt_tool_error("record", "no program to run (ltt record [OPTIONS] -- PROGRAM ARGS...)");
		return 2;
	}
	if (mode && strcmp(mode, "discard") && strcmp(mode, "flight")) {
		ltt_tool_error("record", "--mode %s: not discard or flight", mode);
		return 2;
	}
	if (bs && !pow2_in(bs, 4096, 256ull << 20)) {
		ltt_tool_error("record", "--block-size %s: not a power of two in [4096, 256M]", bs);
		return 2;
	}
	if (blocks && !pow2_in(blocks, 2, 65536)) {
		ltt_tool_error("record", "--blocks %s: not a power of two in [2, 65536]", blocks);
		return 2;
	}
	if (events && ltt_rules_check(events, why, sizeof(why))) {
		ltt_tool_error("record", "--events %s: %s", events, why);
		return 2;
	}
	if (cpu_ms && !number_in(cpu_ms, 1, 3600000)) {
		ltt_tool_error("record", "--cpu-sample %s: not a number of milliseconds in [1, 3600000]", cpu_ms);
		return 2;
	}
	if (stack_hz && !number_in(stack_hz, 1, 100000)) {
		ltt_tool_error("record", "--stack-sample %s: not a rate in [1, 100000] Hz", stack_hz);
		return 2;
	}
	if (funcs && strcmp(funcs, "1") && ltt_rules_check(funcs, why, sizeof(why))) {
		ltt_tool_error("record", "--functions=%s: %s (symbol globs, '-' excludes)", funcs, why);
		return 2;
	}
	if ((fdepth || fmin) && !funcs) {
		ltt_tool_error("record", "--functions-depth and --functions-min-ns go with --functions");
		return 2;
	}
	if (fdepth && !number_in(fdepth, 1, 1024)) {
		ltt_tool_error("record", "--functions-depth %s: not a count in [1, 1024]", fdepth);
		return 2;
	}
	if (fmin && !number_in(fmin, 0, 1000000000000ul)) {
		ltt_tool_error("record", "--functions-min-ns %s: not a number of ns in [0, 10^12]", fmin);
		return 2;
	}
	/* function tracing in a program not linked with libltt (-pg), or --any-binary: libltt.so
	 * preloaded (preload.h, the one mechanism of ltt record); its constructor starts recording */
	linked = preload_linked(argv[optind]);
	lib[0] = 0;
	if ((funcs || any) && linked == 0 && preload_library(lib, sizeof(lib), why, sizeof(why))) {
		ltt_tool_error("record", "%s: %s is not linked with libltt and %s", funcs ? "--functions" : "--any-binary",
			       argv[optind], why);
		return 1;
	}
	fd = mkstemp(report);
	if (fd < 0) {
		ltt_tool_error("record", "%s: %s", report, strerror(errno));
		return 1;
	}
	close(fd);
	sigaction(SIGQUIT, &ign, &old_quit);
	forward_install();	/* SIGINT, SIGTERM, SIGHUP, the snapshot signal: to the program */
	pid = fork();
	if (pid == 0) {
		forward_child();
		sigaction(SIGQUIT, &old_quit, NULL);
		setenv("LTT_TRACE", out, 1);
		setenv("LTT_RECORD_REPORT", report, 1);
		if (mode)
			setenv("LTT_MODE", mode, 1);
		if (bs)
			setenv("LTT_BLOCK_SIZE", bs, 1);
		if (blocks)
			setenv("LTT_BLOCKS", blocks, 1);
		if (cpu_ms)
			setenv("LTT_CPU_SAMPLE_MS", cpu_ms, 1);
		if (stack_hz)
			setenv("LTT_STACK_SAMPLE_HZ", stack_hz, 1);
		for (unsigned i = 0; i < 4; i++)
			if (passv[i])
				setenv(pass[i].env, passv[i], 1);
		if (events)
			setenv("LTT_EVENTS", events, 1);
		if (waits)
			setenv("LTT_WAITS", "1", 1);
		if (funcs)
			setenv("LTT_FUNCTIONS", funcs, 1);
		if (fdepth)
			setenv("LTT_FUNCTIONS_DEPTH", fdepth, 1);
		if (fmin)
			setenv("LTT_FUNCTIONS_MIN_NS", fmin, 1);
		if (lib[0] && preload_set(lib)) {
			ltt_tool_error("record", "LD_PRELOAD: out of memory");
			_exit(127);
		}
		/* kernel events (doc/recorder.md "Kernel events"): checked by libltt, which says why */
		if (kernel || system_scope)
			setenv("LTT_KERNEL", kernel ? kernel : "sched,syscalls", 1);
		if (system_scope)
			setenv("LTT_KERNEL_SCOPE", "system", 1);
		if (kbuf)
			setenv("LTT_KERNEL_BUFFER", kbuf, 1);
		execvp(argv[optind], argv + optind);
		ltt_tool_error("record", "%s: %s", argv[optind], strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		ltt_tool_error("record", "fork: %s", strerror(errno));
		unlink(report);
		return 1;
	}
	forward_to(pid);
	fprintf(stderr, "ltt record: pid %d runs %s\n", (int)pid, argv[optind]);
	if ((rc = forward_wait(pid, &status))) {
		ltt_tool_error("record", "waiting for %s: %s", argv[optind], strerror(-rc));
		status = W_EXITCODE(1, 0);
	}
	forward_restore();
	sigaction(SIGQUIT, &old_quit, NULL);
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	f = fopen(report, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "lost ", 5)) {	/* libltt's loss line (recorder/loss_report.c) */
			fprintf(stderr, "ltt record: %s\n", line + 5);
			continue;
		}
		if (is_flight(line))
			print_snapshots(line);
		else
			fprintf(stderr, "ltt record: trace written to %s\n", line);
		found++;
	}
	if (f)
		fclose(f);
	unlink(report);
	if (!found && linked == 0 && !lib[0])	/* not an error of ltt's: the program's status is kept */
		fprintf(stderr, "ltt record: no trace written: %s is not linked with libltt "
			"(--any-binary preloads libltt.so into it)\n", argv[optind]);
	else if (!found)
		fprintf(stderr, "ltt record: no trace written by %s\n", argv[optind]);
	if (!WIFEXITED(status))
		ltt_tool_error("record", "%s: killed by signal %d", argv[optind], WTERMSIG(status));
	return rc;
}

const struct ltt_cmd ltt_cmd_record = {
	.name = "record",
	.summary = "run a program linked with libltt (or any program, --any-binary) and record a trace of it",
	.usage = "usage: ltt record [-o DIR] [--mode discard|flight] [--block-size N] [--blocks N] [--cpu-sample MS] "
		 "[--stack-sample HZ] [--rotate-size N] [--rotate-seconds N] [--max-size N] [--flush-ms N] [--events RULES] [--waits] "
		 "[--functions[=RULES] [--functions-depth N] [--functions-min-ns NS]] [--kernel[=LIST]] [--system] [--kernel-buffer N] [--any-binary] "
		 "-- PROGRAM ARGS...\n"
		 "\n"
		 "Runs PROGRAM with LTT_TRACE=DIR (default ./ltt-traces/) and LTT_MODE,\n"
		 "LTT_BLOCK_SIZE, LTT_BLOCKS, LTT_EVENTS set from the options, then prints where each trace went on stderr\n"
		 "(stdout is the program's alone, passed through untouched). Where the trace goes (doc/recorder.md):\n"
		 "DIR ending in '/' (made if missing) or an existing directory that is not a trace: each traced\n"
		 "process writes DIR/PROGRAM-PID-TIME; DIR missing: DIR is the trace; DIR a trace already: the\n"
		 "trace is DIR.1 (DIR.2, ...), said on stderr, never written into DIR.\n"
		 "In flight mode each snapshot is a trace of its own, DIR/snapshot-NNNN: those are printed.\n"
		 "Exits with the program's status (128 + signal if it was killed). Prints the program's pid on\n"
		 "stderr and forwards SIGINT, SIGTERM, SIGHUP and the snapshot signal (LTT_SNAPSHOT_SIGNAL,\n"
		 "SIGUSR2 by default) to it: `kill -USR2 PID-OF-LTT-RECORD` takes a flight snapshot.\n"
		 "\n"
		 "  -o, --output DIR      where traces go\n"
		 "  -m, --mode MODE       discard (default: the consumer writes blocks as they fill) or flight\n"
		 "  -b, --block-size N    block size, a power of two in [4096, 256M] (k and M suffixes)\n"
		 "  -n, --blocks N        blocks per CPU ring, a power of two in [2, 65536]\n"
		 "      --cpu-sample MS   record the CPU usage of the process and of each thread every MS ms\n"
		 "                        (LTT_CPU_SAMPLE_MS)\n"
		 "      --stack-sample HZ sample each thread's stack HZ times per second of its CPU time\n"
		 "                        (LTT_STACK_SAMPLE_HZ; ltt stats --profile, ltt dump --format=tracelog)\n"
		 "      --rotate-size N   discard: the trace becomes DIR/chunk-NNNN/ directories, a new one\n"
		 "                        after N bytes (k, M, G suffixes; at least 1M); LTT_ROTATE_SIZE\n"
		 "      --rotate-seconds N  ... or after N seconds; LTT_ROTATE_SECONDS\n"
		 "      --max-size N      remove the oldest chunks while the chunks take more than N bytes\n"
		 "                        (each listed in DIR/chunks-removed); LTT_MAX_SIZE\n"
		 "      --flush-ms N      discard: write a partly filled block after N ms without a full one\n"
		 "                        (default 1000; 0: never); LTT_FLUSH_MS\n"
		 "  -e, --events RULES    which events record (LTT_EVENTS): globs on FACILITY.EVENT, '-' excludes,\n"
		 "                        the last matching rule wins: 'jobs.*,-jobs.submit' (doc/recorder.md)\n"
		 "      --waits           record the program's waits on locks, condition variables and semaphores\n"
		 "                        of 10 µs and more (LTT_WAITS=1; ltt stats --waits; doc/recorder.md)\n"
		 "      --functions[=RULES]  record every function's entry and exit (LTT_FUNCTIONS) in a program\n"
		 "                        built with -finstrument-functions and linked with libltt, or with -pg\n"
		 "                        (-mfentry or not; x86-64), which need not be: libltt.so is preloaded.\n"
		 "                        RULES: symbol globs, '-' excludes: 'my_*,-my_hot_leaf' (default: all)\n"
		 "      --functions-depth N  record calls at most N deep (LTT_FUNCTIONS_DEPTH)\n"
		 "      --functions-min-ns NS  record only calls of at least NS ns, each as one func.call at its\n"
		 "                        exit (LTT_FUNCTIONS_MIN_NS; ltt stats --functions, ltt dump --format=calls)\n"
		 "      --kernel[=LIST]   also record the kernel's events of the program's threads (LTT_KERNEL):\n"
		 "                        a comma list of sched, syscalls, irq, faults; alone: sched,syscalls.\n"
		 "                        Without root or CAP_PERFMON only the threads' own context switches;\n"
		 "                        what is missing is said on stderr and in the trace (ltt stats)\n"
		 "      --system          kernel events of every CPU and process, with a state dump of every\n"
		 "                        thread at start (LTT_KERNEL_SCOPE=system; root or CAP_PERFMON)\n"
		 "      --kernel-buffer N perf's ring per CPU, a power of two from 8k to 1G (default 4M;\n"
		 "                        LTT_KERNEL_BUFFER)\n"
		 "      --any-binary      a PROGRAM not linked with libltt gets libltt.so preloaded (LD_PRELOAD,\n"
		 "                        inherited by its children, which record too): its CPU usage, stack\n"
		 "                        samples with symbols and threads are recorded. Without it such a\n"
		 "                        program runs untraced (its status is still ltt record's)\n",
	.run = run,
};
