/* SPDX-License-Identifier: MIT */
/* recorder/kernel.h: kernel events from perf (doc/recorder.md "Kernel events", doc/format.md section 13):
 * the kernel facility, the tracepoints read from tracefs, perf's rings per CPU and the drain thread that
 * copies their records into the region's kernel rings (kernel/N). Private to libltt. */
#ifndef LTT_RECORDER_KERNEL_H
#define LTT_RECORDER_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ltt/ltt.h>

/* LTT_KERNEL's groups. */
enum { LTT_KGROUP_SCHED = 1, LTT_KGROUP_SYSCALLS = 2, LTT_KGROUP_IRQ = 4, LTT_KGROUP_FAULTS = 8,
       LTT_KGROUP_SWITCH = 16 /* the own threads' switch records only (in sched too) */ };

/* The kernel facility's events, by index (eventdefs/kernel.xml). */
enum { LTT_K_SYSCALL_ENTRY, LTT_K_SYSCALL_EXIT, LTT_K_TRAP_ENTRY, LTT_K_IRQ_ENTRY, LTT_K_IRQ_EXIT,
       LTT_K_SOFT_IRQ, LTT_K_SCHEDCHANGE, LTT_K_THREAD_SWITCH, LTT_K_PROCESS, LTT_K_STATE_PROCESS,
       LTT_K_STATE_END, LTT_K_RECORDING, LTT_K_MISSING, LTT_K_RUN_DELAY, LTT_K_SYSCALL, LTT_K_NEVENTS };
/* kernel.process's event_sub_id (2004's labels, then ltt's). */
enum { LTT_KP_KTHREAD = 1, LTT_KP_FORK, LTT_KP_EXIT, LTT_KP_WAIT, LTT_KP_SIGNAL, LTT_KP_WAKEUP, LTT_KP_EXEC,
       LTT_KP_MIGRATE };

#define LTT_KERNEL_RING_DEFAULT	(4u << 20)	/* perf's data ring per CPU (doc/recorder.md "Memory") */
#define LTT_KERNEL_DRAIN_MS	10u		/* the drain thread's period */

/* What the options ask. */
struct ltt_kernel_req {
	unsigned groups;	/* LTT_KGROUP_* */
	int system;		/* every CPU and process */
	size_t ring_bytes;	/* perf's data ring per CPU */
	char asked[64];		/* the groups, normalised: "sched,syscalls" */
};

/* kernel_opts.c: ltt_options.kernel, kernel_system, kernel_buffer -> req (req->groups 0: none). */
int ltt_kernel_parse(const struct ltt_options *opt, struct ltt_kernel_req *req, char *why, size_t n);
/* LTT_KERNEL, LTT_KERNEL_SCOPE, LTT_KERNEL_BUFFER into o (the strings stay secure_getenv()'s). */
int ltt_kernel_env(struct ltt_options *o, char *why, size_t n);

/* kernel_clock.c: perf's time -> the trace's cycles (doc/format.md section 13 "One timeline"). */
struct ltt_kconv {
	int tsc;		/* 1: convert perf's clock to TSC cycles; 0: perf stamps in the trace clock */
	uint64_t time_zero;
	uint32_t mult;
	uint16_t shift;
};
/* Before ltt_clock_start() of a trace with kernel events: makes the trace clock CLOCK_MONOTONIC when
 * it would be the TSC but the kernel publishes no TSC conversion of perf's clock. */
void ltt_kernel_clock_prepare(void);
/* From a perf ring's first page (struct perf_event_mmap_page): the conversion, 0, or -ENOTSUP. */
int ltt_kernel_conv_read(const void *page, struct ltt_kconv *c);
/* The smallest TSC count whose perf time is at least t. */
uint64_t ltt_kernel_tsc_of(const struct ltt_kconv *c, uint64_t t);
/* Its forward direction: perf's time of TSC count cyc (as the kernel computes it). */
uint64_t ltt_kernel_time_of(const struct ltt_kconv *c, uint64_t cyc);

/* kernel_tp.c: a tracepoint's id and field layout from tracefs (mounted if absent and allowed). */
struct ltt_tp_field {
	int off, size;
	int data_loc;		/* __data_loc: a u32 (length << 16 | offset) at off */
};
/* Fills id and f[i] for fields[i] (a missing field: off -1). 0 or -errno with why ("tracefs ..."). */
int ltt_tp_open(const char *sys, const char *name, int *id, const char *const *fields, struct ltt_tp_field *f,
		unsigned n, char *why, size_t whylen);

/* kernel.c: prepare, open, begin, stop (before the rings close). */
extern struct ltt_facility ltt_kernel_facility;
void ltt_kernel_prepare(const struct ltt_kernel_req *req);
/* Nonzero when this process may record kernel events beyond its own switch records (CAP_PERFMON,
 * CAP_SYS_ADMIN, or perf_event_paranoid -1): its kernel events are other users' to not read. */
int ltt_kernel_privileged(void);
/* After the clock is chosen, before info/system.xml: the drain thread, the events opened disabled. */
int ltt_kernel_open(struct ltt_region *rg);
/* After the region is published: enables the events, records kernel.recording, .missing, the state
 * dump, and prints the line of what is missing. */
void ltt_kernel_begin(void);
void ltt_kernel_stop(void);
/* In a forked child (the atfork child handler): closes the parent's perf descriptors and unmaps its
 * rings, and forgets its kernel recording; a later ltt_start() of the child opens its own. */
void ltt_kernel_fork_child(void);
/* Asks the drain thread for a pass and waits for it (at most wait_ms): a snapshot then holds the
 * kernel events up to now. Async-signal-safe (an eventfd write, atomics, nanosleep). */
void ltt_kernel_sync(unsigned wait_ms);
/* system.xml's attributes (doc/format.md section 3), "" when no kernel recording. */
const char *ltt_kernel_sysattrs(void);
/* Records a persistent kernel event (state dump, recording, missing). */
void ltt_kernel_emit_persistent(unsigned index, const void *payload, size_t len);
/* Records a kernel event in the calling thread's ring, stamped now. */
void ltt_kernel_emit(unsigned index, const void *payload, size_t len);
/* kernel_drain.c: run_delay samples (process scope): the threads at start (their first sample is the
 * base), and the calling thread's last sample as it ends (its schedstat is gone after). */
void ltt_kernel_rd_start(const int *tids, unsigned n);
void ltt_kernel_thread_end(void);

/* kernel_state.c: kernel.state_process for every thread of the system, then kernel.state_end. */
void ltt_kernel_state_dump(void);

/* A payload packer (native byte order, packed: doc/format.md section 8). */
struct ltt_kpack {
	char buf[512];
	size_t len;
};
static inline void ltt_kpack_raw(struct ltt_kpack *p, const void *v, size_t n)
{
	if (p->len + n <= sizeof(p->buf))
		memcpy(p->buf + p->len, v, n);
	p->len += n;
}
static inline void ltt_kpack_u8(struct ltt_kpack *p, uint8_t v) { ltt_kpack_raw(p, &v, 1); }
static inline void ltt_kpack_u16(struct ltt_kpack *p, uint16_t v) { ltt_kpack_raw(p, &v, 2); }
static inline void ltt_kpack_u32(struct ltt_kpack *p, uint32_t v) { ltt_kpack_raw(p, &v, 4); }
static inline void ltt_kpack_u64(struct ltt_kpack *p, uint64_t v) { ltt_kpack_raw(p, &v, 8); }
/* s up to max bytes (or its NUL), then a NUL. */
static inline void ltt_kpack_str(struct ltt_kpack *p, const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	ltt_kpack_raw(p, s, n);
	ltt_kpack_u8(p, 0);
}
/* Nonzero when the payload fit. */
static inline int ltt_kpack_ok(const struct ltt_kpack *p)
{
	return p->len <= sizeof(p->buf);
}

#endif
