/* SPDX-License-Identifier: MIT */
/* Kernel scheduling as Perfetto's ftrace events (pf_sched.h). Field numbers are those of Perfetto's
 * protos/perfetto/trace/ftrace/ (ftrace_event_bundle.proto, ftrace_event.proto, sched.proto) and
 * ps/process_tree.proto; tests/export/perfetto.proto declares them for the tests' protoc.
 *
 * One FtraceEventBundle per event (its CPU: the event's), each scheduling event one FtraceEvent:
 * - a switch (kernel.schedchange, core.schedchange) is a sched_switch with both threads; perf's own-
 *   thread switch records (kernel.thread_switch) are a sched_switch with the other side the idle task
 *   (pid 0): switching in from it, or out to it, in state R (preempted) or S (left by itself);
 * - a wakeup (kernel.process wakeup, core.process TRACE_EV_PROCESS_WAKEUP) is a sched_wakeup, or a
 *   sched_wakeup_new for a new task (the kernel facility's event_data2 = 1): ltt records the
 *   sched_wakeup tracepoint, not sched_waking, so none is made up;
 * - thread names and processes (kernel.state_process, the fork's child name, exec) are ProcessTree
 *   packets (threads with their tgid, processes with their name); the names of ltt's own core events
 *   (thread_start, thread_name) name the threads of the sched_switch events, and those events are
 *   exported as before;
 * - system calls are given back to the exporter as slices of their thread. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hashmap.h"

#include "pb.h"
#include "pf_sched.h"
#include "toolkit/sched_decode.h"

enum {
	TP_FTRACE_EVENTS = 1, TP_PROCESS_TREE = 2,
	FB_CPU = 1, FB_EVENT = 2,
	FE_TIMESTAMP = 1, FE_PID = 2, FE_SCHED_SWITCH = 4, FE_SCHED_WAKEUP = 17, FE_SCHED_WAKEUP_NEW = 114,
	SS_PREV_COMM = 1, SS_PREV_PID = 2, SS_PREV_PRIO = 3, SS_PREV_STATE = 4, SS_NEXT_COMM = 5,
	SS_NEXT_PID = 6, SS_NEXT_PRIO = 7,
	SW_COMM = 1, SW_PID = 2, SW_PRIO = 3, SW_SUCCESS = 4, SW_TARGET_CPU = 5,
	PT_PROCESSES = 1, PT_THREADS = 2,
	PR_PID = 1, PR_PPID = 2, PR_CMDLINE = 3,
	TH_TID = 1, TH_NAME = 2, TH_TGID = 3,
};

#define COMM_LEN 16	/* the kernel's TASK_COMM_LEN */

struct thr {
	uint32_t tid, pid;
	char comm[COMM_LEN];
};

LTT_MAP_DEFINE(thr_map, uint32_t, struct thr, ltt_hash_u32, ltt_eq_u32)

struct pf_sched {
	struct sched_decoder *d;
	struct thr_map t;	/* by tid */
	uint64_t switches;
	uint64_t entry_ns;	/* the last whole call's entry */
	char name[64];
};

static struct thr *thr(struct pf_sched *s, uint32_t tid, int add)
{
	struct thr *t;
	int added;

	if (!tid || tid == SCHED_TID_NONE)
		return NULL;
	if (!add)
		return thr_map_find(&s->t, tid);
	t = thr_map_put(&s->t, tid, &added);
	if (t && added) {
		t->tid = tid;
		t->pid = SCHED_TID_NONE;
	}
	return t;
}

static const char *comm_of(struct pf_sched *s, uint32_t tid, const char *given)
{
	struct thr *t;

	if (given && *given)
		return given;
	if (tid == 0)
		return "swapper";
	t = thr(s, tid, 0);
	return t && t->comm[0] ? t->comm : "";
}

/* Takes a name (and pid) given: 1 when it changed what is known. */
static int learn(struct pf_sched *s, uint32_t tid, uint32_t pid, const char *comm)
{
	struct thr *t = thr(s, tid, 1);
	int changed = 0;

	if (!t)
		return 0;
	if (pid && pid != SCHED_TID_NONE && t->pid != pid) {
		t->pid = pid;
		changed = 1;
	}
	if (comm && *comm && strncmp(t->comm, comm, COMM_LEN - 1)) {
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
		changed = 1;
	}
	return changed;
}

static int64_t field_int(const struct ltt_event *ev, const char *name)
{
	struct ltt_value b, v;

	if (ltt_event_body(ev, &b) || ltt_value_field(&b, name, &v))
		return 0;
	return v.type->kind == LTT_TYPE_INT ? ltt_value_int(&v) : (int64_t)ltt_value_uint(&v);
}

static size_t bundle(struct pb *body, const struct sched_ev *k, const struct ltt_event *ev, uint32_t pid,
		     size_t *fe)
{
	size_t b = pb_begin(body, TP_FTRACE_EVENTS);

	pb_uint(body, FB_CPU, k->cpu >= 0 ? (uint64_t)k->cpu : 0);
	*fe = pb_begin(body, FB_EVENT);
	pb_uint(body, FE_TIMESTAMP, ev->time_ns);
	pb_uint(body, FE_PID, pid);
	return b;
}

static void process_tree(struct pf_sched *s, struct pb *body, uint32_t tid)
{
	struct thr *t = thr(s, tid, 0);
	size_t pt, m;

	if (!t)
		return;
	pt = pb_begin(body, TP_PROCESS_TREE);
	if (t->pid == t->tid) {
		m = pb_begin(body, PT_PROCESSES);
		pb_int(body, PR_PID, (int32_t)t->pid);
		pb_str(body, PR_CMDLINE, t->comm);
		pb_end(body, m);
	}
	m = pb_begin(body, PT_THREADS);
	pb_int(body, TH_TID, (int32_t)t->tid);
	pb_str(body, TH_NAME, t->comm);
	if (t->pid != SCHED_TID_NONE)
		pb_int(body, TH_TGID, (int32_t)t->pid);
	pb_end(body, m);
	pb_end(body, pt);
}

int pf_sched_event(struct pf_sched *s, const struct ltt_event *ev, struct pb *body, uint32_t *tid, const char **name)
{
	struct sched_ev k;
	size_t b, fe, m;
	int rc = sched_decode(s->d, ev, &k);

	if (rc <= 0)
		return rc;
	switch (k.kind) {
	case SCHED_EV_SWITCH: {
		uint32_t prev = k.prev_tid != SCHED_TID_NONE ? k.prev_tid : 0;
		uint32_t next = k.next_tid != SCHED_TID_NONE ? k.next_tid
			      : k.next_other != SCHED_TID_NONE ? k.next_other : 0;
		int64_t state = k.prev_state != SCHED_PREV_UNKNOWN ? (int64_t)k.prev_state : k.preempted == 1 ? 0 : 1;

		learn(s, prev, SCHED_TID_NONE, k.prev_comm);
		learn(s, next, SCHED_TID_NONE, k.comm);
		b = bundle(body, &k, ev, prev, &fe);
		m = pb_begin(body, FE_SCHED_SWITCH);
		pb_str(body, SS_PREV_COMM, comm_of(s, prev, k.prev_comm));
		pb_int(body, SS_PREV_PID, (int32_t)prev);
		pb_int(body, SS_PREV_PRIO, field_int(ev, "out_prio") ? field_int(ev, "out_prio") : 120);
		pb_int(body, SS_PREV_STATE, prev ? state : 0);
		pb_str(body, SS_NEXT_COMM, comm_of(s, next, k.comm));
		pb_int(body, SS_NEXT_PID, (int32_t)next);
		pb_int(body, SS_NEXT_PRIO, field_int(ev, "in_prio") ? field_int(ev, "in_prio") : 120);
		pb_end(body, m);
		pb_end(body, fe);
		pb_end(body, b);
		s->switches++;
		return PF_SCHED_PACKET;
	}
	case SCHED_EV_WAKEUP: {
		int new_task = field_int(ev, "event_data2") == 1 && !strcmp(ev->type->facility, "kernel");

		learn(s, k.target, SCHED_TID_NONE, k.comm);
		b = bundle(body, &k, ev, k.target, &fe);
		m = pb_begin(body, new_task ? FE_SCHED_WAKEUP_NEW : FE_SCHED_WAKEUP);
		pb_str(body, SW_COMM, comm_of(s, k.target, k.comm));
		pb_int(body, SW_PID, (int32_t)k.target);
		pb_int(body, SW_PRIO, field_int(ev, "prio") ? field_int(ev, "prio") : 120);
		pb_int(body, SW_SUCCESS, 1);
		if (!strcmp(ev->type->facility, "kernel"))
			pb_int(body, SW_TARGET_CPU, field_int(ev, "event_data1"));
		else
			pb_int(body, SW_TARGET_CPU, k.cpu >= 0 ? k.cpu : 0);
		pb_end(body, m);
		pb_end(body, fe);
		pb_end(body, b);
		return PF_SCHED_PACKET;
	}
	case SCHED_EV_FORK:
		if (strcmp(ev->type->facility, "kernel")) {	/* core's: exported as ever */
			learn(s, k.target, k.pid, k.comm);
			return PF_SCHED_NONE;
		}
		if (!learn(s, k.target, k.pid, k.comm))
			return PF_SCHED_SKIP;
		process_tree(s, body, k.target);
		return PF_SCHED_PACKET;
	case SCHED_EV_THREAD:
	case SCHED_EV_EXEC:
		if (strcmp(ev->type->facility, "kernel")) {	/* ltt's own core events: exported as ever */
			learn(s, k.tid, k.pid, k.comm);
			return PF_SCHED_NONE;
		}
		if (!learn(s, k.tid, k.pid, k.comm))
			return PF_SCHED_SKIP;
		process_tree(s, body, k.tid);
		return PF_SCHED_PACKET;
	case SCHED_EV_SYSCALL_ENTRY:
	case SCHED_EV_SYSCALL_EXIT:
		if (k.tid == SCHED_TID_NONE)	/* 2004: the CPU's thread, which the timeline does not know */
			return PF_SCHED_SKIP;
		*tid = k.tid;
		if (k.kind == SCHED_EV_SYSCALL_EXIT && !k.entry_ns)
			return PF_SCHED_SYSCALL_EXIT;
		s->entry_ns = k.entry_ns;
		{
			const char *n = sched_syscall_name(ev->trace, k.nr);

			if (n)
				snprintf(s->name, sizeof(s->name), "%s", n);
			else
				snprintf(s->name, sizeof(s->name), "syscall_%u", k.nr);
		}
		*name = s->name;
		return k.entry_ns ? PF_SCHED_SYSCALL_WHOLE : PF_SCHED_SYSCALL_ENTRY;
	default:
		return PF_SCHED_SKIP;
	}
}

uint64_t pf_sched_entry_ns(const struct pf_sched *s)
{
	return s->entry_ns;
}

uint64_t pf_sched_switches(const struct pf_sched *s)
{
	return s->switches;
}

struct pf_sched *pf_sched_new(void)
{
	struct pf_sched *s = calloc(1, sizeof(*s));

	if (s && sched_decoder_new(&s->d)) {
		free(s);
		return NULL;
	}
	return s;
}

void pf_sched_free(struct pf_sched *s)
{
	if (!s)
		return;
	sched_decoder_free(s->d);
	thr_map_free(&s->t);
	free(s);
}
