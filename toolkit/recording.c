/* SPDX-License-Identifier: MIT */
/* Has the recording a followed trace comes from ended? (doc/recorder.md "Following a live trace")
 *
 * The trace says when it is being written: a trace directory has info/write-losses, empty, from the
 * start of recording until it stops (then it is removed, or holds what could not be written); a
 * chunked capture has a chunk-NNNN.part (or a .chunk-NNNN.new being made) until the last chunk is
 * sealed. The recording process is ltt_pid of info/system.xml: on the host that recorded the trace
 * (node_name), it is gone when /proc/PID is missing, a zombie, or a later process (its start time after
 * the trace's ltt_start_time, or not the one seen first). A process gone with the trace still marked
 * as being written died without stopping the recording (killed, crashed). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/parse.h"
#include "common/proc.h"
#include "toolkit/follow.h"

void follow_recording_init(struct follow *f, const struct ltt_trace_info *t)
{
	const char *pid = ltt_trace_attr(t, "ltt_pid"), *node = ltt_trace_attr(t, "node_name");
	const char *start = ltt_trace_attr(t, "ltt_start_time");
	struct utsname u;
	uint64_t v;

	f->pid = 0;
	if (!pid || ltt_parse_u64(pid, &v) || !v || v > 0x7fffffff || !node || uname(&u) ||
	    strcmp(u.nodename, node))
		return;
	f->pid = (pid_t)v;
	f->pid_start = 0;
	if (!start || ltt_parse_seconds(start, &f->start_ns))
		f->start_ns = 0;
}

/* Boot time in seconds since the Epoch (btime of /proc/stat), 0 when unknown. */
static unsigned long long boot_time(void)
{
	char line[256];
	unsigned long long bt = 0;
	FILE *fp = fopen("/proc/stat", "re");

	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "btime %llu", &bt) == 1)
			break;
	fclose(fp);
	return bt;
}

/* 1 while the recording process runs, 0 when it is gone, -1 when it cannot be told. */
static int process_alive(struct follow *f)
{
	struct ltt_proc_id id;
	unsigned long long start;

	if (!f->pid)
		return -1;
	if (ltt_proc_id((int)f->pid, &id))
		return 0;
	if (id.state == 'Z' || id.state == 'X')
		return 0;
	start = id.start;
	if (!f->pid_start) {
		long hz = sysconf(_SC_CLK_TCK);
		unsigned long long bt = boot_time();

		/* a process begun after the recording (with a 2 s margin for btime's whole seconds) is
		 * not the recording one: its pid was used again */
		if (hz > 0 && bt && f->start_ns && bt + start / (unsigned long long)hz > f->start_ns / 1000000000u + 2)
			return 0;
		f->pid_start = start;
		return 1;
	}
	return start == f->pid_start;
}

/* 1 when the trace says it is being written, 0 when not. */
static int in_progress(struct follow *f)
{
	char p[4096];
	struct stat st;
	struct dirent *de;
	DIR *d;
	int any = 0;

	if (!f->chunked) {
		snprintf(p, sizeof(p), "%s/info/write-losses", f->path);
		return stat(p, &st) == 0 && st.st_size == 0;
	}
	if (!(d = opendir(f->path)))
		return 0;
	while ((de = readdir(d)) && !any) {
		size_t n = strlen(de->d_name);

		any = (!strncmp(de->d_name, "chunk-", 6) && n > 5 && !strcmp(de->d_name + n - 5, ".part")) ||
		      (!strncmp(de->d_name, ".chunk-", 7) && n > 4 && !strcmp(de->d_name + n - 4, ".new"));
	}
	closedir(d);
	return any;
}

enum follow_state follow_recording_state(struct follow *f)
{
	int marker = in_progress(f), alive = process_alive(f);

	if (marker)
		f->marker_seen = 1;
	if (alive == 0)
		return marker ? FOLLOW_DIED : FOLLOW_STOPPED;
	/* alive: stopped once seen in progress and no longer (the marker is made a moment after the
	 * trace directory); another host's process: stopped when the trace says so */
	if (!marker && (f->marker_seen || alive < 0))
		return FOLLOW_STOPPED;
	return FOLLOW_RUNNING;
}
