/* SPDX-License-Identifier: MIT */
/* Kernel events into the scheduling model's terms (sched_decode.h). The `kernel` facility's events
 * name their thread (`tid`); the 2004 `core` events are about the thread running on their CPU (the
 * model's current thread of cpu/N). Field meanings: doc/format.md section 13 (kernel) and the 2004
 * trace's eventdefs/core.xml. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/sched_decode.h"
#include "common/syscall_names.h"
#include "toolkit/thread_table.h"

enum dk {
	DK_NONE = 0,
	/* the kernel facility */
	DK_K_SYS_ENTRY, DK_K_SYS_EXIT, DK_K_TRAP, DK_K_IRQ_ENTRY, DK_K_IRQ_EXIT, DK_K_SOFTIRQ,
	DK_K_SCHEDCHANGE, DK_K_THREAD_SWITCH, DK_K_PROCESS, DK_K_STATE_PROCESS, DK_K_RUN_DELAY, DK_K_SYSCALL,
	DK_LOST,
	/* the 2004 core facility */
	DK_C_SYS_ENTRY, DK_C_SYS_EXIT, DK_C_TRAP_ENTRY, DK_C_TRAP_EXIT, DK_C_IRQ_ENTRY, DK_C_IRQ_EXIT,
	DK_C_SCHEDCHANGE, DK_C_SOFT_IRQ, DK_C_PROCESS, DK_C_PROCESS_FORK, DK_C_PROCESS_EXIT,
	/* ltt's own core facility: thread names and pids */
	DK_U_THREAD_START, DK_U_THREAD_NAME, DK_U_PROCESS,
};

struct dk_slot {
	const struct ltt_event_type *type;
	enum dk kind;
	int system;		/* kernel facility of a system-wide recording */
	uint32_t yield_nr;	/* system call entries: sched_yield's number on the trace's machine */
	uint32_t pid;		/* the trace's ltt_pid (SCHED_TID_NONE: none) */
};

struct sched_decoder {
	struct dk_slot *tab;	/* open addressing by type pointer; power of 2 */
	size_t size, n;
};

static const struct {
	const char *fac, *name;
	enum dk kind;
} dk_names[] = {
	{ "kernel", "syscall_entry", DK_K_SYS_ENTRY },
	{ "kernel", "syscall_exit", DK_K_SYS_EXIT },
	{ "kernel", "syscall", DK_K_SYSCALL },
	{ "kernel", "trap_entry", DK_K_TRAP },
	{ "kernel", "irq_entry", DK_K_IRQ_ENTRY },
	{ "kernel", "irq_exit", DK_K_IRQ_EXIT },
	{ "kernel", "soft_irq", DK_K_SOFTIRQ },
	{ "kernel", "schedchange", DK_K_SCHEDCHANGE },
	{ "kernel", "thread_switch", DK_K_THREAD_SWITCH },
	{ "kernel", "process", DK_K_PROCESS },
	{ "kernel", "state_process", DK_K_STATE_PROCESS },
	{ "kernel", "run_delay", DK_K_RUN_DELAY },
	{ "core", "syscall_entry", DK_C_SYS_ENTRY },
	{ "core", "syscall_exit", DK_C_SYS_EXIT },
	{ "core", "trap_entry", DK_C_TRAP_ENTRY },
	{ "core", "trap_exit", DK_C_TRAP_EXIT },
	{ "core", "irq_entry", DK_C_IRQ_ENTRY },
	{ "core", "irq_exit", DK_C_IRQ_EXIT },
	{ "core", "schedchange", DK_C_SCHEDCHANGE },
	{ "core", "soft_irq", DK_C_SOFT_IRQ },
	{ "core", "process_fork", DK_C_PROCESS_FORK },
	{ "core", "process_exit", DK_C_PROCESS_EXIT },
	{ "core", "thread_start", DK_U_THREAD_START },
	{ "core", "thread_name", DK_U_THREAD_NAME },
};

/* core.process is the 2004 kernel's process event (event_sub_id) or ltt's thread record (name). */
static enum dk classify(const struct ltt_event_type *ty)
{
	if (ty && ty->builtin && ty->name && !strcmp(ty->name, "events_lost"))
		return DK_LOST;	/* taken from kernel/N only (sched_decode) */
	if (!ty || ty->builtin || !ty->facility || !ty->name)
		return DK_NONE;
	for (size_t i = 0; i < sizeof(dk_names) / sizeof(dk_names[0]); i++)
		if (!strcmp(ty->facility, dk_names[i].fac) && !strcmp(ty->name, dk_names[i].name))
			return dk_names[i].kind;
	if (!strcmp(ty->facility, "core") && !strcmp(ty->name, "process") && ty->body) {
		for (unsigned k = 0; k < ty->body->n_fields; k++)
			if (ty->body->fields[k].name && !strcmp(ty->body->fields[k].name, "event_sub_id"))
				return DK_C_PROCESS;
		return DK_U_PROCESS;
	}
	return DK_NONE;
}

int sched_decode_wants(const struct ltt_event_type *type)
{
	return classify(type) != DK_NONE;
}

int sched_decoder_new(struct sched_decoder **out)
{
	struct sched_decoder *d = calloc(1, sizeof(*d));

	if (!d)
		return -ENOMEM;
	d->size = 64;
	d->tab = calloc(d->size, sizeof(*d->tab));
	if (!d->tab) {
		free(d);
		return -ENOMEM;
	}
	*out = d;
	return 0;
}

void sched_decoder_free(struct sched_decoder *d)
{
	if (!d)
		return;
	free(d->tab);
	free(d);
}

static size_t ptr_hash(const void *p)
{
	return (size_t)(((uintptr_t)p >> 4) * 0x9e3779b97f4a7c15ull >> 24);
}

static uint32_t tid32(uint64_t v)
{
	return v > UINT32_MAX - 1 ? SCHED_TID_NONE : (uint32_t)v;
}

static const struct dk_slot *slot_of(struct sched_decoder *d, const struct ltt_event *ev)
{
	size_t i;

	for (i = ptr_hash(ev->type) & (d->size - 1); d->tab[i].type; i = (i + 1) & (d->size - 1))
		if (d->tab[i].type == ev->type)
			return &d->tab[i];
	if ((d->n + 1) * 2 > d->size) {
		size_t nsize = d->size * 2;
		struct dk_slot *nt = calloc(nsize, sizeof(*nt));

		if (!nt)
			return NULL;
		for (size_t k = 0; k < d->size; k++) {
			size_t j;

			if (!d->tab[k].type)
				continue;
			for (j = ptr_hash(d->tab[k].type) & (nsize - 1); nt[j].type; j = (j + 1) & (nsize - 1))
				;
			nt[j] = d->tab[k];
		}
		free(d->tab);
		d->tab = nt;
		d->size = nsize;
		for (i = ptr_hash(ev->type) & (d->size - 1); d->tab[i].type; i = (i + 1) & (d->size - 1))
			;
	}
	d->tab[i].type = ev->type;
	d->tab[i].kind = classify(ev->type);
	d->tab[i].yield_nr = UINT32_MAX;
	if (d->tab[i].kind == DK_K_SYS_ENTRY || d->tab[i].kind == DK_C_SYS_ENTRY || d->tab[i].kind == DK_K_SYSCALL)
		for (uint32_t nr = 0; nr < 1024; nr++) {
			const char *n = sched_syscall_name(ev->trace, nr);

			if (n && !strcmp(n, "sched_yield")) {
				d->tab[i].yield_nr = nr;
				break;
			}
		}
	if (d->tab[i].kind == DK_C_PROCESS_FORK && ev->trace->minor_version > 2)
		d->tab[i].kind = DK_NONE;	/* ltt's own core.process_fork: a child process, not a kernel event */
	{
		const char *scope = ltt_trace_attr(ev->trace, "ltt_kernel_scope");

		const char *pid = ltt_trace_attr(ev->trace, "ltt_pid");

		d->tab[i].system = !scope || strcmp(scope, "process");	/* process: ours only */
		d->tab[i].pid = pid ? tid32(strtoull(pid, NULL, 10)) : SCHED_TID_NONE;
	}
	d->n++;
	return &d->tab[i];
}

static uint64_t fu(const struct ltt_value *body, const char *name, uint64_t dflt)
{
	struct ltt_value v;

	return !body->type || ltt_value_field(body, name, &v) ? dflt : ltt_value_uint(&v);
}

static int64_t fi(const struct ltt_value *body, const char *name)
{
	struct ltt_value v;

	return !body->type || ltt_value_field(body, name, &v) ? 0 : ltt_value_int(&v);
}

static const char *fs(const struct ltt_value *body, const char *name)
{
	struct ltt_value v;

	if (!body->type || ltt_value_field(body, name, &v) || !v.type || v.type->kind != LTT_TYPE_STRING)
		return NULL;
	return ltt_value_string(&v, NULL);
}

/* The CPU of an event: cpu/N's or kernel/N's N. */
static int ev_cpu(const struct ltt_event *ev)
{
	const char *name = ev->tracefile->name;

	if (ev->tracefile->cpu >= 0)
		return ev->tracefile->cpu;
	if (name && !strncmp(name, "kernel/", 7) && name[7] >= '0' && name[7] <= '9')
		return (int)strtol(name + 7, NULL, 10);
	return -1;
}


int sched_decode(struct sched_decoder *d, const struct ltt_event *ev, struct sched_ev *o)
{
	const struct dk_slot *s = slot_of(d, ev);
	struct ltt_value b;
	uint64_t sub;

	memset(o, 0, sizeof(*o));
	o->kind = SCHED_EV_NONE;
	if (!s)
		return -ENOMEM;
	if (s->kind == DK_NONE)
		return 0;
	if (s->kind == DK_LOST && (!ev->tracefile->name || strncmp(ev->tracefile->name, "kernel/", 7)))
		return 0;	/* a user stream's loss says nothing of the kernel's */
	o->time_ns = ev->time_ns;
	o->trace = ev->trace->index;
	o->cpu = ev_cpu(ev);
	o->tid = o->pid = o->prev_tid = o->next_tid = o->target = o->next_other = SCHED_TID_NONE;
	o->prev_state = SCHED_PREV_UNKNOWN;
	o->preempted = -1;
	o->orig_cpu = o->dest_cpu = -1;
	if (ltt_event_body(ev, &b))
		memset(&b, 0, sizeof(b));
	if (s->kind < DK_C_SYS_ENTRY) {
		o->tid = tid32(fu(&b, "tid", SCHED_TID_NONE));
		o->partial_wakeups = !s->system;
		if (!s->system && s->kind != DK_K_PROCESS && s->kind != DK_K_STATE_PROCESS) {
			/* a process-scope recording holds the switches and calls of one process's threads:
			 * whoever made them (the C library's own pthread_create too), their pid is it */
			o->pid = s->pid;
		}
	}
	switch (s->kind) {
	case DK_K_SYS_ENTRY:
	case DK_C_SYS_ENTRY:
		o->kind = SCHED_EV_SYSCALL_ENTRY;
		o->nr = (uint32_t)fu(&b, "syscall_id", 0);
		o->yield = o->nr == s->yield_nr;
		break;
	case DK_K_SYSCALL: {	/* a whole call at its exit, `cycles` long (doc/format.md section 13) */
		uint64_t cyc = fu(&b, "cycles", 0), cps = ev->trace->cycles_per_second;
		uint64_t dur = cps ? (uint64_t)((unsigned __int128)cyc * 1000000000u / cps) : cyc;

		o->kind = SCHED_EV_SYSCALL_EXIT;
		o->nr = (uint32_t)fu(&b, "syscall_id", 0);
		o->yield = o->nr == s->yield_nr;
		o->ret = fi(&b, "ret");
		o->entry_ns = ev->time_ns > dur ? ev->time_ns - dur : 1;
		break;
	}
	case DK_K_SYS_EXIT:
		o->ret = fi(&b, "ret");
		/* fall through */
	case DK_C_SYS_EXIT:
		o->kind = SCHED_EV_SYSCALL_EXIT;
		o->nr = (uint32_t)fu(&b, "syscall_id", 0);
		break;
	case DK_K_TRAP:
		o->kind = SCHED_EV_FAULT;
		o->nr = (uint32_t)fu(&b, "trap_id", 14);
		break;
	case DK_C_TRAP_ENTRY:
	case DK_C_TRAP_EXIT:
		o->kind = s->kind == DK_C_TRAP_ENTRY ? SCHED_EV_TRAP_ENTRY : SCHED_EV_TRAP_EXIT;
		o->nr = (uint32_t)fu(&b, "trap_id", 0);
		break;
	case DK_K_IRQ_ENTRY:
	case DK_K_IRQ_EXIT:
	case DK_C_IRQ_ENTRY:
	case DK_C_IRQ_EXIT:
		o->kind = s->kind == DK_K_IRQ_ENTRY || s->kind == DK_C_IRQ_ENTRY ? SCHED_EV_IRQ_ENTRY
										  : SCHED_EV_IRQ_EXIT;
		o->nr = (uint32_t)fu(&b, "irq_id", 0);
		o->tid = SCHED_TID_NONE;	/* the CPU's current thread is the interrupted one */
		o->comm = s->kind == DK_K_IRQ_ENTRY ? fs(&b, "name") : NULL;	/* the handler's name */
		break;
	case DK_K_SOFTIRQ:
		sub = fu(&b, "event_sub_id", 0);
		o->nr = (uint32_t)fu(&b, "vec", 0);
		o->tid = SCHED_TID_NONE;
		o->kind = sub == 2 ? SCHED_EV_SOFTIRQ_ENTRY : sub == 3 ? SCHED_EV_SOFTIRQ_EXIT : SCHED_EV_POINT;
		break;
	case DK_C_SOFT_IRQ:
		o->kind = SCHED_EV_SOFTIRQ_MARK;
		o->nr = (uint32_t)fu(&b, "event_sub_id", 0);
		break;
	case DK_K_SCHEDCHANGE:
	case DK_C_SCHEDCHANGE:
		o->kind = SCHED_EV_SWITCH;
		o->tid = SCHED_TID_NONE;
		o->prev_tid = tid32(fu(&b, "out", SCHED_TID_NONE));
		o->next_tid = tid32(fu(&b, "in", SCHED_TID_NONE));
		o->prev_state = (uint32_t)fu(&b, "out_state", SCHED_PREV_UNKNOWN);
		/* 0x100 (R+) says preempted; a plain 0 (R) is too: kernels report a preempted thread either
		 * way (this machine's kernel gives 0), and a yield cannot be told from it */
		o->prev_comm = fs(&b, "out_comm");
		o->comm = fs(&b, "in_comm");
		o->all_switches = s->kind == DK_C_SCHEDCHANGE || s->system;
		if (s->kind == DK_K_SCHEDCHANGE && !s->system) {
			/* Process scope: the thread taking the CPU is seen here only, not when it leaves;
			 * it names the preempter, the CPU's time after it is not known. */
			o->next_other = o->next_tid;
			o->next_tid = SCHED_TID_NONE;
		}
		break;
	case DK_K_THREAD_SWITCH:
		o->kind = SCHED_EV_SWITCH;
		if (fu(&b, "direction", 0) == 0) {	/* in */
			o->next_tid = o->tid;
		} else {
			o->prev_tid = o->tid;
			o->preempted = fu(&b, "preempted", 0) ? 1 : 0;
		}
		o->tid = SCHED_TID_NONE;
		break;
	case DK_K_PROCESS:
		sub = fu(&b, "event_sub_id", 0);
		o->comm = fs(&b, "name");
		if (sub == 2) {
			o->kind = SCHED_EV_FORK;
			o->target = tid32(fu(&b, "event_data1", SCHED_TID_NONE));
		} else if (sub == 3) {
			o->kind = SCHED_EV_EXIT;
		} else if (sub == 6) {
			o->kind = SCHED_EV_WAKEUP;
			o->target = o->tid;
		} else if (sub == 7) {
			const char *slash = o->comm ? strrchr(o->comm, '/') : NULL;

			o->kind = SCHED_EV_EXEC;
			o->comm = slash ? slash + 1 : o->comm;
		} else if (sub == 8) {
			o->kind = SCHED_EV_MIGRATE;
			o->target = o->tid;
			o->orig_cpu = (int)fu(&b, "event_data1", 0);
			o->dest_cpu = (int)fu(&b, "event_data2", 0);
		}
		break;
	case DK_LOST:
		o->kind = SCHED_EV_LOST;
		break;
	case DK_K_RUN_DELAY:
		o->kind = SCHED_EV_RUN_DELAY;
		o->cpu = -1;	/* written by libltt's drain thread: says nothing of a CPU */
		o->run_delay = fu(&b, "run_delay", 0);
		o->timeslices = fu(&b, "timeslices", 0);
		o->from_start = fu(&b, "from_start", 0) != 0;
		break;
	case DK_K_STATE_PROCESS:
		o->kind = SCHED_EV_THREAD;
		o->pid = tid32(fu(&b, "pid", SCHED_TID_NONE));
		o->comm = fs(&b, "comm");
		break;
	case DK_C_PROCESS:
		/* 2004: 1 kthread, 2 fork, 3 exit, 4 wait, 5 signal, 6 wakeup; data1 the other pid */
		sub = fu(&b, "event_sub_id", 0);
		if (sub == 2) {
			o->kind = SCHED_EV_FORK;
			o->target = tid32(fu(&b, "event_data1", SCHED_TID_NONE));
			o->pid = o->target;	/* 2004: a task is its own process */
		} else if (sub == 3) {
			o->kind = SCHED_EV_EXIT;
		} else if (sub == 6) {
			o->kind = SCHED_EV_WAKEUP;
			o->target = tid32(fu(&b, "event_data1", SCHED_TID_NONE));
		} else {
			o->kind = SCHED_EV_POINT;
		}
		break;
	case DK_C_PROCESS_FORK:
		o->kind = SCHED_EV_FORK;
		o->target = o->pid = tid32(fu(&b, "child_pid", SCHED_TID_NONE));
		break;
	case DK_C_PROCESS_EXIT:
		o->kind = SCHED_EV_EXIT;
		break;
	case DK_U_THREAD_START:
		o->kind = SCHED_EV_THREAD;
		o->cpu = -1;
		o->tid = tid32(fu(&b, "tid", SCHED_TID_NONE));
		o->pid = tid32(fu(&b, "pid", SCHED_TID_NONE));
		o->comm = fs(&b, "name");
		break;
	case DK_U_THREAD_NAME:
		o->kind = SCHED_EV_THREAD;
		o->cpu = -1;
		o->tid = tid32(fu(&b, "tid", SCHED_TID_NONE));
		o->comm = fs(&b, "name");
		break;
	case DK_U_PROCESS:
		o->kind = SCHED_EV_THREAD;
		o->cpu = -1;
		o->tid = tid32(fu(&b, "pid", SCHED_TID_NONE));	/* ltt's core.process: one per thread */
		o->comm = fs(&b, "name");
		{	/* ... of the traced process */
			const char *pid = ltt_trace_attr(ev->trace, "ltt_pid");

			o->pid = pid ? tid32(strtoull(pid, NULL, 10)) : SCHED_TID_NONE;
		}
		break;
	case DK_NONE:
		break;
	}
	return o->kind != SCHED_EV_NONE;
}

const char *sched_syscall_name(const struct ltt_trace_info *t, uint32_t nr)
{
	return syscall_name(t ? ltt_trace_attr(t, "machine") : NULL, nr);
}

int sched_read_history(struct ltt_reader *r, struct sched_model *m)
{
	for (unsigned i = 0; i < ltt_reader_ntraces(r); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(r, i);

		for (unsigned k = 0; k < t->ntracefiles; k++) {
			const struct ltt_tracefile_info *tf = t->tracefiles[k];
			struct ltt_range *g;
			struct ltt_event ev;
			uint64_t ns = 0;
			int over = 0, rc;

			if (!tf->name || strncmp(tf->name, "kernel/", 7) || !tf->nblocks)
				continue;
			if (!ltt_range_open(r, tf, 0, 1, &g)) {
				while (ltt_range_next(g, &ev) == 1)
					;
				over = ltt_range_counts(g)->blocks_lost > 0;
				ltt_range_close(g);
			} else {
				/* several snapshots of one recording share blocks: a flight snapshot's
				 * stream is taken to have lost what came before its first block */
				const char *mode = ltt_trace_attr(t, "ltt_mode");

				over = mode && !strcmp(mode, "flight");
			}
			if (!over)
				continue;
			/* the summary block of the overwritten ones, then the first kept */
			if (ltt_range_block_time(r, tf, tf->nblocks > 1 ? 1 : 0, &ns))
				continue;
			if ((rc = sched_model_history(m, i, (int)strtol(tf->name + 7, NULL, 10), ns)))
				return rc;
		}
	}
	return 0;
}

/* What the model did not learn of a thread's process and name, from the one thread table (a thread
 * made behind libltt's interposer, named by no event the model reads). */
static void sched_identity(struct sched_model *m, const struct thread_table *tt)
{
	struct sched_thread **th;
	size_t n = sched_model_threads(m, &th);

	for (size_t i = 0; i < n; i++) {
		const struct tt_thread *t = thread_table_find(tt, th[i]->trace, th[i]->tid);
		const char *name = tt_name_at(t, UINT64_MAX);

		if (!t)
			continue;
		if (th[i]->pid == SCHED_TID_NONE && t->pid != TT_NONE)
			th[i]->pid = t->pid;
		if (!th[i]->comm[0] && name)
			snprintf(th[i]->comm, sizeof(th[i]->comm), "%s", name);
	}
}

int sched_scan(struct ltt_reader *r, struct sched_model *m,
	       int (*other)(void *arg, const struct ltt_event *ev, const struct sched_ev *kev), void *arg)
{
	struct sched_decoder *d;
	struct ltt_event ev;
	struct sched_ev k;
	struct thread_table *tt;
	uint64_t last = 0;
	int rc;

	if ((rc = sched_read_history(r, m)) || (rc = sched_decoder_new(&d)))
		return rc;
	if ((rc = thread_table_new(&tt))) {
		sched_decoder_free(d);
		thread_table_free(tt);
		return rc;
	}
	while ((rc = ltt_reader_next(r, &ev)) == 1) {
		if ((rc = thread_table_event(tt, &ev)))
			break;
		rc = sched_decode(d, &ev, &k);
		if (rc < 0)
			break;
		if (rc == 1 && (rc = sched_model_feed(m, &k)))
			break;
		if (other && (rc = other(arg, &ev, k.kind != SCHED_EV_NONE ? &k : NULL)))
			break;
		last = ev.time_ns > last ? ev.time_ns : last;
	}
	sched_decoder_free(d);
	if (rc == 0)
		rc = sched_model_finish(m, last);
	if (rc == 0)
		sched_identity(m, tt);
	thread_table_free(tt);
	return rc;
}
