/* SPDX-License-Identifier: MIT */
/* The LTTng kernel vocabulary of `ltt export --format=lttng` (exp_lttng.c): event ids, the
 * arguments of the system calls lttng-analyses reads, thread names, the metadata (lttng_events.c). */
#ifndef LTT_TOOLS_EXPORT_LTTNG_EVENTS_H
#define LTT_TOOLS_EXPORT_LTTNG_EVENTS_H

#include <stdint.h>

#include <ltt/reader.h>

#include "common/hashmap.h"

enum {
	LT_EV_SCHED_SWITCH, LT_EV_SCHED_WAKEUP, LT_EV_IRQ_ENTRY, LT_EV_IRQ_EXIT, LT_EV_SOFTIRQ_ENTRY,
	LT_EV_SOFTIRQ_EXIT, LT_EV_FORK, LT_EV_EXEC, LT_EV_STATEDUMP, LT_NEV,
	LT_EV_SYSCALL = 100,	/* syscall_entry_NAME: 100 + 2 x nr; syscall_exit_NAME: 101 + 2 x nr */
};
#define LT_MAX_SYSCALL 1024

/* The entry arguments written for a system call: arg[i] is the index of the recorded register
 * (kernel.syscall_entry's args), name[i] its lttng-modules name; is_str: a string (written empty). */
struct lt_args {
	unsigned n;
	const char *name[6];
	unsigned arg[6];
	unsigned char is_str[6];
};
/* NULL: the call is written without arguments. */
const struct lt_args *lt_syscall_args(const char *name);

/* A thread's name and the system call in progress on it. */
struct lt_thread {
	uint32_t call;
	char comm[16];
};
LTT_MAP_DEFINE(lt_tids, uint32_t, struct lt_thread, ltt_hash_u32, ltt_eq_u32)

struct lt_names {
	struct lt_tids t;			/* by tid */
	unsigned char used[LT_NEV];		/* event classes written */
	unsigned char used_sys[LT_MAX_SYSCALL];	/* 1 entry, 2 exit */
};
void lt_learn(struct lt_names *n, uint32_t tid, const char *comm);
const char *lt_comm(const struct lt_names *n, uint32_t tid);
void lt_set_call(struct lt_names *n, uint32_t tid, uint32_t nr);
uint32_t lt_call(const struct lt_names *n, uint32_t tid);
void lt_names_free(struct lt_names *n);

/* Writes DIR/metadata (TSDL) for the event classes used. 0 or -errno. */
int lt_metadata(const char *dir, const unsigned char uuid[16], const struct lt_names *n,
		const struct ltt_trace_info *trace);

#endif
