/* SPDX-License-Identifier: MIT */
/* Kernel scheduling for the Perfetto exporter (pf_sched.c): the kernel events (the kernel facility,
 * a 2004 trace's core events) as Perfetto's own ftrace events, so that the Perfetto UI draws its CPU
 * lanes and thread states; system calls as slices on their threads (exp_perfetto.c). */
#ifndef LTT_TOOLS_EXPORT_PF_SCHED_H
#define LTT_TOOLS_EXPORT_PF_SCHED_H

#include <stdint.h>

#include <ltt/reader.h>

struct pb;
struct pf_sched;

enum {
	PF_SCHED_NONE = 0,	/* not a kernel scheduling event: exported as usual */
	PF_SCHED_SKIP,		/* taken note of (a name, a pid), nothing to write */
	PF_SCHED_PACKET,	/* a TracePacket body (ftrace_events or process_tree) is in body */
	PF_SCHED_SYSCALL_ENTRY,	/* a system call begins on thread *tid: a slice named *name */
	PF_SCHED_SYSCALL_EXIT,	/* ... and ends */
	PF_SCHED_SYSCALL_WHOLE,	/* a whole call (kernel.syscall) on thread *tid: a slice named *name from
				 * pf_sched_entry_ns() to the event's time */
};

struct pf_sched *pf_sched_new(void);
void pf_sched_free(struct pf_sched *s);
/* Feeds ev (merge order): one of PF_SCHED_*, or a negative errno. */
int pf_sched_event(struct pf_sched *s, const struct ltt_event *ev, struct pb *body, uint32_t *tid, const char **name);
/* The entry time of the last PF_SCHED_SYSCALL_WHOLE. */
uint64_t pf_sched_entry_ns(const struct pf_sched *s);
/* sched_switch events written so far. */
uint64_t pf_sched_switches(const struct pf_sched *s);

#endif
