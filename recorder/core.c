/* SPDX-License-Identifier: MIT */
/* recorder/core.c: the core facility (eventdefs/core.xml), which libltt registers itself, and the
 * recorder's own events of it: processes and interrupts at start, threads and forks while recording.
 * Payloads are encoded here by hand, in the layout of core.xml (doc/format.md section 8). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "recorder.h"

static const char core_xml[] =
#include "ltt-core-xml.h"
	;

struct ltt_facility ltt_core_facility = {
	.name = "core",
	.xml = core_xml,
	.n_events = LTT_CORE_NEVENTS,
};

/* The strings core.xml feeds the checksum (doc/format.md section 8), in order. */
#define U32 "uint32_t"
#define U64 "uint64_t"
static const char *const core_strings[] = {
	"core",
	"process", "struct", "name", "string", "pid", U32, "ppid", U32, "tracer_pid", U32, "uid", U32,
	"euid", U32, "suid", U32, "fsuid", U32, "gid", U32, "egid", U32, "sgid", U32, "fsgid", U32,
	"state", "enum " U32, "Running", "WaitInterruptible", "WaitUninterruptible", "Zombie", "Traced",
	"Paging",
	"interrupt", "struct", "number", U32, "count", U32, "controller", "string", "name", "string",
	"thread_start", "struct", "tid", U32, "pid", U32, "name", "string",
	"thread_exit", "struct", "tid", U32,
	"thread_name", "struct", "tid", U32, "name", "string",
	"process_fork", "struct", "pid", U32, "child_pid", U32,
	"sampling", "struct", "cpu_sample_ms", U32, "stack_sample_hz", U32, "signal", U32,
	"process_cpu", "struct", "usage_us", U64,
	"thread_cpu", "struct", "tid", U32, "usage_us", U64,
	"pause", "struct", "tid", U32,
	"resume", "struct", "tid", U32,
	"mapping", "struct", "start", U64, "end", U64, "offset", U64, "build_id", "sequence 0", "uint8_t",
	"path", "string",
	"stack_sample", "struct", "tid", U32, "ticks", U32, "match", "uint16_t", "depth", "uint16_t",
	"frames", "sequence 1", U64,
	"event_rules", "struct", "rules", "string", "settle_ns", U32,
};

uint32_t ltt_checksum_strings(const char *const *strs, unsigned n)
{
	uint32_t table[256], crc = 0xFFFFFFFFu;

	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	for (unsigned i = 0; i < n; i++) {
		for (const unsigned char *p = (const unsigned char *)strs[i]; *p; p++)
			crc = table[(crc ^ *p) & 0xff] ^ (crc >> 8);
		if (i == 0)
			crc ^= 0xFFFFFFFFu;	/* the name is a complete CRC-32; the rest continue it */
	}
	return crc;
}

__attribute__((constructor(101))) static void core_register(void)
{
	ltt_core_facility.checksum =
		ltt_checksum_strings(core_strings, sizeof(core_strings) / sizeof(core_strings[0]));
	ltt_facility_register(&ltt_core_facility);
	ltt_waits_init();
}

static uint32_t gettid_(void)
{
	return (uint32_t)syscall(SYS_gettid);
}

/* Reserves a core event, copies the payload, commits (flags: LTT_EVENT_PERSISTENT or 0). */
void ltt_core_emit(unsigned index, const void *payload, size_t len, unsigned flags)
{
	struct ltt_slot s;

	if (!ltt_is_recording())
		return;
	if (ltt_event_reserve(&s, &ltt_core_facility, index, len, flags)) {
		memcpy(s.payload, payload, len);
		ltt_event_commit(&s);
	}
}

static void emit(unsigned index, const void *payload, size_t len)
{
	ltt_core_emit(index, payload, len, LTT_EVENT_PERSISTENT);
}

/* A small packer for payloads of strings and uint32s. */
struct pack {
	char buf[1024];
	size_t len;
};

static void pack_u32(struct pack *p, uint32_t v)
{
	if (p->len + 4 <= sizeof(p->buf))
		memcpy(p->buf + p->len, &v, 4);
	p->len += 4;
}

static void pack_str(struct pack *p, const char *s)
{
	size_t n = strnlen(s, 255);

	if (p->len + n + 1 <= sizeof(p->buf)) {
		memcpy(p->buf + p->len, s, n);
		p->buf[p->len + n] = 0;
	}
	p->len += n + 1;
}

static void emit_pack(unsigned index, const struct pack *p)
{
	if (p->len <= sizeof(p->buf))
		emit(index, p->buf, p->len);
}

/* ---- processes ------------------------------------------------------------------------------------ */

static uint32_t state_of(char c)
{
	switch (c) {
	case 'R': return 0;
	case 'S': case 'I': return 1;
	case 'D': return 2;
	case 'Z': case 'X': return 3;
	case 'T': case 't': return 4;
	default: return 5;
	}
}

static void emit_task(const char *tid)
{
	char path[64], line[256], name[64] = "";
	uint32_t pid = 0, ppid = 0, tracer = 0, uid[4] = { 0 }, gid[4] = { 0 }, state = 5;
	struct pack p = { .len = 0 };
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%s/status", tid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char c;

		if (sscanf(line, "Name:\t%63[^\n]", name) == 1 || sscanf(line, "PPid: %u", &ppid) == 1 ||
		    sscanf(line, "TracerPid: %u", &tracer) == 1 ||
		    sscanf(line, "Uid: %u %u %u %u", &uid[0], &uid[1], &uid[2], &uid[3]) == 4 ||
		    sscanf(line, "Gid: %u %u %u %u", &gid[0], &gid[1], &gid[2], &gid[3]) == 4)
			continue;
		if (sscanf(line, "State: %c", &c) == 1)
			state = state_of(c);
	}
	fclose(f);
	pid = (uint32_t)strtoul(tid, NULL, 10);
	pack_str(&p, name);
	pack_u32(&p, pid);
	pack_u32(&p, ppid);
	pack_u32(&p, tracer);
	for (int i = 0; i < 4; i++)
		pack_u32(&p, uid[i]);
	for (int i = 0; i < 4; i++)
		pack_u32(&p, gid[i]);
	pack_u32(&p, state);
	emit_pack(LTT_CORE_PROCESS, &p);
}

void ltt_core_emit_processes(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9' &&
		    strtoul(e->d_name, NULL, 10) != ltt_consumer_tid())
			emit_task(e->d_name);
	closedir(d);
}

/* ---- interrupts: one event per numbered line of /proc/interrupts ------------------------------- */

void ltt_core_emit_interrupts(void)
{
	FILE *f = fopen("/proc/interrupts", "re");
	char line[1024];
	unsigned ncol = 0;

	if (!f)
		return;
	if (fgets(line, sizeof(line), f))
		for (char *t = strtok(line, " \t\n"); t; t = strtok(NULL, " \t\n"))
			ncol++;
	while (fgets(line, sizeof(line), f)) {
		char *s = line, *end;
		unsigned long number, sum = 0;
		struct pack p = { .len = 0 };
		char *ctl;

		while (*s == ' ')
			s++;
		number = strtoul(s, &end, 10);
		if (end == s || *end != ':')
			continue;	/* NMI, LOC, ...: not numbered */
		s = end + 1;
		for (unsigned i = 0; i < ncol; i++) {
			unsigned long v = strtoul(s, &end, 10);

			if (end == s)
				break;
			sum += v;
			s = end;
		}
		s[strcspn(s, "\n")] = 0;
		while (*s == ' ')
			s++;
		ctl = s;
		s += strcspn(s, " ");
		if (*s)
			*s++ = 0;
		while (*s == ' ')
			s++;
		pack_u32(&p, (uint32_t)number);
		pack_u32(&p, (uint32_t)sum);
		pack_str(&p, ctl);
		pack_str(&p, s);
		emit_pack(LTT_CORE_INTERRUPT, &p);
	}
	fclose(f);
}

/* ---- threads and forks ---------------------------------------------------------------------------- */

void ltt_core_thread_start(void)
{
	char name[32] = "";
	struct pack p = { .len = 0 };
	FILE *f = fopen("/proc/thread-self/comm", "re");

	if (f) {
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = 0;
		fclose(f);
	}
	pack_u32(&p, gettid_());
	pack_u32(&p, (uint32_t)getpid());
	pack_str(&p, name);
	emit_pack(LTT_CORE_THREAD_START, &p);
}

void ltt_core_thread_exit(void)
{
	uint32_t tid = gettid_();

	emit(LTT_CORE_THREAD_EXIT, &tid, 4);
}

void ltt_core_thread_name(uint32_t tid, const char *name)
{
	struct pack p = { .len = 0 };

	pack_u32(&p, tid);
	pack_str(&p, name);
	emit_pack(LTT_CORE_THREAD_NAME, &p);
}

void ltt_core_process_fork(uint32_t pid, uint32_t child)
{
	uint32_t v[2] = { pid, child };

	emit(LTT_CORE_PROCESS_FORK, v, sizeof(v));
}

struct ltt_ring *ltt_event_ring(struct ltt_region *rg, const struct ltt_facility *fac, unsigned index,
				unsigned flags)
{
	unsigned cpu;

	if (flags & LTT_EVENT_PERSISTENT) {
		/* the core facility: libltt's own or a generated copy of it (same name, same ids) */
		if (fac != &ltt_core_facility && strcmp(fac->name, "core"))
			return &rg->rings[rg->ncpu + LTT_RING_PERSISTENT];
		return &rg->rings[rg->ncpu + (index == LTT_CORE_INTERRUPT ? LTT_RING_INTERRUPTS
									  : LTT_RING_PROCESSES)];
	}
	cpu = ltt_cpu_id();
	return &rg->rings[cpu < rg->ncpu ? cpu : cpu % rg->ncpu];
}
