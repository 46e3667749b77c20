/* SPDX-License-Identifier: MIT */
/* recorder/kernel_int.h: the state shared by recorder/kernel.c (opening) and kernel_drain.c (the
 * drain thread). Private to those files. */
#ifndef LTT_RECORDER_KERNEL_INT_H
#define LTT_RECORDER_KERNEL_INT_H

#include <pthread.h>

#include "kernel.h"
#include "ring.h"

#define LTT_KCPU_MAX		1024u
#define LTT_KMISSING_MAX	24u
#define LTT_KTP_FIELDS		8u

/* The tracepoints, by kind (kernel_drain.c's table ltt_ktp_defs). */
enum { LTT_KTP_SYS_ENTER, LTT_KTP_SYS_EXIT, LTT_KTP_SWITCH, LTT_KTP_WAKEUP, LTT_KTP_WAKEUP_NEW,
       LTT_KTP_MIGRATE, LTT_KTP_FORK, LTT_KTP_EXEC, LTT_KTP_EXIT, LTT_KTP_IRQ_ENTRY, LTT_KTP_IRQ_EXIT,
       LTT_KTP_SOFTIRQ_RAISE, LTT_KTP_SOFTIRQ_ENTRY, LTT_KTP_SOFTIRQ_EXIT, LTT_KTP_PF_USER,
       LTT_KTP_PF_KERNEL, LTT_KTP_N };

struct ltt_ktp_def {
	const char *sys, *name;
	unsigned group;		/* LTT_KGROUP_* */
	unsigned nfields;
	const char *fields[LTT_KTP_FIELDS];
};
extern const struct ltt_ktp_def ltt_ktp_defs[LTT_KTP_N];

struct ltt_ktp {
	int on, id;
	struct ltt_tp_field f[LTT_KTP_FIELDS];
};

/* perf's ring of one CPU. */
struct ltt_kring {
	int fd;			/* the event whose ring it is (-1: none) */
	void *page;		/* struct perf_event_mmap_page */
	char *data;		/* ring_bytes of records */
	uint64_t floor;		/* the last time written to kernel/N: later records are not older */
};

struct ltt_kmissing {
	char what[40];
	char reason[320];
	int err;
};

struct ltt_kstate {
	unsigned groups;
	int system;
	char asked[64];
	char recorded[512];
	size_t ring_bytes;
	int ring_fixed;		/* kernel_buffer given: not halved */
	int conv_tsc;		/* perf's clock -> TSC (else perf stamps in CLOCK_MONOTONIC) */
	uint32_t pid;
	struct ltt_region *rg;
	unsigned ncpu;
	struct ltt_kring rings[LTT_KCPU_MAX];
	struct ltt_ktp tps[LTT_KTP_N];
	int switch_on;
	int *fds;
	unsigned nfds, cap_fds;
	struct ltt_kmissing missing[LTT_KMISSING_MAX];
	unsigned nmissing;
	char attrs[8192];
	/* the drain thread */
	pthread_t thread;
	int thread_on;
	uint32_t drain_tid;
	int go, stop;
	int wake_fd;		/* eventfd in the poll set: ltt_kernel_sync() wakes the thread */
	uint64_t sync_req, sync_done;	/* drain passes asked / completed (ltt_kernel_sync) */
	uint64_t clamped;	/* records stamped before the ring's floor (written at the floor) */
	uint32_t stop_tid;	/* the thread running libltt's stop sequence (its calls are not the program's) */
	uint64_t stop_ns;	/* ... from this perf time */
};
extern struct ltt_kstate ltt_k;

/* Notes that `what` could not be recorded (errno err, reason). */
void ltt_kernel_missing(const char *what, int err, const char *reason);

/* kernel_drain.c */
int ltt_kernel_drain_start(void);	/* the thread, waiting for go */
void ltt_kernel_drain_go(void);		/* the rings are mapped: start draining */
void ltt_kernel_drain_stop(void);	/* drains what is left and joins */
/* Writes CPU c's system call entry held for a whole call (kernel.syscall), if any: whoever writes
 * into kernel/c on the drain thread between a call's entry and exit calls it first (fd_names.c). */
void ltt_kernel_pend_flush(unsigned c);

#endif
