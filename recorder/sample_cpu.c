/* SPDX-License-Identifier: MIT */
/* recorder/sample_cpu.c: CPU usage sampling (LTT_CPU_SAMPLE_MS): on each sample, the CPU time the process
 * used since the previous sample (core.process_cpu) and each live thread's (core.thread_cpu), in
 * microseconds, as TraceLog's `prc cpu` / `thr cpu`. Threads are read from /proc/self/task and their CPU
 * clocks; a thread first seen after the baseline is charged its whole CPU time (it started since the
 * previous sample), so the threads' usages add up to the process's (less what threads that ended since
 * the previous sample used). Run by the sampler thread only (and by ltt_stop() once it is joined). */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/grow.h"

#include "profile.h"
#include "recorder.h"

struct tcpu {
	uint32_t tid;
	uint32_t seen;		/* generation of the last scan that found it */
	uint64_t last_ns;	/* its CPU time at the previous sample */
};

static struct tcpu *tab;
static size_t ntab, cap;
static uint64_t proc_last;
static uint32_t gen;

/* The CPU-time clock of thread tid of this process (the kernel's MAKE_THREAD_CPUCLOCK(tid, SCHED)). */
static clockid_t thread_clock(uint32_t tid)
{
	return (clockid_t)((~tid << 3) | 6u);
}

static int cpu_ns(clockid_t c, uint64_t *ns)
{
	struct timespec ts;

	if (clock_gettime(c, &ts))
		return -1;
	*ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	return 0;
}

static struct tcpu *find(uint32_t tid)
{
	for (size_t i = 0; i < ntab; i++)
		if (tab[i].tid == tid)
			return &tab[i];
	return NULL;
}

static struct tcpu *add(uint32_t tid)
{
	if (LTT_GROW(tab, ntab + 1, cap))
		return NULL;
	tab[ntab] = (struct tcpu){ .tid = tid };
	return &tab[ntab++];
}

static void emit_thread(uint32_t tid, uint64_t us)
{
	unsigned char p[12];

	memcpy(p, &tid, 4);
	memcpy(p + 4, &us, 8);
	ltt_core_emit(LTT_CORE_THREAD_CPU, p, sizeof(p), 0);
}

/* baseline: the first scan (no event; threads keep their current CPU time as the reference). */
static void sample(int emit, int baseline)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	uint64_t now, us;
	size_t k;

	if (!d)
		return;
	gen++;
	if (!cpu_ns(CLOCK_PROCESS_CPUTIME_ID, &now)) {
		us = (now - proc_last) / 1000;
		if (emit)
			ltt_core_emit(LTT_CORE_PROCESS_CPU, &us, sizeof(us), 0);
		/* the remainder below 1 us is carried to the next sample */
		proc_last += us * 1000;
		if (baseline)
			proc_last = now;
	}
	while ((e = readdir(d))) {
		uint32_t tid;
		struct tcpu *t;
		uint64_t ns;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		tid = (uint32_t)strtoul(e->d_name, NULL, 10);
		if (cpu_ns(thread_clock(tid), &ns))
			continue;	/* ended meanwhile */
		t = find(tid);
		if (!t) {
			t = add(tid);
			if (!t)
				continue;
			t->last_ns = baseline ? ns : 0;
		}
		t->seen = gen;
		us = (ns - t->last_ns) / 1000;
		if (emit)
			emit_thread(tid, us);
		t->last_ns += us * 1000;
	}
	closedir(d);
	for (k = 0; k < ntab;) {
		if (tab[k].seen != gen)
			tab[k] = tab[--ntab];
		else
			k++;
	}
}

int ltt_cpu_sample_init(void)
{
	ntab = 0;
	proc_last = 0;
	sample(0, 1);
	return 0;
}

void ltt_cpu_sample(int emit)
{
	sample(emit, 0);
}

void ltt_cpu_sample_fini(void)
{
	free(tab);
	tab = NULL;
	ntab = cap = 0;
}
