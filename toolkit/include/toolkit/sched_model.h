/* SPDX-License-Identifier: MIT */
/* The scheduling model: LTTV's state analysis of kernel events, one state machine behind
 * `ltt stats --sched`, the kernel columns of `ltt stats --regions`, `ltt sql`'s thread_states and
 * syscalls tables and the exports' kernel views (doc/cli.md "ltt stats --sched").
 *
 * It takes kernel events already decoded into struct sched_ev (toolkit/sched_decode.h turns the
 * `kernel` facility's and the 2004 traces' `core` events into them), in merge order, and follows:
 * - per CPU: the thread running on it, interrupts and soft interrupts in progress, the time since
 *   its previous event, charged at each event to (thread, mode) and to the CPU;
 * - per thread: on CPU in user mode, in a system call, in a trap (fault), or off CPU runnable
 *   (preempted, or woken and waiting for a CPU), sleeping (switched out interruptible), blocked
 *   (uninterruptible) or other (stopped, dead), with the system call in progress.
 * Time is only charged where the state is known: a CPU before its first switch charges to no thread
 * (its `unknown_ns`), a thread before it is first seen has no time. Nothing is assumed from a missing
 * event: a switch-in of a thread whose switch-out is not in the trace just starts it.
 *
 * Memory grows with the threads, CPUs, distinct system calls per thread and the completed calls (8
 * bytes each, for exact percentiles). */
#ifndef LTT_TOOLKIT_SCHED_MODEL_H
#define LTT_TOOLKIT_SCHED_MODEL_H

#include <stddef.h>
#include <stdint.h>

#define SCHED_TID_NONE UINT32_MAX	/* not known */
#define SCHED_COMM_MAX 32

/* What one decoded kernel event says. Halves of a switch are separate so that a trace holding only
 * its own threads' switch records (perf's, without the other side) is read the same way. */
enum sched_kind {
	SCHED_EV_NONE = 0,
	SCHED_EV_SWITCH,	/* prev_tid leaves cpu in prev_state, next_tid runs; either may be NONE */
	SCHED_EV_WAKEUP,	/* target woken (runnable) */
	SCHED_EV_SYSCALL_ENTRY,	/* tid (or the CPU's current thread) enters system call nr */
	SCHED_EV_SYSCALL_EXIT,	/* ... leaves it, returning ret */
	SCHED_EV_IRQ_ENTRY,	/* hard interrupt nr on cpu */
	SCHED_EV_IRQ_EXIT,
	SCHED_EV_SOFTIRQ_ENTRY,	/* soft interrupt vector nr on cpu */
	SCHED_EV_SOFTIRQ_EXIT,
	SCHED_EV_TRAP_ENTRY,	/* tid (or current) takes trap / fault nr */
	SCHED_EV_TRAP_EXIT,
	SCHED_EV_FORK,		/* tid creates target (pid: target's process) */
	SCHED_EV_EXIT,		/* tid ends */
	SCHED_EV_EXEC,		/* tid runs a new program (comm) */
	SCHED_EV_MIGRATE,	/* target moved from orig_cpu to dest_cpu */
	SCHED_EV_THREAD,	/* tid (of process pid) exists, named comm: a state dump or a name */
	SCHED_EV_FAULT,		/* tid (or current) takes a fault, with no exit event: counted */
	SCHED_EV_SOFTIRQ_MARK,	/* a soft interrupt ran on cpu, with no exit event (2004): counted */
	SCHED_EV_POINT,		/* an event on cpu that only marks time (charges the CPU's time so far) */
	SCHED_EV_RUN_DELAY,	/* the kernel's count of tid's waits for a CPU (kernel.run_delay) */
	SCHED_EV_LOST,		/* events of cpu's kernel stream were lost between its previous event
				 * and this time (an events_lost record of kernel/N) */
};

/* Thread states at switch-out, as the kernel's prev_state reports them (low bits). */
#define SCHED_PREV_RUNNING 0u		/* preempted: still runnable */
#define SCHED_PREV_INTERRUPTIBLE 1u	/* sleeping */
#define SCHED_PREV_UNINTERRUPTIBLE 2u	/* blocked (disk, page, mutex in the kernel) */
#define SCHED_PREV_UNKNOWN UINT32_MAX	/* not recorded */

struct sched_ev {
	enum sched_kind kind;
	uint64_t time_ns;
	unsigned trace;			/* index in the trace set: CPUs and threads are per trace */
	int cpu;			/* -1 when unknown */
	uint32_t tid, pid;		/* the thread the event is about; SCHED_TID_NONE: the CPU's current */
	uint32_t prev_tid, next_tid;	/* SWITCH */
	uint32_t next_other;		/* SWITCH: the thread that took the CPU when only that is known of
					 * it (a process-scope recording): names the preempter, nothing else */
	int all_switches;		/* SWITCH: every switch of the CPU is recorded (system-wide, 2004):
					 * a thread first seen leaving a CPU whose thread was not known ran
					 * there since the CPU's time became unknown */
	uint32_t prev_state;		/* SWITCH: SCHED_PREV_* (other values: stopped, dead, ...) */
	int preempted;			/* SWITCH: 1 preempted, 0 not (prev_state 0: a yield), -1 not told
					 * (prev_state 0 is then taken as preempted) */
	uint32_t target;		/* WAKEUP, FORK (the child), MIGRATE */
	int orig_cpu, dest_cpu;		/* MIGRATE */
	uint32_t nr;			/* system call, interrupt, soft interrupt or trap number */
	int yield;			/* SYSCALL_ENTRY: the call is sched_yield (the trace's machine's) */
	int64_t ret;			/* SYSCALL_EXIT */
	uint64_t entry_ns;		/* SYSCALL_EXIT: nonzero, a whole call (kernel.syscall) that entered
					 * at entry_ns, its entry not a separate event: a consumer takes
					 * both from this one (sched_model_feed does) */
	const char *comm;		/* THREAD, EXEC, FORK, SWITCH next (may be NULL) */
	const char *prev_comm;		/* SWITCH (may be NULL) */
	uint64_t run_delay, timeslices;	/* RUN_DELAY: cumulative ns runnable, switch-ins */
	int from_start;			/* RUN_DELAY: the counts began at 0 inside the recording */
	int partial_wakeups;		/* a process-scope kernel recording: wakeups by other processes
					 * and interrupts are not in it */
};

/* States of a thread, for the intervals (thread_states) and the time totals. */
enum sched_state {
	SCHED_ST_USER,		/* on CPU, user mode */
	SCHED_ST_SYSCALL,	/* on CPU in a system call */
	SCHED_ST_TRAP,		/* on CPU in a trap (fault) */
	SCHED_ST_IRQ,		/* on CPU, interrupted by a hard interrupt */
	SCHED_ST_SOFTIRQ,	/* on CPU, interrupted by a soft interrupt */
	SCHED_ST_RUNNABLE,	/* off CPU, waiting for one (preempted or woken) */
	SCHED_ST_SLEEPING,	/* off CPU, interruptible sleep */
	SCHED_ST_BLOCKED,	/* off CPU, uninterruptible */
	SCHED_ST_OTHER,		/* off CPU, stopped, traced, dead... */
	SCHED_ST_NOTREC,	/* off CPU as far as the trace knows, but not recorded: before the kept
				 * history of every CPU (a flight snapshot), or after events were lost
				 * until the thread's next event */
	SCHED_NSTATES
};
#define SCHED_ST_ONCPU_LAST SCHED_ST_SOFTIRQ
const char *sched_state_name(enum sched_state s);

/* Why a thread is runnable. */
enum sched_why {
	SCHED_WHY_NONE,
	SCHED_WHY_PREEMPTED,	/* switched out while runnable */
	SCHED_WHY_WOKEN,	/* woken from a sleep or a block */
	SCHED_WHY_NEW,		/* created (fork, clone) */
	SCHED_WHY_YIELDED,	/* left the CPU still runnable, not preempted (sched_yield) */
};
const char *sched_why_name(enum sched_why w);

/* Per (thread, system call): every completed call's duration (entry to exit, wall time). */
struct sched_syscall {
	uint32_t nr;
	uint64_t count;		/* entries seen */
	uint64_t completed;	/* entry and exit both seen */
	uint64_t total_ns, min_ns, max_ns;
	uint64_t *dur;		/* completed durations (sorted by sched_model_finish) */
	size_t cap;
	uint64_t cut;		/* entries whose exit may have been lost (a loss on the thread's stream,
				 * or entered before the kept history of every CPU): no duration */
};

struct sched_counter {
	uint32_t tid;
	uint64_t n;
	char comm[SCHED_COMM_MAX];	/* its name as the switch gave it ("" not told) */
};

struct sched_pend;

struct sched_thread {
	unsigned trace;
	uint32_t tid, pid;	/* pid SCHED_TID_NONE when not known */
	char comm[SCHED_COMM_MAX];
	uint64_t ns[SCHED_NSTATES];
	uint64_t first_ns, last_ns;	/* first and last time the thread was seen */
	uint64_t vol, invol;		/* switch-outs: voluntary (sleeping, blocked, yielded), involuntary
					 * (preempted) */
	uint64_t yields;		/* of the voluntary: left the CPU runnable inside sched_yield */
	uint64_t migrations;		/* switched in on another CPU than its previous run */
	uint64_t wakeups;		/* woken while sleeping or blocked */
	uint64_t wait_max_ns;		/* longest wakeup to switch-in */
	uint64_t irqs, softirqs, traps;	/* taken while the thread ran */
	struct sched_syscall *sc;	/* by first use; sorted by nr by sched_model_finish */
	size_t nsc, capsc;
	struct sched_counter *preempters;	/* who preempted it (the next thread), by count */
	size_t npre, cappre;
	/* current state (private to the model) */
	enum sched_state st;
	int known;		/* st is known */
	uint64_t st_since;	/* start of the current state interval */
	uint64_t woken_ns;	/* wakeup time while runnable after a wakeup, else 0 */
	int cpu;		/* last CPU it ran on, -1 none */
	int in_sys;		/* in a system call */
	uint32_t sys_nr;
	uint64_t sys_entry;	/* 0: entry not seen */
	int in_yield;		/* the call in progress is sched_yield: a switch-out still runnable in it
				 * is a yield (voluntary), not a preemption */
	unsigned trap_depth;
	int exited;		/* its exit was seen: no time after its last switch-out */
	enum sched_why why;	/* while RUNNABLE */
	int user;		/* free for the model's users (the Chrome export: its lane is named) */
	/* waiting for a CPU from the kernel's run_delay (kernel.run_delay samples, process scope): each
	 * off-CPU period's runnable tail is the run_delay grown over it */
	uint64_t rd_exact;	/* off-CPU periods whose wait is exactly the kernel's */
	uint64_t rd_split;	/* ... whose waits' total is exact, split among them by estimate */
	uint64_t rd_unknown;	/* ... no sample covered: the wait is at least what was recorded */
	uint64_t rd_unknown_ns;	/* ... their time off CPU not counted runnable: the most it may lack */
	struct sched_pend *pend;	/* (private) off-CPU segments waiting for a sample */
	size_t npend, cappend, pend_periods;
	uint64_t rd_base_delay, rd_base_slices, rd_seen_ins, rd_held_delay, rd_held_slices;
	int rd_have, rd_held;
};

struct sched_cpu {
	unsigned trace;
	int cpu;
	uint64_t ns[SCHED_NSTATES];	/* by the mode of what ran (SCHED_ST_USER..SOFTIRQ) */
	uint64_t idle_ns;		/* the idle task (tid 0) ran */
	uint64_t unknown_ns;		/* before its first switch, or a thread not recorded */
	uint64_t switches, irqs, softirqs;
	uint64_t syscalls_unknown;	/* system calls entered by no known thread (before its first switch) */
	uint64_t losses;		/* times its kernel stream lost events */
	uint64_t irqs_unclosed;		/* interrupts entered with no exit before the next switch or system
					 * call (closed at the CPU's previous event: a guess) */
	uint64_t history_ns;		/* its kernel stream's kept history starts here (0: all kept) */
	/* private */
	uint32_t cur;			/* current thread, SCHED_TID_NONE unknown */
	uint64_t last_ns;		/* time charged up to; 0: none yet */
	uint64_t unknown_since;		/* cur is unknown since (its first event) */
	uint64_t unknown_ns_since;	/* unknown_ns at that time */
	unsigned irq_depth, softirq_depth;
};

struct sched_irq {
	unsigned trace;
	int soft;
	uint32_t nr;
	uint64_t count, total_ns, max_ns;
	char name[SCHED_COMM_MAX];	/* the handler's (irq_entry's name) or the vector's ("TIMER"); "" */
};

/* A finished interval of one thread's state (thread_states), or a completed system call. */
struct sched_interval {
	unsigned trace;
	uint32_t tid, pid;
	int cpu;		/* on-CPU states: the CPU; else the CPU it left (-1 unknown) */
	enum sched_state state;
	uint64_t start_ns, end_ns;
	uint32_t nr;		/* has_nr: the system call in progress (SYSCALL, and off CPU inside one) */
	int has_nr;
	enum sched_why why;	/* RUNNABLE: why */
};
struct sched_call {
	unsigned trace;
	uint32_t tid, pid, nr;
	uint64_t entry_ns, exit_ns;
	int64_t ret;
	int cpu;		/* where it returned */
};

struct sched_hooks {
	void *arg;
	/* each finished state interval of a thread (zero-length ones are not given) */
	int (*interval)(void *arg, const struct sched_interval *iv);
	/* each completed system call, at its exit */
	int (*call)(void *arg, const struct sched_call *c);
};

struct sched_model;

/* keep_durations: keep each completed call's duration for percentiles (stats); 0 for streaming users. */
int sched_model_new(struct sched_model **out, const struct sched_hooks *hooks, int keep_durations);
void sched_model_free(struct sched_model *m);

/* Takes the next kernel event, in merge order. 0, -ENOMEM, or a hook's nonzero return. */
int sched_model_feed(struct sched_model *m, const struct sched_ev *ev);

/* The time a thread has spent in each state up to now_ns (its totals plus the current state's part),
 * for the regions: ns[SCHED_NSTATES]; states never known count nowhere. Returns 0, or -ENOENT for a
 * thread never seen. */
int sched_model_thread_at(struct sched_model *m, unsigned trace, uint32_t tid, uint64_t now_ns,
			  uint64_t ns[SCHED_NSTATES]);

/* Charges every thread's and CPU's current state up to end_ns (the end of the trace), gives the last
 * intervals to the hook, sorts the tables. Call once, after the last event. */
int sched_model_finish(struct sched_model *m, uint64_t end_ns);

/* The tables (valid until sched_model_free): threads by (trace, tid), CPUs by (trace, cpu), interrupts
 * by (trace, soft, nr) once finished. */
size_t sched_model_threads(const struct sched_model *m, struct sched_thread ***out);
size_t sched_model_cpus(const struct sched_model *m, struct sched_cpu ***out);
size_t sched_model_irqs(const struct sched_model *m, struct sched_irq ***out);
/* How runnable time is known: 0 every wakeup recorded (system scope, or nothing says otherwise),
 * 1 from the kernel's run_delay (process scope with kernel.run_delay), 2 process scope without it:
 * a wakeup by another process or an interrupt is not recorded, so runnable is at least what is
 * shown (the rest of such a wait counts as sleeping). */
int sched_model_runnable_source(const struct sched_model *m);
/* Says that the kernel stream of (trace, cpu) keeps its history from start_ns only (a flight
 * snapshot: older blocks overwritten). Before the latest such start of a trace (its common window)
 * no off-CPU state is known: a thread might have run on the CPU whose history is gone, so that time is
 * SCHED_ST_NOTREC, and a system call entered before it has no duration. Call before feeding. */
int sched_model_history(struct sched_model *m, unsigned trace, int cpu, uint64_t start_ns);
/* The common window's start of a trace (0: every stream's history is whole). */
uint64_t sched_model_common_start(const struct sched_model *m, unsigned trace);
/* The first and last time of the events fed from the CPUs' streams (the state dump and other persistent
 * events of the recording's start are not counted). */
void sched_model_span(const struct sched_model *m, uint64_t *first_ns, uint64_t *last_ns);
/* A thread by (trace, tid), NULL when never seen. */
struct sched_thread *sched_model_thread(struct sched_model *m, unsigned trace, uint32_t tid);

/* Percentile P (0-100) of sorted durations (count n > 0): rank floor(P/100 x (n - 1)), the lower. */
uint64_t sched_pct(const uint64_t *sorted, size_t n, unsigned p);

#endif
