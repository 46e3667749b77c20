/* SPDX-License-Identifier: MIT */
/* recorder/kernel_state.c: the state dump of LTT_KERNEL_SCOPE=system (as LTT's and LTTng's): one
 * kernel.state_process per thread alive at start (from /proc/PID/task/TID/stat and status), then
 * kernel.state_end with their count, so that a switch to any thread names its process. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel.h"

static void dump_task(unsigned pid, const char *tid, unsigned *count)
{
	char p[320], line[1024], comm[32] = "", state = '?';
	unsigned ppid = 0, uid = 0;
	long prio = 0;
	struct ltt_kpack k = { .len = 0 };
	FILE *f;
	char *a, *b;

	snprintf(p, sizeof(p), "/proc/%u/task/%s/stat", pid, tid);
	f = fopen(p, "re");
	if (!f)
		return;		/* ended meanwhile */
	if (!fgets(line, sizeof(line), f))
		line[0] = 0;
	fclose(f);
	/* "TID (COMM) S PPID ..." with COMM possibly holding ')' : the last ')' ends it */
	a = strchr(line, '(');
	b = strrchr(line, ')');
	if (!a || !b || b < a)
		return;
	snprintf(comm, sizeof(comm), "%.*s", (int)(b - a - 1), a + 1);
	{
		/* fields after ')': state(3) ppid(4) ... priority(18) */
		char *save = NULL, *tok = strtok_r(b + 1, " ", &save);

		for (int i = 3; tok; i++, tok = strtok_r(NULL, " ", &save)) {
			if (i == 3)
				state = tok[0];
			else if (i == 4)
				ppid = (unsigned)strtoul(tok, NULL, 10);
			else if (i == 18) {
				prio = strtol(tok, NULL, 10);
				break;
			}
		}
	}
	snprintf(p, sizeof(p), "/proc/%u/task/%s/status", pid, tid);
	f = fopen(p, "re");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "Uid: %u", &uid) == 1)
				break;
		fclose(f);
	}
	ltt_kpack_u32(&k, (uint32_t)strtoul(tid, NULL, 10));
	ltt_kpack_u32(&k, pid);
	ltt_kpack_u32(&k, ppid);
	ltt_kpack_u32(&k, uid);
	ltt_kpack_u8(&k, (uint8_t)state);
	/* /proc's priority is the kernel's prio - 100 (sched_switch's prev_prio is the kernel's) */
	ltt_kpack_u32(&k, (uint32_t)(int32_t)(prio + 100));
	ltt_kpack_str(&k, comm, sizeof(comm));
	ltt_kernel_emit_persistent(LTT_K_STATE_PROCESS, k.buf, k.len);
	(*count)++;
}

void ltt_kernel_state_dump(void)
{
	DIR *d = opendir("/proc"), *t;
	struct dirent *e, *te;
	struct ltt_kpack k = { .len = 0 };
	unsigned count = 0;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char p[64];
		unsigned pid;

		if (e->d_name[0] < '1' || e->d_name[0] > '9')
			continue;
		pid = (unsigned)strtoul(e->d_name, NULL, 10);
		snprintf(p, sizeof(p), "/proc/%u/task", pid);
		t = opendir(p);
		if (!t)
			continue;
		while ((te = readdir(t)))
			if (te->d_name[0] >= '1' && te->d_name[0] <= '9')
				dump_task(pid, te->d_name, &count);
		closedir(t);
	}
	closedir(d);
	ltt_kpack_u32(&k, 0);
	ltt_kpack_u32(&k, count);
	ltt_kernel_emit_persistent(LTT_K_STATE_END, k.buf, k.len);
}
