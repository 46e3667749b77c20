/* SPDX-License-Identifier: MIT */
/* toolkit/sched_runq.h: the scheduling model's off-CPU periods held until the kernel's run_delay
 * (kernel.run_delay samples) says how much of each was a wait for a CPU. Private to sched_model.c
 * and sched_runq.c. */
#ifndef LTT_TOOLKIT_SCHED_RUNQ_H
#define LTT_TOOLKIT_SCHED_RUNQ_H

#include "toolkit/sched_model.h"

#define SCHED_ST_UNSEEN SCHED_NSTATES	/* a segment marking a switch-in of a thread not followed */

/* One off-CPU segment of a thread, as recorded; period_end: a switch-in ends it. */
struct sched_pend {
	uint64_t start, end;
	enum sched_state st;
	enum sched_why why;
	int cpu;
	uint32_t nr;
	int has_nr;
	int period_end;
};

/* Gives a finished interval of t: charges t's totals and calls the model's hook. */
typedef int (*runq_emit_fn)(void *arg, struct sched_thread *t, const struct sched_pend *seg);

/* Holds a segment of t (st UNSEEN: a switch-in whose off-CPU state was not followed). -ENOMEM or 0. */
int runq_push(struct sched_thread *t, const struct sched_pend *seg);
/* After a period ended: resolves it if a held sample waited for it. */
int runq_period_done(struct sched_thread *t, runq_emit_fn emit, void *arg);
/* A kernel.run_delay sample of t. */
int runq_sample(struct sched_thread *t, const struct sched_ev *e, runq_emit_fn emit, void *arg);
/* At the end: what is held is given as recorded (counted in rd_unknown), a held sample first. */
int runq_flush(struct sched_thread *t, runq_emit_fn emit, void *arg);

#endif
