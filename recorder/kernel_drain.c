/* SPDX-License-Identifier: MIT */
/* recorder/kernel_drain.c: the drain thread (doc/recorder.md "Kernel events"). It sleeps in poll() on
 * perf's rings until one is a quarter full or LTT_KERNEL_DRAIN_MS pass, then moves every record of
 * each ring, in the ring's (time) order, into the region's kernel ring of the same CPU as a kernel
 * event stamped with the kernel's time. It never blocks the program: perf's rings are read lock-free
 * (data_head / data_tail), and the kernel rings are written as any writer does (a full ring drops,
 * counted). perf's lost records become events_lost of cause kernel in kernel/N. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <time.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fd_names.h"
#include "flight.h"
#include "kernel_int.h"
#include "profile.h"
#include "recorder.h"
#include "threads.h"
#include "common/syscall_names.h"

#define G_SCHED LTT_KGROUP_SCHED
const struct ltt_ktp_def ltt_ktp_defs[LTT_KTP_N] = {
	[LTT_KTP_SYS_ENTER] = { "raw_syscalls", "sys_enter", LTT_KGROUP_SYSCALLS, 2, { "id", "args" } },
	[LTT_KTP_SYS_EXIT] = { "raw_syscalls", "sys_exit", LTT_KGROUP_SYSCALLS, 2, { "id", "ret" } },
	[LTT_KTP_SWITCH] = { "sched", "sched_switch", G_SCHED, 7,
			     { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid",
			       "next_prio" } },
	[LTT_KTP_WAKEUP] = { "sched", "sched_wakeup", G_SCHED, 4, { "comm", "pid", "prio", "target_cpu" } },
	[LTT_KTP_WAKEUP_NEW] = { "sched", "sched_wakeup_new", G_SCHED, 4, { "comm", "pid", "prio", "target_cpu" } },
	[LTT_KTP_MIGRATE] = { "sched", "sched_migrate_task", G_SCHED, 5,
			      { "comm", "pid", "prio", "orig_cpu", "dest_cpu" } },
	[LTT_KTP_FORK] = { "sched", "sched_process_fork", G_SCHED, 3, { "parent_pid", "child_comm", "child_pid" } },
	[LTT_KTP_EXEC] = { "sched", "sched_process_exec", G_SCHED, 3, { "filename", "pid", "old_pid" } },
	[LTT_KTP_EXIT] = { "sched", "sched_process_exit", G_SCHED, 3, { "comm", "pid", "prio" } },
	[LTT_KTP_IRQ_ENTRY] = { "irq", "irq_handler_entry", LTT_KGROUP_IRQ, 2, { "irq", "name" } },
	[LTT_KTP_IRQ_EXIT] = { "irq", "irq_handler_exit", LTT_KGROUP_IRQ, 2, { "irq", "ret" } },
	[LTT_KTP_SOFTIRQ_RAISE] = { "irq", "softirq_raise", LTT_KGROUP_IRQ, 1, { "vec" } },
	[LTT_KTP_SOFTIRQ_ENTRY] = { "irq", "softirq_entry", LTT_KGROUP_IRQ, 1, { "vec" } },
	[LTT_KTP_SOFTIRQ_EXIT] = { "irq", "softirq_exit", LTT_KGROUP_IRQ, 1, { "vec" } },
	[LTT_KTP_PF_USER] = { "exceptions", "page_fault_user", LTT_KGROUP_FAULTS, 3, { "address", "ip", "error_code" } },
	[LTT_KTP_PF_KERNEL] = { "exceptions", "page_fault_kernel", LTT_KGROUP_FAULTS, 3,
				{ "address", "ip", "error_code" } },
};

/* A record's raw tracepoint data. */
struct raw {
	const char *p;
	uint32_t len;
};

static int64_t get_int(const struct raw *r, const struct ltt_tp_field *f)
{
	if (f->off < 0 || (uint32_t)(f->off + f->size) > r->len)
		return 0;
	switch (f->size) {
	case 1: { int8_t v; memcpy(&v, r->p + f->off, 1); return v; }
	case 2: { int16_t v; memcpy(&v, r->p + f->off, 2); return v; }
	case 4: { int32_t v; memcpy(&v, r->p + f->off, 4); return v; }
	case 8: { int64_t v; memcpy(&v, r->p + f->off, 8); return v; }
	default: return 0;
	}
}

/* A string field (char[N] or __data_loc char[]) into out. */
static void get_str(const struct raw *r, const struct ltt_tp_field *f, char *out, size_t n)
{
	uint32_t off = (uint32_t)f->off, len = (uint32_t)f->size;

	out[0] = 0;
	if (f->off < 0 || off + 4 > r->len)
		return;
	if (f->data_loc) {
		uint32_t dl;

		memcpy(&dl, r->p + off, 4);
		off = dl & 0xffff;
		len = dl >> 16;
	}
	if (off > r->len || len > r->len - off)
		return;
	if (len >= n)
		len = (uint32_t)n - 1;
	memcpy(out, r->p + off, len);
	out[len] = 0;
	out[strnlen(out, len)] = 0;
}

/* The trace's cycle count of perf time t on CPU c (before the floor of kernel/N). */
static uint64_t cycles_of(unsigned c, uint64_t t)
{
	struct ltt_kconv cv;

	if (!ltt_k.conv_tsc)
		return t;	/* perf stamped in CLOCK_MONOTONIC, the trace's clock */
	return ltt_kernel_conv_read(ltt_k.rings[c].page, &cv) ? t : ltt_kernel_tsc_of(&cv, t);
}

/* Writes kernel event index with payload p into the kernel ring of CPU c at cycle count cyc. */
static void put_cyc(unsigned c, uint64_t cyc, unsigned index, const struct ltt_kpack *p)
{
	struct ltt_kring *kr = &ltt_k.rings[c];
	struct ltt_ring *r = &ltt_k.rg->rings[ltt_region_kbase(ltt_k.rg) + c];
	struct ltt_slot s;

	if (!ltt_kpack_ok(p) || !(ltt_event_enabled(ltt_kernel_facility.enabled, index) & LTT_EVENT_ON))
		return;
	if (cyc < kr->floor) {
		cyc = kr->floor;	/* not older than what kernel/N holds (doc/recorder.md) */
		ltt_k.clamped++;
	}
	kr->floor = cyc;
	if (ltt_ring_reserve_at(&s, r, (uint16_t)(ltt_kernel_facility.base_code + index), p->len, cyc)) {
		memcpy(s.payload, p->buf, p->len);
		ltt_event_commit(&s);
		/* LTT_SNAPSHOT_ON naming a kernel event (recorder/flight_trigger.c) */
		if (ltt_unlikely(ltt_event_enabled(ltt_kernel_facility.enabled, index) & LTT_EVENT_TRIGGER))
			ltt_snapshot_trigger(&ltt_kernel_facility, index);
	}
}

/* The same at perf time t. */
static void put(unsigned c, uint64_t t, unsigned index, const struct ltt_kpack *p)
{
	put_cyc(c, cycles_of(c, t), index, p);
}

/* ---- whole system calls (kernel.syscall, doc/format.md section 13) ------------------------------
 * A sys_enter is held back per CPU until the CPU's next record: when that is the same thread's
 * sys_exit of the same call, the two become one kernel.syscall at the exit, carrying the call's
 * duration and only the arguments the call takes (25 bytes for getppid instead of 84); anything else
 * (a switch, a wakeup, a fault, a loss, the end of the pass) writes the held entry as it was first. */
struct kpend {
	int on;
	uint32_t tid, nr;
	uint64_t t;
	uint64_t args[6];
};
static struct kpend pend[LTT_KCPU_MAX];

/* Whether entries and exits may become kernel.syscall: all three selected, and no trigger on the
 * entry or the exit (it must see them). */
static int whole_ok(void)
{
	uint8_t in = ltt_event_enabled(ltt_kernel_facility.enabled, LTT_K_SYSCALL_ENTRY);
	uint8_t out = ltt_event_enabled(ltt_kernel_facility.enabled, LTT_K_SYSCALL_EXIT);
	uint8_t w = ltt_event_enabled(ltt_kernel_facility.enabled, LTT_K_SYSCALL);

	return (in & LTT_EVENT_ON) && (out & LTT_EVENT_ON) && (w & LTT_EVENT_ON) &&
	       !((in | out) & LTT_EVENT_TRIGGER);
}

static void pack_entry(struct ltt_kpack *p, uint32_t tid, uint32_t nr, const uint64_t *args)
{
	ltt_kpack_u32(p, tid);
	ltt_kpack_u32(p, nr);
	for (int i = 0; i < 6; i++)
		ltt_kpack_u64(p, args[i]);
}

/* Writes CPU c's held entry, if any, as a kernel.syscall_entry. */
void ltt_kernel_pend_flush(unsigned c)
{
	struct kpend *e = &pend[c];
	struct ltt_kpack p = { .len = 0 };

	if (!e->on)
		return;
	e->on = 0;
	pack_entry(&p, e->tid, e->nr, e->args);
	put(c, e->t, LTT_K_SYSCALL_ENTRY, &p);
}

/* The exit of thread tid's call nr at t, returning ret: 1 when it made a kernel.syscall with CPU c's
 * held entry, 0 when the exit is to be written as such (the held entry written first). */
static int pend_exit(unsigned c, uint32_t tid, uint32_t nr, uint64_t t, int64_t ret)
{
	struct kpend *e = &pend[c];
	struct ltt_kpack p = { .len = 0 };
	uint64_t a, b;
	int n;

	if (!e->on)
		return 0;
	if (e->tid != tid || e->nr != nr || nr > UINT16_MAX || t < e->t) {
		ltt_kernel_pend_flush(c);
		return 0;
	}
	a = cycles_of(c, e->t);
	b = cycles_of(c, t);
	if (b < a || b - a > UINT32_MAX || a < ltt_k.rings[c].floor) {
		ltt_kernel_pend_flush(c);
		return 0;
	}
	e->on = 0;
#if defined(__x86_64__)
	n = syscall_nargs("x86_64", nr);
#else
	n = 6;	/* the numbers of arguments are known for x86_64 only: every register */
#endif
	ltt_kpack_u32(&p, tid);
	ltt_kpack_u16(&p, (uint16_t)nr);
	ltt_kpack_u32(&p, (uint32_t)(b - a));
	ltt_kpack_u64(&p, (uint64_t)ret);
	ltt_kpack_u8(&p, (uint8_t)n);
	for (int i = 0; i < n; i++)
		ltt_kpack_u64(&p, e->args[i]);
	put_cyc(c, b, LTT_K_SYSCALL, &p);
	return 1;
}

/* What a sample of tracepoint kind k on CPU c becomes. tid: the thread it ran in. */
static void sample(unsigned c, unsigned k, uint32_t pid, uint32_t tid, uint64_t t, const struct raw *r)
{
	const struct ltt_tp_field *f = ltt_k.tps[k].f;
	struct ltt_kpack p = { .len = 0 };
	char s1[64], s2[64];
	uint64_t args[6];
	unsigned index;

	if (k != LTT_KTP_SYS_EXIT)
		ltt_kernel_pend_flush(c);	/* a record between: the held entry is written as such, first */
	/* process scope: the process's threads only (inherit_thread keeps children out; older kernels
	 * without it copy the events into children, dropped here) */
	if (!ltt_k.system && pid != ltt_k.pid && k != LTT_KTP_FORK)
		return;
	if (ltt_k.system && tid == ltt_k.drain_tid && k != LTT_KTP_SWITCH)
		return;	/* the drain thread's own work (system scope) */
	/* libltt's sampler thread starts after the events (it inherits them): not the program's */
	if (!ltt_k.system && tid && tid == ltt_sampler_tid())
		return;
	/* libltt's stop sequence (kernel.c's flush_lost: affinity changes, getppid, waits): not the
	 * program's calls. Acquire: pairs with the release store of stop_tid after stop_ns. */
	if ((k == LTT_KTP_SYS_ENTER || k == LTT_KTP_SYS_EXIT) && tid &&
	    tid == __atomic_load_n(&ltt_k.stop_tid, __ATOMIC_ACQUIRE) && t >= ltt_k.stop_ns)
		return;
	switch (k) {
	case LTT_KTP_SYS_ENTER:
		index = LTT_K_SYSCALL_ENTRY;
		if (pid == ltt_k.pid)	/* duration triggers: the program's calls (flight_duration.c) */
			ltt_trigger_sys_enter(tid, (uint32_t)get_int(r, &f[0]), t);
		for (int i = 0; i < 6; i++) {
			args[i] = 0;
			if (f[1].off >= 0 && (uint32_t)f[1].off + 8u * (unsigned)(i + 1) <= r->len)
				memcpy(&args[i], r->p + f[1].off + 8 * i, 8);
		}
		if (whole_ok()) {	/* held until the CPU's next record (pend_exit) */
			struct kpend *e = &pend[c];

			e->on = 1;
			e->tid = tid;
			e->nr = (uint32_t)get_int(r, &f[0]);
			e->t = t;
			memcpy(e->args, args, sizeof(args));
			ltt_fd_syscall(c, pid, tid, 0, e->nr, args, 0);	/* fd names (fd_names.c) */
			return;
		}
		pack_entry(&p, tid, (uint32_t)get_int(r, &f[0]), args);
		put(c, t, index, &p);
		ltt_fd_syscall(c, pid, tid, 0, (uint32_t)get_int(r, &f[0]), args, 0);	/* fd names (fd_names.c) */
		return;
	case LTT_KTP_SYS_EXIT:
		index = LTT_K_SYSCALL_EXIT;
		if (pid == ltt_k.pid)
			ltt_trigger_sys_exit(tid, (uint32_t)get_int(r, &f[0]), t);
		if (pend_exit(c, tid, (uint32_t)get_int(r, &f[0]), t, get_int(r, &f[1]))) {
			ltt_fd_syscall(c, pid, tid, 1, (uint32_t)get_int(r, &f[0]), NULL, get_int(r, &f[1]));
			return;
		}
		ltt_kpack_u32(&p, tid);
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[0]));
		ltt_kpack_u64(&p, (uint64_t)get_int(r, &f[1]));
		put(c, t, index, &p);
		ltt_fd_syscall(c, pid, tid, 1, (uint32_t)get_int(r, &f[0]), NULL, get_int(r, &f[1]));
		return;
	case LTT_KTP_SWITCH: {
		uint32_t out = (uint32_t)get_int(r, &f[1]);

		index = LTT_K_SCHEDCHANGE;
		get_str(r, &f[0], s1, 17);
		get_str(r, &f[4], s2, 17);
		ltt_kpack_u32(&p, out);
		ltt_kpack_u32(&p, out);
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[5]));
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[3]));
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[2]));
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[6]));
		ltt_kpack_str(&p, s1, 16);
		ltt_kpack_str(&p, s2, 16);
		break;
	}
	case LTT_KTP_WAKEUP:
	case LTT_KTP_WAKEUP_NEW:
	case LTT_KTP_MIGRATE:
	case LTT_KTP_EXIT:
		index = LTT_K_PROCESS;
		get_str(r, &f[0], s1, 17);
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[1]));
		ltt_kpack_u8(&p, k == LTT_KTP_MIGRATE ? LTT_KP_MIGRATE : k == LTT_KTP_EXIT ? LTT_KP_EXIT : LTT_KP_WAKEUP);
		ltt_kpack_u32(&p, k == LTT_KTP_EXIT ? 0 : (uint32_t)get_int(r, &f[3]));
		ltt_kpack_u32(&p, k == LTT_KTP_MIGRATE ? (uint32_t)get_int(r, &f[4]) : k == LTT_KTP_WAKEUP_NEW);
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[2]));
		ltt_kpack_str(&p, s1, 16);
		break;
	case LTT_KTP_FORK:
		if (!ltt_k.system && (uint32_t)get_int(r, &f[0]) != tid)
			return;
		if (!ltt_k.system && pid != ltt_k.pid)
			return;
		index = LTT_K_PROCESS;
		get_str(r, &f[1], s1, 17);
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[0]));
		ltt_kpack_u8(&p, LTT_KP_FORK);
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[2]));
		ltt_kpack_u32(&p, 0);
		ltt_kpack_u32(&p, 0);
		ltt_kpack_str(&p, s1, 16);
		break;
	case LTT_KTP_EXEC:
		index = LTT_K_PROCESS;
		get_str(r, &f[0], s2, sizeof(s2));
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[1]));
		ltt_kpack_u8(&p, LTT_KP_EXEC);
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[2]));
		ltt_kpack_u32(&p, 0);
		ltt_kpack_u32(&p, 0);
		ltt_kpack_str(&p, s2, sizeof(s2));
		break;
	case LTT_KTP_IRQ_ENTRY:
		index = LTT_K_IRQ_ENTRY;
		get_str(r, &f[1], s1, sizeof(s1));
		ltt_kpack_u32(&p, tid);
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[0]));
		ltt_kpack_str(&p, s1, sizeof(s1));
		break;
	case LTT_KTP_IRQ_EXIT:
		index = LTT_K_IRQ_EXIT;
		ltt_kpack_u32(&p, tid);
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[0]));
		ltt_kpack_u32(&p, (uint32_t)get_int(r, &f[1]));
		break;
	case LTT_KTP_SOFTIRQ_RAISE:
	case LTT_KTP_SOFTIRQ_ENTRY:
	case LTT_KTP_SOFTIRQ_EXIT:
		index = LTT_K_SOFT_IRQ;
		ltt_kpack_u32(&p, tid);
		ltt_kpack_u8(&p, (uint8_t)(1 + k - LTT_KTP_SOFTIRQ_RAISE));
		ltt_kpack_u8(&p, (uint8_t)get_int(r, &f[0]));
		break;
	case LTT_KTP_PF_USER:
	case LTT_KTP_PF_KERNEL:
		index = LTT_K_TRAP_ENTRY;
		ltt_kpack_u32(&p, tid);
		ltt_kpack_u16(&p, 14);
		ltt_kpack_u64(&p, (uint64_t)get_int(r, &f[0]));
		ltt_kpack_u64(&p, (uint64_t)get_int(r, &f[1]));
		ltt_kpack_u64(&p, (uint64_t)get_int(r, &f[2]));
		ltt_kpack_u8(&p, k == LTT_KTP_PF_KERNEL);
		break;
	default:
		return;
	}
	put(c, t, index, &p);
}

/* ---- waiting for a CPU: the kernel's run_delay (process scope) -----------------------------------
 * A process-scope recording sees its threads' switches but not the wakeups other processes (or
 * interrupts) do: the time from such a wakeup to the switch-in would look like sleep. The kernel counts
 * it per thread (schedstat: run_delay, the time runnable and not running, and timeslices, the
 * switch-ins, both updated at each switch-in), readable for one's own threads without privilege. So
 * every thread switched in during a pass is sampled at the start of the next pass, and the sample is
 * written as kernel.run_delay stamped after the read: the reader's model gives the run_delay grown
 * between two samples to the switch-ins between them (doc/format.md section 13 "Waiting for a CPU").
 * Cumulative counts: a sample missed (a full list) only delays the answer, never loses it. */
#define RD_MAX 4096u		/* threads sampled per pass */
#define RD_HASH 8192u		/* dedup set (power of 2, twice RD_MAX) */
struct rd_sample {
	uint32_t tid;
	uint64_t delay, slices;
	uint8_t from_start;
};
static uint32_t rd_list[2][RD_MAX];	/* [cur]: marked this pass; [!cur]: to sample */
static unsigned rd_n[2], rd_cur;
static struct { uint32_t tid, gen; } rd_set[RD_HASH];
static uint32_t rd_gen = 1;
static uint32_t rd_start[RD_HASH];	/* the threads at start (open addressing; 0 free) */
static struct rd_sample rd_samples[RD_MAX];
static unsigned rd_nsamples;
static int rd_dir = -1;			/* /proc/self/task */
static int rd_on;

static void rd_mark(uint32_t tid);

static int rd_started(uint32_t tid)
{
	for (uint32_t i = tid * 2654435761u & (RD_HASH - 1); rd_start[i]; i = (i + 1) & (RD_HASH - 1))
		if (rd_start[i] == tid)
			return 1;
	return 0;
}

/* Called by ltt_kernel_open with the threads recorded at start (before the drain goes). */
void ltt_kernel_rd_start(const int *tids, unsigned n)
{
	if (ltt_k.system || !(ltt_k.groups & LTT_KGROUP_SCHED))
		return;
	rd_dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (rd_dir < 0)
		return;
	rd_on = 1;
	for (unsigned k = 0; k < n && k < RD_MAX; k++) {
		uint32_t i = (uint32_t)tids[k] * 2654435761u & (RD_HASH - 1);

		while (rd_start[i])
			i = (i + 1) & (RD_HASH - 1);
		rd_start[i] = (uint32_t)tids[k];
		rd_mark((uint32_t)tids[k]);	/* the base sample, at the first pass */
	}
}

static void rd_mark(uint32_t tid)
{
	uint32_t i;

	if (!rd_on || !tid || tid == ltt_k.drain_tid)
		return;
	for (i = tid * 2654435761u & (RD_HASH - 1); rd_set[i].gen == rd_gen; i = (i + 1) & (RD_HASH - 1))
		if (rd_set[i].tid == tid)
			return;
	if (rd_n[rd_cur] >= RD_MAX)
		return;	/* sampled at its next switch-in: the counts are cumulative */
	rd_set[i].tid = tid;
	rd_set[i].gen = rd_gen;
	rd_list[rd_cur][rd_n[rd_cur]++] = tid;
}

/* Reads a thread's schedstat: 0, or -1 (it ended). dir: /proc/self/task or -1 (the thread itself). */
static int rd_read(int dir, uint32_t tid, uint64_t *delay, uint64_t *slices)
{
	char path[48], buf[96];
	unsigned long long run, d, sl;
	ssize_t n;
	int fd;

	if (dir >= 0)
		snprintf(path, sizeof(path), "%" PRIu32 "/schedstat", tid);
	else
		snprintf(path, sizeof(path), "/proc/thread-self/schedstat");
	fd = openat(dir >= 0 ? dir : AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	if (sscanf(buf, "%llu %llu %llu", &run, &d, &sl) != 3)
		return -1;
	*delay = d;
	*slices = sl;
	return 0;
}

static void rd_pack(struct ltt_kpack *p, const struct rd_sample *s)
{
	ltt_kpack_u32(p, s->tid);
	ltt_kpack_u64(p, s->delay);
	ltt_kpack_u64(p, s->slices);
	ltt_kpack_u8(p, s->from_start);
}

/* The threads marked in the last pass, read now; returns the time after the reads. */
static uint64_t rd_take(void)
{
	unsigned list = rd_cur;

	rd_nsamples = 0;
	if (!rd_on)
		return 0;
	rd_cur ^= 1;
	rd_n[rd_cur] = 0;
	rd_gen++;
	for (unsigned k = 0; k < rd_n[list]; k++) {
		struct rd_sample *s = &rd_samples[rd_nsamples];

		s->tid = rd_list[list][k];
		if (rd_read(rd_dir, s->tid, &s->delay, &s->slices))
			continue;
		s->from_start = !rd_started(s->tid);
		rd_nsamples++;
	}
	return ltt_clock_now();	/* after the reads: every switch-in they count is before it */
}

/* Writes the samples at `at` (or later: not before what the ring holds) into the first kernel ring. */
static void rd_put(uint64_t at)
{
	for (unsigned c = 0; c < ltt_k.ncpu && rd_nsamples; c++) {
		struct ltt_kring *kr = &ltt_k.rings[c];
		struct ltt_ring *r;

		if (!kr->page)
			continue;
		r = &ltt_k.rg->rings[ltt_region_kbase(ltt_k.rg) + c];
		if (at < kr->floor)
			at = kr->floor;
		kr->floor = at;
		for (unsigned k = 0; k < rd_nsamples; k++) {
			struct ltt_kpack p = { .len = 0 };
			struct ltt_slot s;

			rd_pack(&p, &rd_samples[k]);
			if (ltt_ring_reserve_at(&s, r, (uint16_t)(ltt_kernel_facility.base_code + LTT_K_RUN_DELAY),
						p.len, at)) {
				memcpy(s.payload, p.buf, p.len);
				ltt_event_commit(&s);
			}
		}
		break;
	}
	rd_nsamples = 0;
}

void ltt_kernel_thread_end(void)
{
	struct rd_sample s;
	struct ltt_kpack p = { .len = 0 };

	if (!ltt_read(&rd_on) || !ltt_read(&ltt_k.go) || ltt_read(&ltt_k.stop))
		return;
	s.tid = (uint32_t)syscall(SYS_gettid);
	if (rd_read(-1, s.tid, &s.delay, &s.slices))
		return;
	s.from_start = !rd_started(s.tid);
	rd_pack(&p, &s);
	ltt_kernel_emit(LTT_K_RUN_DELAY, p.buf, p.len);
}

/* sample_id (sample_id_all) of a non-sample record: pid, tid, time, cpu at its end. */
static int sample_id(const char *rec, uint32_t size, uint32_t *pid, uint32_t *tid, uint64_t *t)
{
	const char *e = rec + size - 24;

	if (size < sizeof(struct perf_event_header) + 24)
		return -1;
	memcpy(pid, e, 4);
	memcpy(tid, e + 4, 4);
	memcpy(t, e + 8, 8);
	return 0;
}

static void record(unsigned c, const char *rec, uint32_t size)
{
	struct perf_event_header h;
	uint32_t pid, tid;
	uint64_t t;

	memcpy(&h, rec, sizeof(h));
	if (h.type != PERF_RECORD_SAMPLE)
		ltt_kernel_pend_flush(c);
	if (h.type == PERF_RECORD_SAMPLE && size >= sizeof(h) + 28) {
		const char *q = rec + sizeof(h);
		struct raw r;
		uint16_t type;

		memcpy(&pid, q, 4);
		memcpy(&tid, q + 4, 4);
		memcpy(&t, q + 8, 8);
		memcpy(&r.len, q + 24, 4);
		r.p = q + 28;
		if (r.len > size - sizeof(h) - 28 || r.len < 2)
			return;
		memcpy(&type, r.p, 2);	/* common_type: the tracepoint's id */
		for (unsigned k = 0; k < LTT_KTP_N; k++)
			if (ltt_k.tps[k].on && ltt_k.tps[k].id == type) {
				sample(c, k, pid, tid, t, &r);
				return;
			}
	} else if (h.type == PERF_RECORD_SWITCH && !sample_id(rec, size, &pid, &tid, &t)) {
		struct ltt_kpack p = { .len = 0 };
		int out = !!(h.misc & PERF_RECORD_MISC_SWITCH_OUT);

		if (pid != ltt_k.pid)
			return;
		if (!out)
			rd_mark(tid);
		if (out && ltt_k.tps[LTT_KTP_SWITCH].on)
			return;	/* the tracepoint's schedchange says it, with the state */
		ltt_kpack_u32(&p, tid);
		ltt_kpack_u8(&p, (uint8_t)out);
		ltt_kpack_u8(&p, out && (h.misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT));
		put(c, t, LTT_K_THREAD_SWITCH, &p);
	} else if (h.type == PERF_RECORD_LOST && size >= sizeof(h) + 16) {
		uint64_t lost;

		memcpy(&lost, rec + sizeof(h) + 8, 8);
		/* counted in kernel/N's next events_lost record (ring.c writes them at block opens) */
		ltt_add(&ltt_k.rg->rings[ltt_region_kbase(ltt_k.rg) + c].lost[LTT_LOST_CAUSE_KERNEL], lost);
	} else if (h.type == PERF_RECORD_LOST_SAMPLES && size >= sizeof(h) + 8) {
		uint64_t lost;

		memcpy(&lost, rec + sizeof(h), 8);
		ltt_add(&ltt_k.rg->rings[ltt_region_kbase(ltt_k.rg) + c].lost[LTT_LOST_CAUSE_KERNEL], lost);
	}
}

/* Moves every record of CPU c's perf ring. Returns the bytes consumed. */
static uint64_t drain_ring(unsigned c)
{
	struct ltt_kring *kr = &ltt_k.rings[c];
	struct perf_event_mmap_page *pg = kr->page;
	uint64_t head, tail, mask = ltt_k.ring_bytes - 1, done;
	char tmp[65536 + 8];

	if (!pg)
		return 0;
	/* Acquire: the records before data_head are written; pairs with the kernel's store of it. */
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	tail = pg->data_tail;
	done = head - tail;
	while (tail < head) {
		struct perf_event_header h;
		const char *rec;
		uint64_t off = tail & mask;

		if (off + sizeof(h) <= ltt_k.ring_bytes) {
			memcpy(&h, kr->data + off, sizeof(h));
		} else {
			size_t a = ltt_k.ring_bytes - off;

			memcpy(&h, kr->data + off, a);
			memcpy((char *)&h + a, kr->data, sizeof(h) - a);
		}
		if (h.size < sizeof(h) || h.size > head - tail)
			break;
		if (off + h.size <= ltt_k.ring_bytes) {
			rec = kr->data + off;
		} else {
			size_t a = ltt_k.ring_bytes - off;

			memcpy(tmp, kr->data + off, a);
			memcpy(tmp + a, kr->data, h.size - a);
			rec = tmp;
		}
		record(c, rec, h.size);
		tail += h.size;
	}
	ltt_kernel_pend_flush(c);	/* a call still running, or its exit not yet in perf's ring */
	/* Release: done reading the records before the kernel may overwrite them. */
	__atomic_store_n(&pg->data_tail, head, __ATOMIC_RELEASE);
	return done;
}

static void drain_all(void)
{
	for (unsigned c = 0; c < ltt_k.ncpu; c++)
		drain_ring(c);
}

static void *drain_main(void *arg)
{
	struct pollfd pfd[LTT_KCPU_MAX];
	sigset_t all;
	unsigned n = 0;

	(void)arg;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	prctl(PR_SET_NAME, "ltt-kernel");
	ltt_set(&ltt_k.drain_tid, (uint32_t)syscall(SYS_gettid));
	while (!ltt_read(&ltt_k.go) && !ltt_read(&ltt_k.stop))
		usleep(1000);
	if (ltt_k.wake_fd >= 0) {
		pfd[n].fd = ltt_k.wake_fd;
		pfd[n].events = POLLIN;
		n++;
	}
	for (unsigned c = 0; c < ltt_k.ncpu && n < LTT_KCPU_MAX; c++)
		if (ltt_k.rings[c].fd >= 0) {
			pfd[n].fd = ltt_k.rings[c].fd;
			pfd[n].events = POLLIN;
			n++;
		}
	while (!ltt_read(&ltt_k.stop)) {
		/* woken when a ring passes its watermark (a quarter), by ltt_kernel_sync(), else every
		 * LTT_KERNEL_DRAIN_MS */
		uint64_t req = __atomic_load_n(&ltt_k.sync_req, __ATOMIC_ACQUIRE), v, at;

		if (poll(pfd, n, LTT_KERNEL_DRAIN_MS) < 0 && errno != EINTR)
			usleep(LTT_KERNEL_DRAIN_MS * 1000);
		if (ltt_k.wake_fd >= 0 && read(ltt_k.wake_fd, &v, sizeof(v)) < 0) {
			/* nothing to read: not woken by a sync */
		}
		req = __atomic_load_n(&ltt_k.sync_req, __ATOMIC_ACQUIRE);
		at = rd_take();
		drain_all();
		rd_put(at);
		/* Release: the pass's events are in the rings before the waiter sees it done; pairs with
		 * the acquire load in ltt_kernel_sync(). */
		__atomic_store_n(&ltt_k.sync_done, req, __ATOMIC_RELEASE);
	}
	drain_all();
	rd_put(rd_take());	/* the threads switched in during the last pass */
	ltt_set(&rd_on, 0);
	if (rd_dir >= 0)
		close(rd_dir);
	rd_dir = -1;
	return NULL;
}

void ltt_kernel_sync(unsigned wait_ms)
{
	uint64_t one = 1, want;
	struct timespec ts = { 0, 1000000 };

	if (!ltt_read(&ltt_k.thread_on) || !ltt_read(&ltt_k.go) || ltt_k.wake_fd < 0 ||
	    ltt_k.drain_tid == (uint32_t)syscall(SYS_gettid))
		return;
	/* the pass must start after this request: a pass that read sync_req before it does not count */
	want = __atomic_add_fetch(&ltt_k.sync_req, 1, __ATOMIC_ACQ_REL);
	if (write(ltt_k.wake_fd, &one, sizeof(one)) < 0)
		return;
	for (unsigned i = 0; i < wait_ms; i++) {
		/* Acquire: pairs with the release store of sync_done after the pass */
		if (__atomic_load_n(&ltt_k.sync_done, __ATOMIC_ACQUIRE) >= want)
			return;
		nanosleep(&ts, NULL);
	}
}

int ltt_kernel_drain_start(void)
{
	int rc;

	ltt_k.wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	rc = ltt_real_pthread_create(&ltt_k.thread, NULL, drain_main, NULL);

	if (rc)
		return -rc;
	ltt_k.thread_on = 1;
	while (!ltt_read(&ltt_k.drain_tid))
		usleep(100);
	return 0;
}

void ltt_kernel_drain_go(void)
{
	/* Release: the rings mapped and the tracepoint table filled before the thread reads them. */
	__atomic_store_n(&ltt_k.go, 1, __ATOMIC_RELEASE);
}

void ltt_kernel_drain_stop(void)
{
	if (!ltt_k.thread_on)
		return;
	ltt_set(&ltt_k.stop, 1);
	pthread_join(ltt_k.thread, NULL);
	ltt_k.thread_on = 0;
	if (ltt_k.wake_fd >= 0)
		close(ltt_k.wake_fd);
	ltt_k.wake_fd = -1;
}
