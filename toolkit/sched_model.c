/* SPDX-License-Identifier: MIT */
/* The scheduling model (sched_model.h): per-CPU and per-thread state machines fed with decoded
 * kernel events in merge order. A thread's on-CPU mode is derived from its own state (system call,
 * trap) and its CPU's (interrupt, soft interrupt) whenever one of them changes; each change closes
 * the thread's current interval. CPUs are charged, at each of their events, the time since their
 * previous one in the mode that ran. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

#include "toolkit/sched_model.h"
#include "sched_runq.h"

#define SCHED_IRQ_STACK 8

struct irq_open {
	uint32_t nr;
	uint64_t start;
};

struct cpu_priv {
	struct sched_cpu pub;
	struct irq_open irq[SCHED_IRQ_STACK], soft[SCHED_IRQ_STACK];
};

struct sched_model {
	struct sched_hooks hooks;
	int keep;
	struct sched_thread **th;
	size_t nth, capth;
	size_t *thash, thsize;		/* index + 1, 0 free; power of 2 */
	struct cpu_priv **cpu;
	size_t ncpu, capcpu;
	struct sched_irq **irq;
	size_t nirq, capirq;
	uint64_t first_ns, last_ns;
	int finished;
	int rd_mode;		/* kernel.run_delay samples seen: off-CPU periods held for them */
	int partial;		/* a process-scope kernel recording */
	struct { unsigned trace; uint64_t start; } *hist;	/* common window start per trace */
	size_t nhist;
};

uint64_t sched_model_common_start(const struct sched_model *m, unsigned trace)
{
	for (size_t i = 0; i < m->nhist; i++)
		if (m->hist[i].trace == trace)
			return m->hist[i].start;
	return 0;
}

static const char *const state_names[SCHED_NSTATES] = {
	"user", "syscall", "trap", "irq", "softirq", "runnable", "sleeping", "blocked", "other", "not_recorded",
};

const char *sched_why_name(enum sched_why w)
{
	static const char *const names[] = { "", "preempted", "woken", "new", "yielded" };

	return (unsigned)w < sizeof(names) / sizeof(names[0]) ? names[w] : "";
}

const char *sched_state_name(enum sched_state s)
{
	return (unsigned)s < SCHED_NSTATES ? state_names[s] : "?";
}

uint64_t sched_pct(const uint64_t *sorted, size_t n, unsigned p)
{
	return sorted[(n - 1) * p / 100u];
}

static size_t th_hash(unsigned trace, uint32_t tid)
{
	uint64_t h = ((uint64_t)trace << 32 | tid) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 20);
}

struct sched_thread *sched_model_thread(struct sched_model *m, unsigned trace, uint32_t tid)
{
	if (!m->thsize)
		return NULL;
	for (size_t i = th_hash(trace, tid) & (m->thsize - 1); m->thash[i]; i = (i + 1) & (m->thsize - 1)) {
		struct sched_thread *t = m->th[m->thash[i] - 1];

		if (t->tid == tid && t->trace == trace)
			return t;
	}
	return NULL;
}

static int th_rehash(struct sched_model *m)
{
	size_t nsize = m->thsize ? m->thsize * 2 : 64, *nt;

	while (nsize < (m->nth + 1) * 2)	/* half full at most (the rebuild at the end starts from 0) */
		nsize *= 2;
	nt = calloc(nsize, sizeof(*nt));
	if (!nt)
		return -ENOMEM;
	for (size_t k = 0; k < m->nth; k++) {
		size_t i = th_hash(m->th[k]->trace, m->th[k]->tid) & (nsize - 1);

		while (nt[i])
			i = (i + 1) & (nsize - 1);
		nt[i] = k + 1;
	}
	free(m->thash);
	m->thash = nt;
	m->thsize = nsize;
	return 0;
}

/* The thread (created when new); NULL for tid 0 (the idle task), NONE, or out of memory (*err). */
static struct sched_thread *th_get(struct sched_model *m, unsigned trace, uint32_t tid, uint64_t now, int *err)
{
	struct sched_thread *t;

	if (tid == 0 || tid == SCHED_TID_NONE)
		return NULL;
	t = sched_model_thread(m, trace, tid);
	if (t)
		return t;
	if ((m->nth + 1) * 2 > m->thsize && th_rehash(m))
		goto nomem;
	if (LTT_GROW(m->th, m->nth + 1, m->capth))
		goto nomem;
	t = calloc(1, sizeof(*t));
	if (!t)
		goto nomem;
	t->trace = trace;
	t->tid = tid;
	t->pid = SCHED_TID_NONE;
	t->cpu = -1;
	t->first_ns = t->last_ns = now;
	m->th[m->nth++] = t;
	{
		size_t i = th_hash(trace, tid) & (m->thsize - 1);

		while (m->thash[i])
			i = (i + 1) & (m->thsize - 1);
		m->thash[i] = m->nth;
	}
	return t;
nomem:
	*err = -ENOMEM;
	return NULL;
}

static struct cpu_priv *cpu_get(struct sched_model *m, unsigned trace, int cpu, int *err)
{
	struct cpu_priv *c;

	if (cpu < 0)
		return NULL;
	for (size_t i = 0; i < m->ncpu; i++)
		if (m->cpu[i]->pub.cpu == cpu && m->cpu[i]->pub.trace == trace)
			return m->cpu[i];
	if (LTT_GROW(m->cpu, m->ncpu + 1, m->capcpu) || !(c = calloc(1, sizeof(*c)))) {
		*err = -ENOMEM;
		return NULL;
	}
	c->pub.trace = trace;
	c->pub.cpu = cpu;
	c->pub.cur = SCHED_TID_NONE;
	m->cpu[m->ncpu++] = c;
	return c;
}

static struct sched_irq *irq_get(struct sched_model *m, unsigned trace, int soft, uint32_t nr)
{
	struct sched_irq *q;

	for (size_t i = 0; i < m->nirq; i++)
		if (m->irq[i]->nr == nr && m->irq[i]->soft == soft && m->irq[i]->trace == trace)
			return m->irq[i];
	if (LTT_GROW(m->irq, m->nirq + 1, m->capirq) || !(q = calloc(1, sizeof(*q))))
		return NULL;
	q->trace = trace;
	q->soft = soft;
	q->nr = nr;
	m->irq[m->nirq++] = q;
	return q;
}

static int is_on(enum sched_state s)
{
	return s <= SCHED_ST_ONCPU_LAST;
}

/* A finished interval: charged to the thread, given to the hook (sched_runq.h's runq_emit_fn). */
static int emit_seg(void *arg, struct sched_thread *t, const struct sched_pend *g)
{
	struct sched_model *m = arg;
	uint64_t h;

	if (g->end <= g->start || g->st >= SCHED_NSTATES)
		return 0;
	if (!is_on(g->st) && g->st != SCHED_ST_NOTREC && (h = sched_model_common_start(m, t->trace)) > g->start) {
		/* before every CPU's kept history: the thread may have run where it is gone */
		struct sched_pend a = *g, b = *g;
		int rc;

		a.st = SCHED_ST_NOTREC;
		a.end = g->end < h ? g->end : h;
		a.has_nr = 0;
		b.start = a.end;
		rc = emit_seg(m, t, &a);
		return rc ? rc : emit_seg(m, t, &b);
	}
	t->ns[g->st] += g->end - g->start;
	if (m->hooks.interval) {
		struct sched_interval iv = {
			.trace = t->trace, .tid = t->tid, .pid = t->pid, .cpu = g->cpu, .state = g->st,
			.start_ns = g->start, .end_ns = g->end, .nr = g->nr, .has_nr = g->has_nr,
			.why = g->st == SCHED_ST_RUNNABLE ? g->why : SCHED_WHY_NONE,
		};

		return m->hooks.interval(m->hooks.arg, &iv);
	}
	return 0;
}

/* Closes the thread's current interval at now and starts state st there. */
static int set_state(struct sched_model *m, struct sched_thread *t, enum sched_state st, uint64_t now)
{
	int rc = 0;

	if (m->rd_mode && !t->exited && ((t->known && !is_on(t->st)) || (!t->known && is_on(st)))) {
		/* an off-CPU segment, held until a run_delay sample says how much was a wait (sched_runq.c);
		 * a switch-in ends its period (a thread not followed: a marker, counted as the kernel does) */
		struct sched_pend g = {
			.start = t->known ? t->st_since : now, .end = now,
			.st = t->known ? t->st : SCHED_ST_UNSEEN, .why = t->why, .cpu = t->cpu,
			.nr = t->in_sys ? t->sys_nr : 0, .has_nr = t->in_sys && t->st != SCHED_ST_RUNNABLE,
			.period_end = is_on(st),
		};

		if (now < g.start)
			g.end = g.start;
		if ((rc = runq_push(t, &g)))
			return rc;
		if (g.period_end)
			rc = runq_period_done(t, emit_seg, m);
		goto started;
	}
	if (t->known && now > t->st_since) {
		struct sched_pend g = {
			.start = t->st_since, .end = now, .st = t->st, .cpu = t->cpu,
			.nr = t->in_sys ? t->sys_nr : 0,
			.has_nr = t->in_sys && (t->st == SCHED_ST_SYSCALL || (!is_on(t->st) && t->st != SCHED_ST_RUNNABLE)),
			.why = t->st == SCHED_ST_RUNNABLE ? t->why : SCHED_WHY_NONE,
		};

		rc = emit_seg(m, t, &g);
	}
started:
	if (!t->known || now > t->st_since)
		t->st_since = now;
	t->st = st;
	t->known = 1;
	if (st != SCHED_ST_RUNNABLE)
		t->why = SCHED_WHY_NONE;
	if (now > t->last_ns)
		t->last_ns = now;
	return rc;
}

/* The on-CPU mode of thread t running on c. */
static enum sched_state on_mode(const struct sched_thread *t, const struct cpu_priv *c)
{
	if (c && c->pub.irq_depth)
		return SCHED_ST_IRQ;
	if (c && c->pub.softirq_depth)
		return SCHED_ST_SOFTIRQ;
	if (t->trap_depth)
		return SCHED_ST_TRAP;
	return t->in_sys ? SCHED_ST_SYSCALL : SCHED_ST_USER;
}


/* The mode of what runs on c now, for the CPU's time. */
static void cpu_charge(struct sched_model *m, struct cpu_priv *c, uint64_t now)
{
	struct sched_cpu *p = &c->pub;
	uint64_t dt;

	if (!p->last_ns || now <= p->last_ns) {
		if (!p->last_ns) {
			p->last_ns = now;
			p->unknown_since = now;
		}
		return;
	}
	dt = now - p->last_ns;
	p->last_ns = now;
	if (p->irq_depth)
		p->ns[SCHED_ST_IRQ] += dt;
	else if (p->softirq_depth)
		p->ns[SCHED_ST_SOFTIRQ] += dt;
	else if (p->cur == 0)
		p->idle_ns += dt;
	else if (p->cur == SCHED_TID_NONE)
		p->unknown_ns += dt;
	else {
		struct sched_thread *t = sched_model_thread(m, p->trace, p->cur);

		if (t)
			p->ns[on_mode(t, c)] += dt;
		else
			p->unknown_ns += dt;
	}
}

/* The thread running on c changes mode (its own or the CPU's state changed). */
static int refresh(struct sched_model *m, struct sched_thread *t, struct cpu_priv *c, uint64_t now)
{
	enum sched_state st;

	if (!t || !c || c->pub.cur != t->tid)
		return 0;
	st = on_mode(t, c);
	if (t->known && t->st == st)
		return 0;
	return set_state(m, t, st, now);
}

static void bump(struct sched_model *m, struct sched_thread *t, uint32_t tid, const char *comm, int *err)
{
	for (size_t i = 0; i < t->npre; i++)
		if (t->preempters[i].tid == tid) {
			t->preempters[i].n++;
			if (comm && *comm)
				snprintf(t->preempters[i].comm, sizeof(t->preempters[i].comm), "%s", comm);
			return;
		}
	if (LTT_GROW(t->preempters, t->npre + 1, t->cappre)) {
		*err = -ENOMEM;
		return;
	}
	(void)m;
	t->preempters[t->npre] = (struct sched_counter){ .tid = tid, .n = 1 };
	if (comm && *comm)
		snprintf(t->preempters[t->npre].comm, sizeof(t->preempters[t->npre].comm), "%s", comm);
	t->npre++;
}

static struct sched_syscall *sc_get(struct sched_thread *t, uint32_t nr)
{
	for (size_t i = t->nsc; i-- > 0;)
		if (t->sc[i].nr == nr)
			return &t->sc[i];
	if (LTT_GROW(t->sc, t->nsc + 1, t->capsc))
		return NULL;
	memset(&t->sc[t->nsc], 0, sizeof(t->sc[0]));
	t->sc[t->nsc].nr = nr;
	t->sc[t->nsc].min_ns = UINT64_MAX;
	return &t->sc[t->nsc++];
}

static void set_comm(struct sched_thread *t, const char *comm)
{
	if (t && comm && *comm)
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

/* The thread the CPU ran (as far as the model knew) is no longer on it, and the event that says so
 * does not name it (a process-scope recording sees only its own threads): from here its state is not
 * known. */
static int cpu_leave(struct sched_model *m, struct cpu_priv *c, uint64_t now)
{
	struct sched_thread *t = sched_model_thread(m, c->pub.trace, c->pub.cur);
	int rc = 0;

	if (t && t->known && is_on(t->st) && t->cpu == c->pub.cpu) {
		rc = set_state(m, t, t->st, now);
		t->known = 0;
	}
	return rc;
}

/* A switch on c: prev leaves it, next runs. */
static int do_switch(struct sched_model *m, const struct sched_ev *e, struct cpu_priv *c, int *err)
{
	uint32_t prev = e->prev_tid;
	struct sched_thread *p = th_get(m, e->trace, prev, e->time_ns, err);
	struct sched_thread *n = th_get(m, e->trace, e->next_tid, e->time_ns, err);
	int rc = 0;

	if (*err)
		return *err;
	if (p && !p->known && c && c->pub.cur == SCHED_TID_NONE && e->all_switches && c->pub.unknown_since &&
	    e->time_ns > c->pub.unknown_since) {
		/* It ran here since the CPU's thread became unknown (the trace's start): that time is
		 * its (user mode, as nothing said otherwise), as lttng-analyses' cputop counts it. */
		uint64_t d = c->pub.unknown_ns - c->pub.unknown_ns_since;

		p->known = 1;
		p->st = SCHED_ST_USER;
		p->st_since = c->pub.unknown_since;
		p->cpu = c->pub.cpu;
		c->pub.unknown_ns -= d;
		c->pub.ns[SCHED_ST_USER] += d;
	}
	if (p) {
		enum sched_state off;
		int runnable, invol;

		/* Runnable: preempted, or left the CPU still running (a yield); involuntary: preempted
		 * (the 2004 traces do not tell a yield from a preemption: their state 0 is both) */
		runnable = e->preempted == 1 || (e->prev_state != SCHED_PREV_UNKNOWN &&
						 (e->prev_state & 0xff) == SCHED_PREV_RUNNING);
		invol = e->preempted == 1 || (e->preempted == -1 && runnable);
		/* ... but a thread leaving its CPU still runnable inside sched_yield yielded: the kernel
		 * reports a preemption at the return to user mode with state 0 too (perf's switch record
		 * flags both as preempted), the call in progress tells them apart */
		if (runnable && p->in_sys && p->in_yield) {
			invol = 0;
			p->yields++;
		}
		if (runnable)
			off = SCHED_ST_RUNNABLE;
		else if (e->prev_state == SCHED_PREV_UNKNOWN || (e->prev_state & 0xff) == SCHED_PREV_INTERRUPTIBLE ||
			 (e->prev_state & 0xff) == 0x80)	/* I: TASK_IDLE, a kernel thread idle: asleep */
			off = SCHED_ST_SLEEPING;
		else if ((e->prev_state & 0xff) == SCHED_PREV_UNINTERRUPTIBLE)
			off = SCHED_ST_BLOCKED;
		else
			off = SCHED_ST_OTHER;
		if (invol)
			p->invol++;
		else
			p->vol++;
		if (invol && (e->next_tid != SCHED_TID_NONE || e->next_other != SCHED_TID_NONE))
			bump(m, p, e->next_tid != SCHED_TID_NONE ? e->next_tid : e->next_other, e->comm, err);
		set_comm(p, e->prev_comm);
		if (c)
			p->cpu = c->pub.cpu;
		rc = set_state(m, p, off, e->time_ns);
		p->why = invol ? SCHED_WHY_PREEMPTED : runnable ? SCHED_WHY_YIELDED : SCHED_WHY_NONE;
		p->woken_ns = 0;
		if (p->exited)
			p->known = 0;	/* its last switch: no time after */
	}
	if (c) {
		c->pub.switches++;
		if (!rc && c->pub.cur != prev)
			rc = cpu_leave(m, c, e->time_ns);
		c->pub.cur = e->next_tid;
	}
	if (e->partial_wakeups && e->pid != SCHED_TID_NONE) {	/* the recorded process's threads */
		if (p && p->pid == SCHED_TID_NONE)
			p->pid = e->pid;
		if (n && n->pid == SCHED_TID_NONE)
			n->pid = e->pid;
	}
	if (n && !rc) {
		if (c && n->cpu >= 0 && n->cpu != c->pub.cpu)
			n->migrations++;
		if (c)
			n->cpu = c->pub.cpu;
		if (n->woken_ns && e->time_ns >= n->woken_ns && e->time_ns - n->woken_ns > n->wait_max_ns)
			n->wait_max_ns = e->time_ns - n->woken_ns;
		n->woken_ns = 0;
		set_comm(n, e->comm);
		rc = set_state(m, n, c ? on_mode(n, c) : SCHED_ST_USER, e->time_ns);
	}
	return rc;
}

/* The thread an event is about: its tid, or the CPU's current thread. An event naming a thread on a
 * CPU whose current thread is another (or unknown) says that this thread runs there now. */
static struct sched_thread *ev_thread(struct sched_model *m, const struct sched_ev *e, struct cpu_priv *c,
				      int *err, int *rc)
{
	struct sched_thread *t;

	if (e->tid == SCHED_TID_NONE)
		return c ? th_get(m, e->trace, c->pub.cur, e->time_ns, err) : NULL;
	t = th_get(m, e->trace, e->tid, e->time_ns, err);
	if (t && c && c->pub.cur != e->tid) {
		*rc = cpu_leave(m, c, e->time_ns);
		c->pub.cur = e->tid;
		if (t->cpu >= 0 && t->cpu != c->pub.cpu && t->known)
			t->migrations++;
		t->cpu = c->pub.cpu;
		*rc = set_state(m, t, on_mode(t, c), e->time_ns);
	}
	if (t && e->pid != SCHED_TID_NONE && e->pid)
		t->pid = e->pid;
	return t;
}

static int do_syscall(struct sched_model *m, const struct sched_ev *e, struct cpu_priv *c, int *err)
{
	int rc = 0;
	struct sched_thread *t = ev_thread(m, e, c, err, &rc);
	struct sched_syscall *s;
	enum sched_state st;

	if (!t && !rc && c && e->kind == SCHED_EV_SYSCALL_ENTRY && !*err)
		c->pub.syscalls_unknown++;
	if (!t || rc)
		return rc;
	if (e->kind == SCHED_EV_SYSCALL_ENTRY) {
		if (!(s = sc_get(t, e->nr)))
			return -ENOMEM;
		s->count++;
		t->in_sys = 1;
		t->sys_nr = e->nr;
		t->sys_entry = e->time_ns;
		t->in_yield = e->yield;
		return refresh(m, t, c, e->time_ns);
	}
	if (t->in_sys && t->sys_entry && e->time_ns >= t->sys_entry &&
	    t->sys_entry < sched_model_common_start(m, t->trace)) {
		/* entered before every CPU's kept history: its exit may be another call's */
		if (!(s = sc_get(t, t->sys_nr)))
			return -ENOMEM;
		s->cut++;
	} else if (t->in_sys && t->sys_entry && e->time_ns >= t->sys_entry) {
		uint64_t d = e->time_ns - t->sys_entry;

		if (!(s = sc_get(t, t->sys_nr)))
			return -ENOMEM;
		s->completed++;
		s->total_ns += d;
		s->min_ns = d < s->min_ns ? d : s->min_ns;
		s->max_ns = d > s->max_ns ? d : s->max_ns;
		if (m->keep) {
			if (LTT_GROW(s->dur, s->completed, s->cap))
				return -ENOMEM;
			s->dur[s->completed - 1] = d;
		}
		if (m->hooks.call) {
			struct sched_call call = {
				.trace = t->trace, .tid = t->tid, .pid = t->pid, .nr = t->sys_nr,
				.entry_ns = t->sys_entry, .exit_ns = e->time_ns, .ret = e->ret,
				.cpu = c ? c->pub.cpu : -1,
			};

			rc = m->hooks.call(m->hooks.arg, &call);
		}
	}
	t->sys_entry = 0;
	if (!rc && c && c->pub.cur == t->tid) {	/* the interval in the call closes with its number */
		t->in_sys = 0;
		st = on_mode(t, c);
		t->in_sys = 1;
		if (!t->known || t->st != st)
			rc = set_state(m, t, st, e->time_ns);
	}
	t->in_sys = 0;
	t->in_yield = 0;
	return rc;
}

static int do_irq(struct sched_model *m, const struct sched_ev *e, struct cpu_priv *c, int soft)
{
	struct sched_thread *t;
	unsigned *depth;
	struct irq_open *stack;

	if (!c)
		return 0;
	depth = soft ? &c->pub.softirq_depth : &c->pub.irq_depth;
	stack = soft ? c->soft : c->irq;
	t = sched_model_thread(m, c->pub.trace, c->pub.cur);
	if (e->kind == SCHED_EV_IRQ_ENTRY || e->kind == SCHED_EV_SOFTIRQ_ENTRY) {
		static const char *const vec[] = { "HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
						   "SCHED", "HRTIMER", "RCU" };
		struct sched_irq *q = irq_get(m, c->pub.trace, soft, e->nr);

		if (!q)
			return -ENOMEM;
		if (!q->name[0] && e->comm && *e->comm)
			snprintf(q->name, sizeof(q->name), "%s", e->comm);
		else if (!q->name[0] && soft && e->nr < sizeof(vec) / sizeof(vec[0]))
			snprintf(q->name, sizeof(q->name), "%s", vec[e->nr]);
		if (*depth < SCHED_IRQ_STACK)
			stack[*depth] = (struct irq_open){ .nr = e->nr, .start = e->time_ns };
		(*depth)++;
		if (soft)
			c->pub.softirqs++;
		else
			c->pub.irqs++;
		if (t) {
			if (soft)
				t->softirqs++;
			else
				t->irqs++;
		}
	} else if (*depth) {
		(*depth)--;
		if (*depth < SCHED_IRQ_STACK) {
			struct sched_irq *q = irq_get(m, c->pub.trace, soft, stack[*depth].nr);
			uint64_t d = e->time_ns - stack[*depth].start;

			if (!q)
				return -ENOMEM;
			q->count++;
			q->total_ns += d;
			q->max_ns = d > q->max_ns ? d : q->max_ns;
		}
	}
	return refresh(m, t, c, e->time_ns);
}

/* Events of c's kernel stream were lost after its previous event (prev): what each thread did from
 * then is not known until its next event, as a thread off CPU may have run on c meanwhile; a system
 * call in progress there is cut (its exit may be lost). Threads running on another CPU are known. */
static int do_lost(struct sched_model *m, const struct sched_ev *e, struct cpu_priv *c, uint64_t prev)
{
	uint64_t from = prev && prev < e->time_ns ? prev : e->time_ns;
	int rc = 0;

	c->pub.losses++;
	for (size_t i = 0; i < m->nth && !rc; i++) {
		struct sched_thread *t = m->th[i];

		if (t->trace != e->trace || t->exited)
			continue;
		if (t->known && is_on(t->st) && t->cpu != c->pub.cpu)
			continue;	/* running on another CPU, whose stream is whole */
		if (t->in_sys && t->sys_entry) {
			struct sched_syscall *sc = sc_get(t, t->sys_nr);

			if (!sc)
				return -ENOMEM;
			sc->cut++;
			t->sys_entry = 0;
		}
		if (t->known && t->st != SCHED_ST_NOTREC)
			rc = set_state(m, t, SCHED_ST_NOTREC, from > t->st_since ? from : t->st_since);
	}
	c->pub.cur = SCHED_TID_NONE;
	c->pub.irq_depth = c->pub.softirq_depth = 0;
	return rc;
}

int sched_model_history(struct sched_model *m, unsigned trace, int cpu, uint64_t start_ns)
{
	int err = 0;
	struct cpu_priv *c = cpu_get(m, trace, cpu, &err);
	size_t i;

	if (err)
		return err;
	if (c)
		c->pub.history_ns = start_ns;
	for (i = 0; i < m->nhist; i++)
		if (m->hist[i].trace == trace)
			break;
	if (i == m->nhist) {
		void *n = realloc(m->hist, (m->nhist + 1) * sizeof(*m->hist));

		if (!n)
			return -ENOMEM;
		m->hist = n;
		m->hist[m->nhist].trace = trace;
		m->hist[m->nhist++].start = 0;
	}
	if (start_ns > m->hist[i].start)
		m->hist[i].start = start_ns;
	return 0;
}

int sched_model_feed(struct sched_model *m, const struct sched_ev *e)
{
	int err = 0, rc = 0;
	struct cpu_priv *c = cpu_get(m, e->trace, e->cpu, &err);
	struct sched_thread *t;
	uint64_t prev = c ? c->pub.last_ns : 0;

	if (err)
		return err;
	if (e->kind == SCHED_EV_SYSCALL_EXIT && e->entry_ns) {	/* a whole call: its entry first */
		struct sched_ev in = *e;

		in.kind = SCHED_EV_SYSCALL_ENTRY;
		in.time_ns = e->entry_ns;
		in.entry_ns = 0;
		if ((rc = sched_model_feed(m, &in)))
			return rc;
		prev = c ? c->pub.last_ns : 0;
	}
	if (e->cpu >= 0 && (!m->first_ns || e->time_ns < m->first_ns))
		m->first_ns = e->time_ns;
	if (e->cpu >= 0 && e->time_ns > m->last_ns)
		m->last_ns = e->time_ns;
	if (e->partial_wakeups)
		m->partial = 1;
	if (c && e->kind == SCHED_EV_LOST) {
		if (prev && e->time_ns > prev) {	/* what ran meanwhile is not known */
			c->pub.unknown_ns += e->time_ns - prev;
			c->pub.last_ns = e->time_ns;
		}
	} else if (c) {
		if ((c->pub.irq_depth || c->pub.softirq_depth) && prev &&
		    (e->kind == SCHED_EV_SWITCH || e->kind == SCHED_EV_SYSCALL_ENTRY || e->kind == SCHED_EV_SYSCALL_EXIT)) {
			/* no interrupt spans a context switch or a system call event: its exit was not
			 * recorded (a tracepoint enabled later, a loss); it ended by the CPU's previous event */
			struct sched_thread *cur = sched_model_thread(m, c->pub.trace, c->pub.cur);

			c->pub.irqs_unclosed += c->pub.irq_depth + c->pub.softirq_depth;
			c->pub.irq_depth = c->pub.softirq_depth = 0;
			if ((rc = refresh(m, cur, c, prev)))
				return rc;
		}
		cpu_charge(m, c, e->time_ns);
	}
	switch (e->kind) {
	case SCHED_EV_SWITCH:
		rc = do_switch(m, e, c, &err);
		break;
	case SCHED_EV_WAKEUP:
		/* a process-scope recording follows its own threads only: a wakeup of another thread (a
		 * client, a kworker, libltt's own) starts no state it could never end */
		t = e->partial_wakeups ? sched_model_thread(m, e->trace, e->target)
				       : th_get(m, e->trace, e->target, e->time_ns, &err);
		if (t && e->partial_wakeups && !t->known)
			t = NULL;
		if (t && (!t->known || !is_on(t->st)) && (!t->known || t->st != SCHED_ST_RUNNABLE)) {
			t->wakeups++;
			t->woken_ns = e->time_ns;
			rc = set_state(m, t, SCHED_ST_RUNNABLE, e->time_ns);
			t->why = SCHED_WHY_WOKEN;
		}
		break;
	case SCHED_EV_SYSCALL_ENTRY:
	case SCHED_EV_SYSCALL_EXIT:
		rc = do_syscall(m, e, c, &err);
		break;
	case SCHED_EV_IRQ_ENTRY:
	case SCHED_EV_IRQ_EXIT:
		rc = do_irq(m, e, c, 0);
		break;
	case SCHED_EV_SOFTIRQ_ENTRY:
	case SCHED_EV_SOFTIRQ_EXIT:
		rc = do_irq(m, e, c, 1);
		break;
	case SCHED_EV_TRAP_ENTRY:
	case SCHED_EV_TRAP_EXIT:
		t = ev_thread(m, e, c, &err, &rc);
		if (!t || rc)
			break;
		if (e->kind == SCHED_EV_TRAP_ENTRY) {
			t->trap_depth++;
			t->traps++;
		} else if (t->trap_depth) {
			t->trap_depth--;
		}
		rc = refresh(m, t, c, e->time_ns);
		break;
	case SCHED_EV_FORK:
		t = th_get(m, e->trace, e->target, e->time_ns, &err);
		if (t) {
			struct sched_thread *parent = th_get(m, e->trace, e->tid, e->time_ns, &err);

			if (e->pid != SCHED_TID_NONE)
				t->pid = e->pid;
			if (parent && !t->comm[0])
				memcpy(t->comm, parent->comm, sizeof(t->comm));
			set_comm(t, e->comm);
			if (!t->known) {
				rc = set_state(m, t, SCHED_ST_RUNNABLE, e->time_ns);
				t->why = SCHED_WHY_NEW;
			}
		}
		break;
	case SCHED_EV_EXEC:
	case SCHED_EV_THREAD:
		t = th_get(m, e->trace, e->tid, e->time_ns, &err);
		set_comm(t, e->comm);
		if (t && e->pid != SCHED_TID_NONE && e->pid)
			t->pid = e->pid;
		break;
	case SCHED_EV_FAULT:
		t = ev_thread(m, e, c, &err, &rc);
		if (t)
			t->traps++;
		break;
	case SCHED_EV_SOFTIRQ_MARK:
		if (c)
			c->pub.softirqs++;
		break;
	case SCHED_EV_EXIT:
		/* its time ends here: the switch-out that follows is not always recorded (a process-scope
		 * recording's perf events end with the thread) */
		t = th_get(m, e->trace, e->tid == SCHED_TID_NONE && c ? c->pub.cur : e->tid, e->time_ns, &err);
		if (t) {
			if (t->known && !(rc = set_state(m, t, t->st, e->time_ns)))
				t->known = 0;
			t->exited = 1;
		}
		break;
	case SCHED_EV_LOST:
		if (c)
			rc = do_lost(m, e, c, prev);
		break;
	case SCHED_EV_RUN_DELAY:
		m->rd_mode = 1;
		t = th_get(m, e->trace, e->tid, e->time_ns, &err);
		if (t)
			rc = runq_sample(t, e, emit_seg, m);
		break;
	case SCHED_EV_MIGRATE:
	case SCHED_EV_POINT:
	case SCHED_EV_NONE:
		break;
	}
	return err ? err : rc;
}

int sched_model_thread_at(struct sched_model *m, unsigned trace, uint32_t tid, uint64_t now_ns,
			  uint64_t ns[SCHED_NSTATES])
{
	struct sched_thread *t = sched_model_thread(m, trace, tid);

	if (!t)
		return -ENOENT;
	memcpy(ns, t->ns, sizeof(t->ns));
	for (size_t i = 0; i < t->npend; i++)	/* held for a run_delay sample: as recorded so far */
		if (t->pend[i].st < SCHED_NSTATES && t->pend[i].start < now_ns)
			ns[t->pend[i].st] += (t->pend[i].end < now_ns ? t->pend[i].end : now_ns) - t->pend[i].start;
	if (t->known && now_ns > t->st_since)
		ns[t->st] += now_ns - t->st_since;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_sc(const void *a, const void *b)
{
	const struct sched_syscall *x = a, *y = b;

	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static int cmp_th(const void *a, const void *b)
{
	const struct sched_thread *x = *(struct sched_thread *const *)a, *y = *(struct sched_thread *const *)b;

	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static int cmp_cpu(const void *a, const void *b)
{
	const struct cpu_priv *x = *(struct cpu_priv *const *)a, *y = *(struct cpu_priv *const *)b;

	if (x->pub.trace != y->pub.trace)
		return x->pub.trace < y->pub.trace ? -1 : 1;
	return x->pub.cpu < y->pub.cpu ? -1 : x->pub.cpu > y->pub.cpu;
}

static int cmp_irq(const void *a, const void *b)
{
	const struct sched_irq *x = *(struct sched_irq *const *)a, *y = *(struct sched_irq *const *)b;

	if (x->trace != y->trace)
		return x->trace < y->trace ? -1 : 1;
	if (x->soft != y->soft)
		return x->soft < y->soft ? -1 : 1;
	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static int cmp_counter(const void *a, const void *b)
{
	const struct sched_counter *x = a, *y = b;

	if (x->n != y->n)
		return x->n > y->n ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

int sched_model_finish(struct sched_model *m, uint64_t end_ns)
{
	int rc = 0;

	if (m->finished)
		return 0;
	m->finished = 1;
	if (end_ns < m->last_ns)
		end_ns = m->last_ns;
	for (size_t i = 0; i < m->ncpu; i++)
		cpu_charge(m, m->cpu[i], end_ns);
	for (size_t i = 0; i < m->nth; i++) {
		struct sched_thread *t = m->th[i];

		if (t->known && !rc)
			rc = set_state(m, t, t->st, end_ns);
		if (!rc)
			rc = runq_flush(t, emit_seg, m);
		for (size_t k = 0; k < t->nsc; k++)
			if (t->sc[k].dur)
				qsort(t->sc[k].dur, t->sc[k].completed, sizeof(uint64_t), cmp_u64);
		if (t->nsc)
			qsort(t->sc, t->nsc, sizeof(*t->sc), cmp_sc);
		if (t->npre)
			qsort(t->preempters, t->npre, sizeof(*t->preempters), cmp_counter);
	}
	if (m->nth)
		qsort(m->th, m->nth, sizeof(*m->th), cmp_th);
	if (m->ncpu)
		qsort(m->cpu, m->ncpu, sizeof(*m->cpu), cmp_cpu);
	if (m->nirq)
		qsort(m->irq, m->nirq, sizeof(*m->irq), cmp_irq);
	/* the hash indexes positions: rebuild it for sched_model_thread */
	free(m->thash);
	m->thash = NULL;
	m->thsize = 0;
	if (m->nth && th_rehash(m))
		return -ENOMEM;
	return rc;
}

size_t sched_model_threads(const struct sched_model *m, struct sched_thread ***out)
{
	*out = m->th;
	return m->nth;
}

size_t sched_model_cpus(const struct sched_model *m, struct sched_cpu ***out)
{
	/* struct cpu_priv begins with its struct sched_cpu */
	*out = (struct sched_cpu **)m->cpu;
	return m->ncpu;
}

size_t sched_model_irqs(const struct sched_model *m, struct sched_irq ***out)
{
	*out = m->irq;
	return m->nirq;
}

int sched_model_runnable_source(const struct sched_model *m)
{
	return m->rd_mode ? 1 : m->partial ? 2 : 0;
}

void sched_model_span(const struct sched_model *m, uint64_t *first_ns, uint64_t *last_ns)
{
	*first_ns = m->first_ns;
	*last_ns = m->last_ns;
}

int sched_model_new(struct sched_model **out, const struct sched_hooks *hooks, int keep_durations)
{
	struct sched_model *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	if (hooks)
		m->hooks = *hooks;
	m->keep = keep_durations;
	*out = m;
	return 0;
}

void sched_model_free(struct sched_model *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nth; i++) {
		for (size_t k = 0; k < m->th[i]->nsc; k++)
			free(m->th[i]->sc[k].dur);
		free(m->th[i]->sc);
		free(m->th[i]->preempters);
		free(m->th[i]->pend);
		free(m->th[i]);
	}
	for (size_t i = 0; i < m->ncpu; i++)
		free(m->cpu[i]);
	for (size_t i = 0; i < m->nirq; i++)
		free(m->irq[i]);
	free(m->th);
	free(m->hist);
	free(m->thash);
	free(m->cpu);
	free(m->irq);
	free(m);
}
