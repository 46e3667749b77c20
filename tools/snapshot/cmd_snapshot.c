/* SPDX-License-Identifier: MIT */
/* ltt snapshot PID|TRACE: asks a process that records in flight mode for a snapshot, waits for it and
 * prints its directory (doc/flight-recorder.md "Taking a snapshot").
 *
 * libltt keeps /tmp/ltt-UID/flight-PID while a flight trace records (recorder/flight_control.c): the
 * trace directory, the snapshot signal (LTT_SNAPSHOT_SIGNAL) and the process's start time. By pid,
 * that file names the trace; by trace directory, its info/system.xml names the pid (ltt_pid) and the
 * file must name the same directory. The start time must match /proc/PID/stat, so a pid reused by
 * another process after a crash is never signalled. The snapshot is the first complete
 * TRACE/snapshot-NNNN numbered above those that existed before the signal. */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ltt/reader.h>

#include "common/clock.h"
#include "common/proc.h"
#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"

extern const struct ltt_cmd ltt_cmd_snapshot;	/* at the end of this file */

struct target {
	int pid, sig;
	unsigned long long start;
	char path[PATH_MAX];
};

static int read_registry(int pid, struct target *t)
{
	char p[96], line[PATH_MAX];
	FILE *f;
	int ok = 0;

	snprintf(p, sizeof(p), "/tmp/ltt-%u/flight-%d", (unsigned)getuid(), pid);
	f = fopen(p, "r");
	if (!f)
		return -ENOENT;
	if (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		snprintf(t->path, sizeof(t->path), "%s", line);
		ok = fscanf(f, "%d %llu", &t->sig, &t->start) == 2;
	}
	fclose(f);
	t->pid = pid;
	return ok ? 0 : -EINVAL;
}

/* Field 22 of /proc/PID/stat (start time in clock ticks); 0 when the process does not exist. */
static unsigned long long start_time(int pid)
{
	struct ltt_proc_id id;

	return ltt_proc_id(pid, &id) ? 0 : id.start;
}

/* The highest N of the complete TRACE/snapshot-NNNN directories (0 if none). */
static unsigned last_snapshot(const char *trace)
{
	DIR *d = opendir(trace);
	struct dirent *e;
	unsigned max = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char *end;
		unsigned long v;

		if (strncmp(e->d_name, "snapshot-", 9))
			continue;
		v = strtoul(e->d_name + 9, &end, 10);
		if (!*end && end != e->d_name + 9 && v > max)
			max = (unsigned)v;
	}
	closedir(d);
	return max;
}

static int run(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	struct target t = { 0 };
	const char *arg;
	char *end;
	double timeout = 10;
	unsigned before, after;
	uint64_t deadline;
	long pid;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:", lo, NULL)) != -1) {
		if (c == 't') {
			timeout = strtod(optarg, &end);
			if (*end || end == optarg || timeout <= 0 || timeout > 86400) {
				ltt_tool_error("snapshot", "--timeout %s: not a number of seconds in (0, 86400]", optarg);
				return 2;
			}
			continue;
		}
		return ltt_cli_option_error("snapshot", ltt_cmd_snapshot.usage, c, argc, argv, lo);
	}
	if (optind != argc - 1) {
		ltt_tool_error("snapshot", "give one PID or TRACE (see ltt snapshot --help)");
		return 2;
	}
	arg = argv[optind];
	pid = strtol(arg, &end, 10);
	if (!*end && end != arg && pid > 0 && pid <= INT_MAX) {
		if (!start_time((int)pid)) {
			ltt_tool_error("snapshot", "process %ld does not exist", pid);
			return 1;
		}
		/* a registry file whose start time is not this process's was left by an earlier process
		 * of the same pid that was killed: this one does not record (or has not registered yet) */
		if (read_registry((int)pid, &t) || start_time((int)pid) != t.start) {
			ltt_tool_error("snapshot", "process %ld does not record a flight trace (ltt snapshot needs "
				       "LTT_MODE=flight or ltt record --mode flight)", pid);
			return 1;
		}
	} else {
		char real[PATH_MAX], err[512];
		struct ltt_system *sys;
		const char *mode, *spid;
		int rc = ltt_system_read(arg, &sys, err, sizeof(err));

		if (rc) {
			if (rc == -ENOENT)
				ltt_tool_error("snapshot", "%s: not a trace directory (no info/system.xml)", arg);
			else
				ltt_tool_error("snapshot", "%s", err);
			return 1;
		}
		mode = ltt_system_attr(sys, "ltt_mode");
		spid = ltt_system_attr(sys, "ltt_pid");
		if (!mode) {
			ltt_tool_error("snapshot", "%s: not a trace directory (no info/system.xml)", arg);
			ltt_system_free(sys);
			return 1;
		}
		if (strcmp(mode, "flight")) {
			ltt_tool_error("snapshot", "%s: not a flight trace (ltt_mode=\"%s\"): no snapshot to take",
				       arg, mode);
			ltt_system_free(sys);
			return 1;
		}
		pid = spid ? strtol(spid, &end, 10) : 0;
		if (pid <= 0 || *end) {
			ltt_tool_error("snapshot", "%s: info/system.xml has no ltt_pid", arg);
			ltt_system_free(sys);
			return 1;
		}
		ltt_system_free(sys);
		if (!realpath(arg, real) || read_registry((int)pid, &t) || strcmp(real, t.path) ||
		    start_time((int)pid) != t.start) {
			ltt_tool_error("snapshot", "%s: process %ld no longer records it", arg, pid);
			return 1;
		}
	}
	if (start_time(t.pid) != t.start) {
		ltt_tool_error("snapshot", "process %d does not exist (it ended without removing "
			       "/tmp/ltt-%u/flight-%d)", t.pid, (unsigned)getuid(), t.pid);
		return 1;
	}
	if (!t.sig) {
		ltt_tool_error("snapshot", "process %d takes no snapshot signal (LTT_SNAPSHOT_SIGNAL=none)", t.pid);
		return 1;
	}
	before = last_snapshot(t.path);
	if (kill(t.pid, t.sig)) {
		ltt_tool_error("snapshot", "process %d: cannot signal it: %s", t.pid, strerror(errno));
		return 1;
	}
	deadline = ltt_mono_ns() / 1000000u + (uint64_t)(timeout * 1000);
	while ((after = last_snapshot(t.path)) <= before) {
		if (ltt_mono_ns() / 1000000u >= deadline) {
			ltt_tool_error("snapshot", "process %d: no snapshot in %s within %g s", t.pid, t.path,
				       timeout);
			return 1;
		}
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	printf("%s/snapshot-%04u\n", t.path, after);
	return fflush(stdout) ? 1 : 0;
}

const struct ltt_cmd ltt_cmd_snapshot = {
	.name = "snapshot",
	.summary = "take a snapshot of a process recording in flight mode (by pid or trace directory)",
	.usage = "usage: ltt snapshot [--timeout SECONDS] PID|TRACE\n"
		 "\n"
		 "Asks the process PID, or the process writing the flight trace directory TRACE, for a\n"
		 "snapshot (its LTT_SNAPSHOT_SIGNAL, SIGUSR2 by default), waits for it and prints its\n"
		 "directory, TRACE/snapshot-NNNN. libltt lists each process recording a flight trace in\n"
		 "/tmp/ltt-UID/flight-PID. Exits 1 with one line when the process does not exist, does\n"
		 "not record in flight mode, or no snapshot appeared in time.\n"
		 "\n"
		 "  -t, --timeout SECONDS   how long to wait for the snapshot (default 10)\n",
	.run = run,
};
