/* SPDX-License-Identifier: MIT */
/* The thread table: one owner of thread identity (issue 33 point 3, as Perfetto's process tracker is
 * the one owner there). Fed every event of a trace set in merge order, it keeps per (trace, tid) the
 * thread's process, its names over time, when it was first and last seen and whether its start and end
 * are in the trace, from what the trace itself says:
 *
 * - libltt's core facility: core.process (a thread alive at start: its name; its process the trace's
 *   ltt_pid), core.thread_start (tid, pid, name), core.thread_name, core.thread_exit;
 * - the kernel facility: state_process (system scope's state dump: pid, comm), process (fork: the
 *   child's comm and start; exec: the new comm; exit; wakeup and migrate: the comm), schedchange (both
 *   comms), and in a process-scope recording every event of the threads' own streams (system calls,
 *   switches, faults, run_delay: perf records only the traced process's threads there, so their
 *   process is the trace's ltt_pid: a thread made behind libltt's interposer, which no core.thread_start
 *   names, is still in its process);
 * - the app facility's Trace2 thread names ("main", "th01:name"), kept apart (trace2).
 *
 * A thread's name is the kernel's (its comm) as last told before the time asked; its process's name
 * is the name of the thread whose tid is the pid. `ltt sql`'s threads table, `ltt stats --sched` and
 * the models ask it. */
#ifndef LTT_TOOLKIT_THREAD_TABLE_H
#define LTT_TOOLKIT_THREAD_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/reader.h>

#define TT_NONE UINT32_MAX	/* a pid not known */

/* A thread's key in a trace set, for the maps of per-thread state (common/hashmap.h). */
struct tt_key {
	unsigned trace;
	uint32_t tid;
};
static inline uint64_t tt_key_hash(struct tt_key k)
{
	return ((uint64_t)k.trace << 32 | k.tid) * 0x9e3779b97f4a7c15ull >> 7;
}
static inline int tt_key_eq(struct tt_key a, struct tt_key b)
{
	return a.trace == b.trace && a.tid == b.tid;
}

struct tt_name {
	uint64_t ns;		/* told at (the first name of a thread holds from its first sight) */
	char *name;
};

struct tt_thread {
	unsigned trace;
	uint32_t tid, pid;		/* pid TT_NONE when nothing says */
	uint64_t first_ns, last_ns;	/* first and last event naming the thread (any role) */
	uint64_t events;		/* events about it (their top-level tid: toolkit/event_tid.h) */
	uint64_t start_ns, end_ns;	/* its start (thread_start, fork) and end (thread_exit, exit); 0 */
	struct tt_name *names;		/* in time order, consecutive duplicates merged */
	size_t nnames, capnames;
	char *trace2;			/* the app facility's name of it, or NULL */
	int own;			/* its own streams are recorded (process scope, or libltt's records) */
};

struct thread_table;

int thread_table_new(struct thread_table **out);
void thread_table_free(struct thread_table *tt);
/* Every event, in merge order. 0 or -ENOMEM. */
int thread_table_event(struct thread_table *tt, const struct ltt_event *ev);
/* The threads, sorted by (trace, first_ns, tid); valid until the next event or the table's end. */
size_t thread_table_threads(struct thread_table *tt, struct tt_thread ***out);
/* A thread, NULL when never seen. */
struct tt_thread *thread_table_find(const struct thread_table *tt, unsigned trace, uint32_t tid);
/* Its name at ns (its first name before that), its last name (ns UINT64_MAX), or NULL. */
const char *tt_name_at(const struct tt_thread *t, uint64_t ns);
/* The name of process pid of trace (its main thread's last name), or NULL. */
const char *thread_table_process_name(const struct thread_table *tt, unsigned trace, uint32_t pid);

#endif
