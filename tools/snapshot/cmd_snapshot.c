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
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <ltt/reader.h>

#include "common/clock.h"
#include "common/proc.h"
#include "common/snapshot_registry.h"
#include "toolkit/cli_hint.h"
#include "toolkit/cmd.h"

extern const struct ltt_cmd ltt_cmd_snapshot;	/* at the end of this file */

struct target {
	int pid;
	struct ltt_snapreg_entry e;
	char registry[PATH_MAX + 32];	/* the file read */
};

/* The registry file of pid, looked for in $XDG_RUNTIME_DIR/ltt then /tmp/ltt-UID: 0, -ENOENT when
 * there is none, or another negative errno with why (a directory or file another user could have
 * made, or one that is not a registry file: never trusted). */
static int read_registry(int pid, struct target *t, char *why, size_t whylen)
{
	char dirs[2][PATH_MAX];
	int nd = ltt_snapreg_dirs(getuid(), dirs), rc = -ENOENT;

	why[0] = 0;
	t->pid = pid;
	for (int k = 0; k < nd; k++) {
		char w[PATH_MAX + 256];
		int dfd = ltt_snapreg_open_dir(dirs[k], getuid(), w, sizeof(w));

		if (dfd == -ENOENT)
			continue;
		if (dfd < 0) {
			snprintf(why, whylen, "%.2000s", w);
			rc = dfd;
			continue;	/* a later directory may hold it: the refusal is said if none does */
		}
		rc = ltt_snapreg_read(dfd, pid, getuid(), &t->e, w, sizeof(w));
		close(dfd);
		if (rc == -ENOENT)
			continue;
		if (rc) {
			snprintf(why, whylen, "%.2000s/%.1000s", dirs[k], w);
			return rc;
		}
		snprintf(t->registry, sizeof(t->registry), "%.4000s/flight-%d", dirs[k], pid);
		return 0;
	}
	return why[0] ? rc : -ENOENT;
}

/* Nonzero when path (a trace directory or a file in it) belongs to the caller or root and is not a
 * symlink; else why says whose it is. */
static int owned(const char *path, char *why, size_t whylen)
{
	struct stat st;

	if (lstat(path, &st)) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return 0;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(why, whylen, "%s: a symlink: not trusted", path);
		return 0;
	}
	if (st.st_uid != getuid() && st.st_uid != 0) {
		snprintf(why, whylen, "%s: owned by user %u, not by you: not trusted", path, (unsigned)st.st_uid);
		return 0;
	}
	return 1;
}

/* Whether process pid catches signal sig (SigCgt of /proc/PID/status): 1, 0, or -1 unknown. */
static int catches(int pid, int sig)
{
	char p[64], line[256];
	FILE *f;
	int r = -1;

	snprintf(p, sizeof(p), "/proc/%d/status", pid);
	f = fopen(p, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "SigCgt:", 7)) {
			unsigned long long m = strtoull(line + 7, NULL, 16);

			r = sig >= 1 && sig <= 64 && (m >> (sig - 1)) & 1;
			break;
		}
	fclose(f);
	return r;
}

/* Whether thread tid of process pid is libltt's flight thread (its name, set by libltt). */
static int flight_thread(int pid, int tid)
{
	char p[96], name[32] = "";
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/task/%d/comm", pid, tid);
	f = fopen(p, "re");
	if (!f)
		return 0;
	if (!fgets(name, sizeof(name), f))
		name[0] = 0;
	fclose(f);
	return !strcmp(name, "ltt-flight\n");
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

/* The one child of pid (`ltt record`'s program) that has a registry entry: its pid, or 0. */
static int recorded_child(int pid)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0, n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char p[64], buf[512], *rp;
		long child = strtol(e->d_name, &rp, 10);
		FILE *f;
		int ppid = 0;
		struct target t;
		char why[64];

		if (*rp || child <= 0)
			continue;
		snprintf(p, sizeof(p), "/proc/%ld/stat", child);
		f = fopen(p, "re");
		if (!f)
			continue;
		if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')')))
			sscanf(rp + 1, " %*c %d", &ppid);
		fclose(f);
		if (ppid != pid || read_registry((int)child, &t, why, sizeof(why)))
			continue;
		found = (int)child;
		n++;
	}
	closedir(d);
	return n == 1 ? found : 0;
}

/* The history one kind of stream covers: from the latest first event among its tracefiles (every one
 * of them holds events from there on) to the last event of any. */
struct span {
	uint64_t start, end;
	int any;
};

static void span_add(struct span *sp, const struct ltt_tracefile_info *tf)
{
	if (!sp->any || tf->first_ns > sp->start)
		sp->start = tf->first_ns;
	if (!sp->any || tf->last_ns > sp->end)
		sp->end = tf->last_ns;
	sp->any = 1;
}

static double span_s(const struct span *sp)
{
	return sp->any && sp->end > sp->start ? (double)(sp->end - sp->start) / 1e9 : 0;
}

/* "ltt snapshot: DIR: S s of history (FIRST .. LAST; user U s, kernel K s), N events, L lost, O overwritten,
 * SIZE" on stderr: what the snapshot holds, read back (a line saying why when it cannot be). */
static void summary(const char *dir)
{
	const char *paths[1] = { dir };
	struct ltt_reader_options o = { LTT_READ_UNORDERED, NULL, NULL };
	struct ltt_reader *r;
	struct ltt_event ev;
	struct ltt_counts c;
	const struct ltt_trace_info *ti;
	struct span user = { 0, 0, 0 }, kern = { 0, 0, 0 };
	char err[512], streams[96] = "";
	uint64_t first = UINT64_MAX, last = 0, bytes = 0;

	if (ltt_reader_open(&r, paths, 1, &o, err, sizeof(err))) {
		fprintf(stderr, "ltt snapshot: %s: cannot read it back: %s\n", dir, err);
		return;
	}
	while (ltt_reader_next(r, &ev) > 0)
		;
	ti = ltt_reader_trace(r, 0);
	memset(&c, 0, sizeof(c));
	ltt_trace_counts(ti, &c);
	for (unsigned i = 0; i < ti->ntracefiles; i++) {
		const struct ltt_tracefile_info *tf = ti->tracefiles[i];

		bytes += tf->file_size;
		/* the history: the streams that overwrite (cpu/N, kernel/N), not the control data
		 * kept since the start */
		if (!tf->events || !strncmp(tf->name, "control/", 8))
			continue;
		if (tf->first_ns < first)
			first = tf->first_ns;
		if (tf->last_ns > last)
			last = tf->last_ns;
		span_add(!strncmp(tf->name, "kernel/", 7) ? &kern : &user, tf);
	}
	if (first > last)
		first = last = 0;
	if (user.any && kern.any)
		snprintf(streams, sizeof(streams), "; user %.3f s, kernel %.3f s", span_s(&user), span_s(&kern));
	fprintf(stderr, "ltt snapshot: %s: %.3f s of history (%llu.%09llu .. %llu.%09llu%s), %llu events, %llu lost, "
		"%llu overwritten, %.1f MiB\n", dir, (double)(last - first) / 1e9,
		(unsigned long long)(first / 1000000000u), (unsigned long long)(first % 1000000000u),
		(unsigned long long)(last / 1000000000u), (unsigned long long)(last % 1000000000u), streams,
		(unsigned long long)c.events, (unsigned long long)c.lost, (unsigned long long)c.overwritten,
		(double)bytes / 1048576.0);
	ltt_reader_close(r);
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
	char why[PATH_MAX + 512];
	unsigned before, after;
	uint64_t deadline;
	struct stat st;
	long pid;
	int c, rc;

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
		rc = read_registry((int)pid, &t, why, sizeof(why));
		if (rc == -ENOENT) {
			/* `ltt record`'s pid (it prints it; its program is its child): that program */
			int child = recorded_child((int)pid);

			if (child) {
				pid = child;
				rc = read_registry((int)pid, &t, why, sizeof(why));
			}
		}
		if (rc && rc != -ENOENT) {
			ltt_tool_error("snapshot", "process %ld: %s", pid, why);
			return 1;
		}
		/* a registry file whose start time is not this process's was left by an earlier process
		 * of the same pid that was killed: this one does not record (or has not registered yet) */
		if (rc || start_time((int)pid) != t.e.start) {
			ltt_tool_error("snapshot", "process %ld does not record a flight trace (ltt snapshot needs "
				       "LTT_MODE=flight or ltt record --mode flight)", pid);
			return 1;
		}
		if (!owned(t.e.path, why, sizeof(why))) {
			ltt_tool_error("snapshot", "process %ld: %s", pid, why);
			return 1;
		}
	} else {
		char real[PATH_MAX + 1], err[512], sysp[PATH_MAX + 32];
		struct ltt_system *sys;
		const char *mode, *spid;

		/* the trace names the pid to signal: only a trace of this user's (or root's) */
		snprintf(sysp, sizeof(sysp), "%s/info/system.xml", arg);
		if (!owned(arg, why, sizeof(why)) || (!access(sysp, F_OK) && !owned(sysp, why, sizeof(why)))) {
			ltt_tool_error("snapshot", "%s", why);
			return 1;
		}
		rc = ltt_system_read(arg, &sys, err, sizeof(err));
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
		if (pid <= 0 || *end || pid > INT_MAX) {
			ltt_tool_error("snapshot", "%s: info/system.xml has no ltt_pid", arg);
			ltt_system_free(sys);
			return 1;
		}
		ltt_system_free(sys);
		rc = read_registry((int)pid, &t, why, sizeof(why));
		if (rc && rc != -ENOENT) {
			ltt_tool_error("snapshot", "%s: process %ld: %s", arg, pid, why);
			return 1;
		}
		if (!realpath(arg, real) || rc || strcmp(real, t.e.path) || start_time((int)pid) != t.e.start) {
			ltt_tool_error("snapshot", "%s: process %ld no longer records it", arg, pid);
			return 1;
		}
	}
	if (start_time(t.pid) != t.e.start) {
		ltt_tool_error("snapshot", "process %d does not exist (it ended without removing %s)", t.pid,
			       t.registry);
		return 1;
	}
	if (!t.e.sig) {
		ltt_tool_error("snapshot", "process %d takes no snapshot signal (LTT_SNAPSHOT_SIGNAL=none)", t.pid);
		return 1;
	}
	/* libltt's flight thread takes the snapshot: the signal goes to it alone (it blocks it and
	 * waits for it, so neither the program's handler nor its default action can see it) */
	if (t.e.thread && !flight_thread(t.pid, t.e.thread))
		t.e.thread = 0;	/* gone (an exec): the checks below refuse */
	if (t.e.own_handler && !t.e.thread) {
		ltt_tool_error("snapshot", "process %d installed its own handler for signal %d (%s), ltt's "
			       "snapshot signal: it takes no snapshot by signal (ltt_snapshot() still does)",
			       t.pid, t.e.sig, sigabbrev_np(t.e.sig) ? sigabbrev_np(t.e.sig) : "?");
		return 1;
	}
	/* the program that registered is still the one running: an exec() keeps the pid and the start
	 * time, but changes the executable and resets every handler to its default */
	if (t.e.exe_ino) {
		char exe[64];

		snprintf(exe, sizeof(exe), "/proc/%d/exe", t.pid);
		if (!stat(exe, &st) &&
		    ((unsigned long long)st.st_dev != t.e.exe_dev || (unsigned long long)st.st_ino != t.e.exe_ino)) {
			ltt_tool_error("snapshot", "process %d runs another program since it registered (it "
				       "exec()ed): not signalled", t.pid);
			return 1;
		}
	}
	if (!t.e.thread && !catches(t.pid, t.e.sig)) {
		ltt_tool_error("snapshot", "process %d does not handle signal %d (%s) any more (it exec()ed, "
			       "or reset the handler): not signalled", t.pid, t.e.sig,
			       sigabbrev_np(t.e.sig) ? sigabbrev_np(t.e.sig) : "?");
		return 1;
	}
	before = last_snapshot(t.e.path);
	if (t.e.thread ? syscall(SYS_tgkill, t.pid, t.e.thread, t.e.sig) : kill(t.pid, t.e.sig)) {
		ltt_tool_error("snapshot", "process %d: cannot signal it: %s", t.pid, strerror(errno));
		return 1;
	}
	deadline = ltt_mono_ns() / 1000000u + (uint64_t)(timeout * 1000);
	while ((after = last_snapshot(t.e.path)) <= before) {
		if (ltt_mono_ns() / 1000000u >= deadline) {
			ltt_tool_error("snapshot", "process %d: no snapshot in %s within %g s", t.pid, t.e.path,
				       timeout);
			return 1;
		}
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
	printf("%s/snapshot-%04u\n", t.e.path, after);
	if (fflush(stdout))
		return 1;
	snprintf(why, sizeof(why), "%s/snapshot-%04u", t.e.path, after);
	summary(why);
	return 0;
}

const struct ltt_cmd ltt_cmd_snapshot = {
	.name = "snapshot",
	.summary = "take a snapshot of a process recording in flight mode (by pid or trace directory)",
	.usage = "usage: ltt snapshot [--timeout SECONDS] PID|TRACE\n"
		 "\n"
		 "Asks the process PID (or the program `ltt record` PID runs), or the process writing the\n"
		 "flight trace directory TRACE, for a snapshot (its LTT_SNAPSHOT_SIGNAL, SIGUSR2 by default,\n"
		 "sent to libltt's own thread: the program's threads are not interrupted), waits for it and\n"
		 "prints its directory, TRACE/snapshot-NNNN, then on stderr one line of what it holds (the\n"
		 "seconds of history, events, lost, overwritten, size). libltt lists each process recording\n"
		 "a flight trace in $XDG_RUNTIME_DIR/ltt/flight-PID or /tmp/ltt-UID/flight-PID (only a\n"
		 "directory and a file of yours or root's). Exits 1 with one line when the process does not exist, does\n"
		 "not record in flight mode, or no snapshot appeared in time.\n"
		 "\n"
		 "  -t, --timeout SECONDS   how long to wait for the snapshot (default 10)\n",
	.run = run,
};
